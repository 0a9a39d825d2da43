/**
 * A still AVIF without its metadata, its AV1 data byte for byte as it was: the file's top-level
 * boxes read (ISO/IEC 14496-12), what of its `meta` is kept chosen (avif-items.ts), and a file
 * written anew from that alone: `ftyp`; a `meta` with `hdlr`, `pitm`, `iloc`, `iinf`, `iref` and
 * `iprp`; one `mdat` holding the kept items' data. Whatever else the file held (other items,
 * names, boxes, bytes outside the items' data or after the last box) is not written. The AV1
 * data's framing and largest frame are checked (av1-framing.ts); its pixels are not decoded.
 */
import { type FileHandle, open } from "node:fs/promises";
import { av1LargestFrame } from "./av1-framing.js";
import { type Extent, type KeptImage, keptImage } from "./avif-items.js";
import { box, full, int, readBoxesOf } from "./isobmff.js";

/** Brands kept from the original's `ftyp` besides `avif` and `mif1` (AVIF §7, MIAF). */
const BRANDS: ReadonlySet<string> = new Set(["miaf", "MA1A", "MA1B"]);
/** A `meta` box larger than this is not a plain image's. */
const MAX_META = 256 * 1024;
const COPY_BYTES = 256 * 1024;

/** An AVIF whose AV1 data may decode to more pixels than the limit (libvips' words). */
export class AvifTooLarge extends Error {
  constructor() {
    super("Input image exceeds pixel limit");
  }
}

/**
 * Writes the AVIF at `source` to `dest` as kept (see above); false (nothing written) when it is
 * not one this takes. Throws AvifTooLarge when its AV1 data may decode to more than `maxPixels`.
 */
export async function writeAvifWithoutMetadata(
  source: string,
  dest: string,
  maxPixels: number,
): Promise<boolean> {
  const input = await open(source, "r");
  try {
    const kept = await readKept(input);
    if (kept === undefined) return false;
    for (const { extents, length } of kept.image.items) {
      const frame = await av1LargestFrame(itemReader(input, extents), length);
      if (frame === undefined) return false;
      if (frame.width * frame.height > maxPixels) throw new AvifTooLarge();
    }
    const output = await open(dest, "w");
    try {
      await output.write(header(kept.image, kept.brands));
      const buf = Buffer.allocUnsafe(COPY_BYTES);
      for (const { extents } of kept.image.items) {
        for (const e of extents) {
          for (let at = 0; at < e.length; ) {
            const want = Math.min(COPY_BYTES, e.length - at);
            const { bytesRead } = await input.read(buf, 0, want, e.offset + at);
            if (bytesRead === 0) return false;
            await output.write(buf.subarray(0, bytesRead));
            at += bytesRead;
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

/** The file's kept image and `ftyp` brands, or undefined when it is not one this takes. */
async function readKept(
  input: FileHandle,
): Promise<{ image: KeptImage; brands: string[] } | undefined> {
  const { size } = await input.stat();
  const top = await readBoxesOf(input, size);
  const [ftypAt] = top;
  const metas = top.filter((b) => b.type === "meta");
  const [metaAt] = metas;
  // A sequence (`moov`) is an animation: left to the caller, which keeps its first frame.
  if (ftypAt?.type !== "ftyp" || top.some((b) => b.type === "moov")) return undefined;
  if (metas.length !== 1 || metaAt === undefined || metaAt.size > MAX_META) return undefined;
  const read = async (at: number, length: number): Promise<Buffer> => {
    const out = Buffer.alloc(length);
    const { bytesRead } = await input.read(out, 0, length, at);
    return out.subarray(0, bytesRead);
  };
  const ftyp = await read(ftypAt.start + ftypAt.headerSize, ftypAt.size - ftypAt.headerSize);
  // Past the meta box's version and flags.
  const meta = await read(
    metaAt.start + metaAt.headerSize + 4,
    metaAt.size - metaAt.headerSize - 4,
  );
  // An item's data lies in an `mdat` (anything else in the file is not the image's).
  const inData = (e: Extent) =>
    top.some(
      (b) =>
        b.type === "mdat" &&
        e.offset >= b.start + b.headerSize &&
        e.offset + e.length <= b.start + b.size,
    );
  const image = keptImage(meta, inData);
  if (image === undefined) return undefined;
  const brands = ["avif", "mif1"];
  for (let at = 8; at + 4 <= ftyp.length; at += 4) {
    const brand = ftyp.toString("latin1", at, at + 4);
    if (BRANDS.has(brand) && !brands.includes(brand)) brands.push(brand);
  }
  return { image, brands };
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

/**
 * The new file up to its `mdat`'s data: item IDs as they were, each item's data one extent, the
 * items one after the other in the `mdat` (so the `iloc` offsets follow from the sizes before).
 */
function header(image: KeptImage, brands: readonly string[]): Buffer {
  const { items } = image;
  const wide = items.some(({ item }) => item.id > 0xffff);
  const id = (value: number) => int(value, wide ? 4 : 2);
  const wideIndex = image.properties.length > 127;
  const ftyp = box("ftyp", Buffer.from(`avif\0\0\0\0${brands.join("")}`, "latin1"));
  const hdlr = full("hdlr", 0, 0, int(0, 4), Buffer.from("pict", "latin1"), Buffer.alloc(13));
  const pitm = full("pitm", wide ? 1 : 0, 0, id(image.primaryId));
  const infes = items.map(({ item }) =>
    full(
      "infe",
      wide ? 3 : 2,
      item.hidden ? 1 : 0,
      id(item.id),
      int(0, 2),
      Buffer.from(`${item.type}\0`, "latin1"),
    ),
  );
  const iinf = full("iinf", 0, 0, int(items.length, 2), ...infes);
  const refs = image.references.map((r) =>
    box(r.type, id(r.from), int(r.to.length, 2), ...r.to.map(id)),
  );
  const iref = refs.length > 0 ? [full("iref", wide ? 1 : 0, 0, ...refs)] : [];
  const essential = wideIndex ? 0x8000 : 0x80;
  const ipma = full(
    "ipma",
    wide ? 1 : 0,
    wideIndex ? 1 : 0,
    int(items.length, 4),
    ...items.map(({ item, properties }) =>
      Buffer.concat([
        id(item.id),
        int(properties.length, 1),
        ...properties.map((a) => int((a.essential ? essential : 0) + a.index, wideIndex ? 2 : 1)),
      ]),
    ),
  );
  const iprp = box("iprp", box("ipco", ...image.properties.map((p) => p.raw)), ipma);
  // iloc version 0 (2 when IDs need 4 bytes, with its construction method 0): offsets and
  // lengths of 4 bytes, no base offset, one extent an item.
  const iloc = (firstOffset: number): Buffer => {
    let offset = firstOffset;
    const entries = items.map(({ item, length }) => {
      const entry = Buffer.concat([
        id(item.id),
        ...(wide ? [int(0, 2)] : []),
        int(0, 2),
        int(1, 2),
        int(offset, 4),
        int(length, 4),
      ]);
      offset += length;
      return entry;
    });
    return full("iloc", wide ? 2 : 0, 0, Buffer.from([0x44, 0x00]), id(items.length), ...entries);
  };
  const meta = (first: number) => full("meta", 0, 0, hdlr, pitm, iloc(first), iinf, ...iref, iprp);
  const total = items.reduce((n, { length }) => n + length, 0);
  const first = ftyp.length + meta(0).length + 8;
  if (first + total > 0xffffffff) throw new RangeError("more than 4 GB");
  return Buffer.concat([ftyp, meta(first), int(8 + total, 4), Buffer.from("mdat", "latin1")]);
}
