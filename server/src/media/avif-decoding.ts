/**
 * What decoding an AVIF may make, told from its `meta` box before any of it is decoded: what
 * bounds an AVIF that libheif decodes (one encoded again), where libvips' pixel limit reads the
 * primary item's `ispe` box, which libheif compares with what it decoded only once it has. The
 * image libheif decodes is the primary item and its alpha (an `auxl` item of it): each must be an
 * AV1 image (`av01`) or a grid of them (HEIF ISO/IEC 23008-12 §6.6.2.3), the two kinds libavif
 * (Chrome's AVIF reader) shows; an overlay (`iovl`: libavif does not decode one, its issue 2313),
 * an identity (`iden`) or another codec's item is not read here, so not taken. A grid's tiles are decoded one by one onto its canvas, whose size
 * its descriptor gives, whatever its `ispe` says: a grid of 2 × 2 tiles of 4000 × 4000 with an
 * `ispe` of 128 × 128, 743 bytes, made libheif hold +1.08 GB before it refused the size.
 */
import { type Extent, itemLocations, items, references } from "./avif-items.js";
import { type Box, boxes, fullBox, uint } from "./isobmff.js";

/** A grid's descriptor is 8 or 12 bytes (its dimensions are 16 or 32 bits). */
export const MAX_GRID_DESCRIPTOR = 12;
/** The item types libheif decodes as an AVIF's image that are read here. */
const DECODED_TYPES: ReadonlySet<string> = new Set(["av01", "grid"]);

const count = (within: readonly Box[], type: string) =>
  within.filter((b) => b.type === type).length;

/** A grid item: where its descriptor is, and the AV1 items of its tiles, in order. */
export interface GridItem {
  /** In the file (construction method 0), or the bytes of `idat` (method 1). */
  readonly descriptor: readonly Extent[] | Buffer;
  readonly tiles: readonly number[];
}

/** The items decoding an AVIF may decode: each AV1 image item's extents, and each grid. */
export interface DecodedItems {
  readonly av1: ReadonlyMap<number, readonly Extent[]>;
  readonly grids: readonly GridItem[];
}

/**
 * The items of the `meta` box's payload (after its version and flags) a decoder may decode;
 * undefined when the image is not one read here (see above), an AV1 item's data is not in the
 * file, a grid's descriptor is neither in the file nor in `idat`, or a grid's tiles are not as
 * many AV1 items as its descriptor's rows and columns. Throws a RangeError where a box claims
 * more than it holds.
 */
export function decodedItems(meta: Buffer): DecodedItems | undefined {
  const inMeta = boxes(meta);
  // A box meant to be there once, there twice, may be read otherwise by libheif: not taken.
  if (["pitm", "iinf", "iloc", "iref", "idat"].some((t) => count(inMeta, t) > 1)) return undefined;
  const find = (type: string): Box | undefined => inMeta.find((b) => b.type === type);
  const [pitm, iinf, iloc] = [find("pitm"), find("iinf"), find("iloc")];
  if (pitm === undefined || iinf === undefined || iloc === undefined) return undefined;
  const pitmBox = fullBox(pitm);
  const primaryId = uint(pitmBox.body, 0, pitmBox.version === 0 ? 2 : 4);
  const all = items(iinf);
  const refs = references(find("iref"));
  const decoded = [
    primaryId,
    ...refs.filter((r) => r.type === "auxl" && r.to.includes(primaryId)).map((r) => r.from),
  ];
  if (decoded.some((id) => !DECODED_TYPES.has(all.get(id)?.type ?? ""))) return undefined;

  const where = itemLocations(iloc);
  const idat = find("idat")?.body;
  const av1 = new Map<number, readonly Extent[]>();
  const grids: GridItem[] = [];
  for (const item of all.values()) {
    const at = where.get(item.id);
    if (item.type === "av01") {
      if (at?.method !== 0 || at.dataReference !== 0 || at.extents.length === 0) return undefined;
      av1.set(item.id, at.extents);
    }
  }
  for (const item of all.values()) {
    if (item.type !== "grid") continue;
    const at = where.get(item.id);
    const dimg = refs.filter((r) => r.type === "dimg" && r.from === item.id);
    const tiles = dimg[0]?.to ?? [];
    if (at === undefined || at.dataReference !== 0 || dimg.length !== 1) return undefined;
    if (tiles.length === 0 || tiles.some((id) => !av1.has(id))) return undefined;
    const length = at.extents.reduce((n, e) => n + e.length, 0);
    if (length > MAX_GRID_DESCRIPTOR) return undefined;
    if (at.method === 0) {
      grids.push({ descriptor: at.extents, tiles });
    } else if (at.method === 1 && idat !== undefined) {
      const parts = at.extents.map((e) => {
        if (e.offset + e.length > idat.length) throw new RangeError("idat cut short");
        return idat.subarray(e.offset, e.offset + e.length);
      });
      grids.push({ descriptor: Buffer.concat(parts), tiles });
    } else return undefined;
  }
  return av1.size > 0 ? { av1, grids } : undefined;
}

/** A grid's descriptor (HEIF §6.6.2.3.2, `ImageGrid`): its tiles' layout and canvas size. */
export interface GridCanvas {
  readonly rows: number;
  readonly columns: number;
  readonly width: number;
  readonly height: number;
}

/** The grid descriptor in `bytes`; undefined when it is not one (a version past 0, cut short). */
export function gridCanvas(bytes: Buffer): GridCanvas | undefined {
  if (bytes.length < 8 || bytes[0] !== 0) return undefined;
  const field = ((bytes[1] ?? 0) & 1) === 1 ? 4 : 2;
  if (bytes.length < 4 + 2 * field) return undefined;
  return {
    rows: (bytes[2] ?? 0) + 1,
    columns: (bytes[3] ?? 0) + 1,
    width: uint(bytes, 4, field),
    height: uint(bytes, 4 + field, field),
  };
}

/** The most pixels decoding an AVIF may make, by kind (avif-boxes.ts `avifDecoding`). */
export interface AvifDecoding {
  /** The largest frame any AV1 item's sequence header allows. */
  readonly frame: number;
  /** The largest grid canvas; 0 without a grid. */
  readonly canvas: number;
  /** The most pixels one grid's tiles hold together, a tile used twice counted twice; 0 without. */
  readonly tiles: number;
}

/**
 * Whether decoding may make more than `maxPixels` (`MEDIA_MAX_PIXELS`): a frame or a canvas past
 * it, or a grid's tiles past four times it. A grid's tiles cover its canvas and overhang it by
 * less than a tile each way (MIAF ISO/IEC 23000-22 §7.3.11.4.2, which libavif enforces), so hold
 * less than four times it. Past that, the tiles are not a grid of that canvas, and decoding
 * them would cost what they hold whatever the canvas (nine tiles each at the limit on a canvas
 * of one tile, or one tile used 256 times).
 */
export function pastLimit(decoding: AvifDecoding, maxPixels: number): boolean {
  return (
    decoding.frame > maxPixels || decoding.canvas > maxPixels || decoding.tiles > 4 * maxPixels
  );
}
