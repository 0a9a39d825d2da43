/**
 * A still AVIF without its metadata, its AV1 data byte for byte as it was: the file's top-level
 * boxes read (ISO/IEC 14496-12), what of its `meta` is kept chosen (avif-items.ts), and a file
 * written anew from that alone: `ftyp`; a `meta` with `hdlr`, `pitm`, `iloc`, `iinf`, `iref` and
 * `iprp`; one `mdat` holding the kept items' AV1 data. Whatever else the file held (other items,
 * names, boxes, bytes outside the items' data or after the last box, metadata and padding OBUs)
 * is not written. The AV1 data's framing and largest frame are checked (av1-framing.ts); its
 * pixels are not decoded.
 */
import { type FileHandle, open } from "node:fs/promises";
import { av1Image, type Span } from "./av1-framing.js";
import {
  type AvifDecoding,
  decodedItems,
  gridCanvas,
  MAX_GRID_DESCRIPTOR,
} from "./avif-decoding.js";
import { avifHeader } from "./avif-header.js";
import { type Extent, itemDataEnd, type KeptImage, keptImage } from "./avif-items.js";
import { type BoxAt, readBoxesOf } from "./isobmff.js";

/** Brands kept from the original's `ftyp` besides `avif` and `mif1` (AVIF §7, MIAF). */
const BRANDS: ReadonlySet<string> = new Set(["miaf", "MA1A", "MA1B"]);
/** A `meta` box larger than this is not a plain image's. */
const MAX_META = 256 * 1024;
/** An `ftyp` names a few brands. */
const MAX_FTYP = 1024;
const COPY_BYTES = 256 * 1024;
/** An AVIF has three top-level boxes or a few more (`free`, a second `mdat`): past these, not one. */
const MAX_TOP_BOXES = 16;

/** An AVIF whose AV1 data may decode to more pixels than the limit (libvips' words). */
export class AvifTooLarge extends Error {
  constructor() {
    super("Input image exceeds pixel limit");
  }
}

/**
 * Writes the AVIF at `source` to `dest` as kept (see above); false when it is not one this takes
 * (`dest` may then hold part of a file: the caller writes it anew), its `colr` profile among
 * them when it is not `icc`, the profile libvips read from it (avif-items.ts `keptImage`).
 * Throws AvifTooLarge when its AV1 data may decode to more than `maxPixels`.
 */
export async function writeAvifWithoutMetadata(
  source: string,
  dest: string,
  maxPixels: number,
  icc?: Buffer,
): Promise<boolean> {
  const input = await open(source, "r");
  try {
    const kept = await readKept(input, icc);
    if (kept === undefined) return false;
    // Each item's AV1 data as written: its OBUs but metadata and padding (av1-framing.ts).
    const written: { extents: readonly Extent[]; spans: Span[]; length: number }[] = [];
    for (const { extents, length, properties } of kept.image.items) {
      const read = itemReader(input, extents);
      const av1 = await av1Image(read, length);
      if (av1 === undefined) return false;
      if (av1.width * av1.height > maxPixels) throw new AvifTooLarge();
      // The size the library reports is its `ispe`'s: one that claims another frame than the
      // AV1 data's is not kept (libheif refuses to decode it: "does not have the size signaled").
      const ispe = ispeOf(kept.image, properties);
      if (ispe?.width !== av1.width || ispe.height !== av1.height) return false;
      const total = av1.kept.reduce((n, span) => n + span.length, 0);
      written.push({ extents, spans: av1.kept, length: total });
    }
    const output = await open(dest, "w");
    try {
      const lengths = written.map((w) => w.length);
      await output.write(avifHeader(kept.image, lengths, kept.brands));
      const buf = Buffer.allocUnsafe(COPY_BYTES);
      for (const { extents, spans } of written) {
        for (const span of spans) {
          for (const piece of physical(extents, span)) {
            for (let at = piece.offset; at < piece.offset + piece.length; ) {
              const want = Math.min(COPY_BYTES, piece.offset + piece.length - at);
              const { bytesRead } = await input.read(buf, 0, want, at);
              if (bytesRead === 0) return false;
              await output.write(buf.subarray(0, bytesRead));
              at += bytesRead;
            }
          }
        }
      }
    } finally {
      await output.close();
    }
    return true;
  } catch (err) {
    // Boxes that claim more than they hold.
    if (err instanceof RangeError) return false;
    throw err;
  } finally {
    await input.close();
  }
}

/** The width and height an item's `ispe` property gives (its box as kept: avif-properties.ts). */
function ispeOf(
  image: KeptImage,
  associations: KeptImage["items"][number]["properties"],
): { width: number; height: number } | undefined {
  for (const { index } of associations) {
    const property = image.properties[index - 1];
    if (property?.toString("latin1", 4, 8) === "ispe" && property.length >= 20) {
      return { width: property.readUInt32BE(12), height: property.readUInt32BE(16) };
    }
  }
  return undefined;
}

/**
 * The most pixels decoding the AVIF at `source` may make (avif-decoding.ts): each AV1 item's
 * largest frame by its sequence header (av1-framing.ts), whatever its `ispe` claims, and each
 * grid's canvas and tiles. Undefined when its image is not one read there, an item's data does
 * not read as AV1 OBUs, a grid's descriptor is not one, or there is no single `meta` box to tell.
 */
export async function avifDecoding(source: string): Promise<AvifDecoding | undefined> {
  const input = await open(source, "r");
  try {
    const { size } = await input.stat();
    const meta = await metaOf(input, await readBoxesOf(input, size, MAX_TOP_BOXES));
    const found = meta === undefined ? undefined : decodedItems(meta);
    if (found === undefined) return undefined;
    const frames = new Map<number, number>();
    for (const [id, extents] of found.av1) {
      const length = extents.reduce((n, e) => n + e.length, 0);
      const av1 = await av1Image(itemReader(input, extents), length);
      if (av1 === undefined) return undefined;
      frames.set(id, av1.width * av1.height);
    }
    let canvas = 0;
    let tiles = 0;
    for (const grid of found.grids) {
      const { descriptor } = grid;
      const bytes = Buffer.isBuffer(descriptor)
        ? descriptor
        : await itemReader(input, descriptor)(0, MAX_GRID_DESCRIPTOR);
      const layout = gridCanvas(bytes);
      if (layout === undefined || layout.rows * layout.columns !== grid.tiles.length) {
        return undefined;
      }
      canvas = Math.max(canvas, layout.width * layout.height);
      tiles = Math.max(
        tiles,
        grid.tiles.reduce((n, id) => n + (frames.get(id) ?? 0), 0),
      );
    }
    return { frame: Math.max(...frames.values()), canvas, tiles };
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  } finally {
    await input.close();
  }
}

/**
 * Whether the AVIF at `source` was cut short: an item's data, where its `iloc` box places it,
 * runs past the end of the file. Any item's, not only the image's: libheif from 1.23.7 (sharp
 * 0.35.6) reads only the items it decodes, so an AVIF whose last bytes, an EXIF or XMP item's,
 * are missing decodes as if whole, where a file cut short is refused like any other (README,
 * "Media"). False when it has no single `meta` box to tell: libheif judges it then.
 */
export async function avifCutShort(source: string): Promise<boolean> {
  const input = await open(source, "r");
  try {
    const { size } = await input.stat();
    const meta = await metaOf(input, await readBoxesOf(input, size, MAX_TOP_BOXES));
    return meta !== undefined && itemDataEnd(meta) > size;
  } catch (err) {
    if (err instanceof RangeError) return false;
    throw err;
  } finally {
    await input.close();
  }
}

/** `length` bytes of the file at `at`, or fewer where it ends. */
async function readAt(input: FileHandle, at: number, length: number): Promise<Buffer> {
  const out = Buffer.alloc(length);
  const { bytesRead } = await input.read(out, 0, length, at);
  return out.subarray(0, bytesRead);
}

/** The payload of the file's one `meta` box past its version and flags, if it has one. */
async function metaOf(input: FileHandle, top: readonly BoxAt[]): Promise<Buffer | undefined> {
  const metas = top.filter((b) => b.type === "meta");
  const [metaAt] = metas;
  if (metas.length !== 1 || metaAt === undefined || metaAt.size > MAX_META) return undefined;
  return readAt(input, metaAt.start + metaAt.headerSize + 4, metaAt.size - metaAt.headerSize - 4);
}

/** The file's kept image and `ftyp` brands, or undefined when it is not one this takes. */
async function readKept(
  input: FileHandle,
  icc: Buffer | undefined,
): Promise<{ image: KeptImage; brands: string[] } | undefined> {
  const { size } = await input.stat();
  const top = await readBoxesOf(input, size, MAX_TOP_BOXES);
  const [ftypAt] = top;
  // A sequence (`moov`) is an animation: left to the caller, which keeps its first frame.
  if (ftypAt?.type !== "ftyp" || top.some((b) => b.type === "moov")) return undefined;
  if (ftypAt.size > MAX_FTYP) return undefined;
  const meta = await metaOf(input, top);
  if (meta === undefined) return undefined;
  const ftyp = await readAt(
    input,
    ftypAt.start + ftypAt.headerSize,
    ftypAt.size - ftypAt.headerSize,
  );
  // An item's data lies in an `mdat` (anything else in the file is not the image's).
  const inData = (e: Extent) =>
    top.some(
      (b) =>
        b.type === "mdat" &&
        e.offset >= b.start + b.headerSize &&
        e.offset + e.length <= b.start + b.size,
    );
  const image = keptImage(meta, inData, icc);
  if (image === undefined) return undefined;
  const brands = ["avif", "mif1"];
  for (let at = 8; at + 4 <= ftyp.length; at += 4) {
    const brand = ftyp.toString("latin1", at, at + 4);
    if (BRANDS.has(brand) && !brands.includes(brand)) brands.push(brand);
  }
  return { image, brands };
}

/** Where in the file a span of an item's data lies: a piece of each extent it meets. */
function physical(extents: readonly Extent[], span: Span): Extent[] {
  const pieces: Extent[] = [];
  let start = 0;
  for (const e of extents) {
    const from = Math.max(span.at, start);
    const to = Math.min(span.at + span.length, start + e.length);
    if (from < to) pieces.push({ offset: e.offset + (from - start), length: to - from });
    start += e.length;
  }
  return pieces;
}

/** Reads an item's data, its extents one after the other, at `at`. */
const itemReader =
  (input: FileHandle, extents: readonly Extent[]) =>
  async (at: number, length: number): Promise<Buffer> => {
    const parts: Buffer[] = [];
    let skip = at;
    let left = length;
    for (const e of extents) {
      if (left === 0) break;
      if (skip >= e.length) {
        skip -= e.length;
        continue;
      }
      const part = Buffer.alloc(Math.min(e.length - skip, left));
      const { bytesRead } = await input.read(part, 0, part.length, e.offset + skip);
      parts.push(part.subarray(0, bytesRead));
      left -= part.length;
      skip = 0;
    }
    return Buffer.concat(parts);
  };
