/**
 * A decompression bomb costs its header, a grid of tiles included (README "Media"; admin.yaml
 * `uploadMedia`; server/src/media/avif-decoding.ts): an AVIF that is encoded again is decoded by
 * libheif, which lays a grid's tiles on the canvas its descriptor (HEIF ISO/IEC 23008-12
 * §6.6.2.3) gives, and compares that with the `ispe` box libvips' pixel limit reads only once it
 * has decoded it. So a grid whose canvas is past `MEDIA_MAX_PIXELS` is refused from its
 * descriptor (422) whatever its `ispe` claims, and so are tiles that hold together more than four
 * times the limit (MIAF ISO/IEC 23000-22 §7.3.11.4.2: a grid's tiles overhang its canvas by less
 * than a tile each way). The descriptor is read where it lies, in the file or in the `meta` box's
 * `idat`. An image libheif would decode that is neither an AV1 image nor a grid of them is not
 * taken (415). The fixture is libavif's (test/fixtures/media/README.md).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { avifDecoding } from "../../server/src/media/avif-boxes.js";
import { itemLocations, items } from "../../server/src/media/avif-items.js";
import { normaliseImage } from "../../server/src/media/image-normalise.js";
import { DomainError } from "../../server/src/platform/domain-error.js";

const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "media", "grid3x3-libavif.avif");
/** 3000 × 3000 as a 3 × 3 grid of 1000 × 1000 tiles. */
let grid: Buffer;
let dir: string;
beforeAll(async () => {
  grid = await readFile(FIXTURE);
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-avif-grids-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function saved(bytes: Buffer): Promise<string> {
  const at = path.join(dir, `in-${Math.random()}.avif`);
  await writeFile(at, bytes);
  return at;
}

async function stored(bytes: Buffer, maxPixels: number) {
  const from = await saved(bytes);
  return normaliseImage(from, "avif", `${from}.out`, maxPixels).then(
    async (facts) => ({ facts, out: await readFile(`${from}.out`) }),
    (err: unknown) => {
      if (err instanceof DomainError) return { refused: err.code, message: err.message };
      throw err;
    },
  );
}

/** Where a box of `type` starts (its size field) in `avif`, the first after `from`. */
const boxAt = (avif: Buffer, type: string, from = 0) => avif.indexOf(type, from) - 4;

/** The grid's descriptor: libavif writes it in the `mdat`, 8 bytes (16-bit dimensions). */
function descriptorAt(avif: Buffer): number {
  const at = avif.indexOf(Buffer.from([0, 0, 2, 2, 0x0b, 0xb8, 0x0b, 0xb8]));
  expect(at).toBeGreaterThan(boxAt(avif, "mdat"));
  return at;
}

/** The same file with the grid item's `ispe` (the first: libavif lists the grid's first). */
function gridIspe(avif: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(avif);
  const ispe = boxAt(out, "ispe");
  out.writeUInt32BE(width, ispe + 12);
  out.writeUInt32BE(height, ispe + 16);
  return out;
}

/** The same file with the grid's descriptor claiming another canvas. */
function gridCanvas(avif: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(avif);
  const at = descriptorAt(out);
  out.writeUInt16BE(width, at + 4);
  out.writeUInt16BE(height, at + 6);
  return out;
}

/**
 * The same file with the grid's descriptor moved into an `idat` box at the end of `meta`, where
 * libheif's own encoder writes it: `iloc` made version 1 (a construction method per item), the
 * grid's method 1 (offsets in `idat`), and every other item's offset moved along.
 */
function descriptorInIdat(avif: Buffer): Buffer {
  const iloc = boxAt(avif, "iloc");
  const size = avif.readUInt32BE(iloc);
  // libavif's iloc: version 0, offsets and lengths of 4 bytes, no base offset, one extent each.
  expect([avif[iloc + 8], avif[iloc + 12], avif[iloc + 13]]).toEqual([0, 0x44, 0]);
  const count = avif.readUInt16BE(iloc + 14);
  const entries = Array.from({ length: count }, (_, i) => {
    const at = iloc + 16 + i * 14;
    expect(avif.readUInt16BE(at + 4)).toBe(1);
    return {
      id: avif.readUInt16BE(at),
      offset: avif.readUInt32BE(at + 6),
      length: avif.readUInt32BE(at + 10),
    };
  });
  // The grid's descriptor is the one item of 8 bytes (each tile's AV1 data is longer).
  const moved = entries.filter((e) => e.length === 8);
  expect(moved).toHaveLength(1);
  const [descriptor] = moved;
  if (descriptor === undefined) throw new Error("no descriptor");
  const idat = Buffer.concat([
    Buffer.from([0, 0, 0, 16]),
    Buffer.from("idat"),
    avif.subarray(descriptor.offset, descriptor.offset + 8),
  ]);
  const grown = count * 2 + idat.length;
  const newIloc = Buffer.alloc(size + count * 2);
  newIloc.writeUInt32BE(newIloc.length, 0);
  newIloc.write("iloc", 4, "latin1");
  newIloc.set([1, 0, 0, 0, 0x44, 0], 8);
  newIloc.writeUInt16BE(count, 14);
  entries.forEach((e, i) => {
    const at = 16 + i * 16;
    const inIdat = e === descriptor;
    newIloc.writeUInt16BE(e.id, at);
    newIloc.writeUInt16BE(inIdat ? 1 : 0, at + 2);
    newIloc.writeUInt16BE(1, at + 6);
    newIloc.writeUInt32BE(inIdat ? 0 : e.offset + grown, at + 8);
    newIloc.writeUInt32BE(e.length, at + 12);
  });
  const meta = boxAt(avif, "meta");
  const metaEnd = meta + avif.readUInt32BE(meta);
  const out = Buffer.concat([
    avif.subarray(0, iloc),
    newIloc,
    avif.subarray(iloc + size, metaEnd),
    idat,
    avif.subarray(metaEnd),
  ]);
  out.writeUInt32BE(avif.readUInt32BE(meta) + grown, meta);
  return out;
}

/** The same file with the grid item's type (its `infe`) made `type`. */
function gridItemType(avif: Buffer, type: string): Buffer {
  const out = Buffer.from(avif);
  out.write(type, out.indexOf("grid"), "latin1");
  return out;
}

const TOO_LARGE = (limit: number) => ({
  refused: "unprocessable",
  message: `Image too large: more than ${limit} pixels (MEDIA_MAX_PIXELS).`,
});
const NOT_TAKEN = {
  refused: "unsupported_type",
  message: "Not an image Pressroom takes: send JPEG, PNG, WebP, AVIF or GIF bytes.",
};

describe("a grid AVIF, encoded again", () => {
  it("is stored whole within the limit: the canvas its descriptor gives, tile by tile", async () => {
    const result = await stored(grid, 9_000_000);
    expect(result).toMatchObject({ facts: { type: "avif", width: 3000, height: 3000 } });
    if (!("out" in result)) throw new Error("not stored");
    const pixel = async (y: number) => [
      ...(await sharp(result.out)
        .extract({ left: 1500, top: y, width: 1, height: 1 })
        .raw()
        .toBuffer()),
    ];
    // The top half one colour, the bottom half the other, across the middle row of tiles.
    for (const [y, colour] of [
      [10, [200, 90, 40]],
      [1400, [200, 90, 40]],
      [1600, [40, 90, 200]],
      [2990, [40, 90, 200]],
    ] as const) {
      const got = await pixel(y);
      const off = got.map((value, i) => Math.abs(value - (colour[i] ?? 0)));
      expect(Math.max(...off), `at y ${y}: ${got}`).toBeLessThan(12);
    }
  });

  it("is refused (422) from its descriptor when its canvas is past the limit, though its ispe claims 128 × 128", async () => {
    const lying = gridIspe(grid, 128, 128);
    // Each tile (1000 × 1000) is within the limit; libvips' limit reads the ispe.
    expect(await stored(lying, 5_000_000)).toEqual(TOO_LARGE(5_000_000));
    // Within it, libheif decodes the canvas and then refuses the size its ispe claimed: 415.
    expect(await stored(lying, 9_000_000)).toEqual(NOT_TAKEN);
    // Told so in idat as in the file.
    expect(await stored(descriptorInIdat(lying), 5_000_000)).toEqual(TOO_LARGE(5_000_000));
  });

  it("reads a descriptor in idat as one in the file", async () => {
    const moved = descriptorInIdat(grid);
    expect(moved.includes("idat")).toBe(true);
    expect(await avifDecoding(await saved(moved))).toEqual({
      frame: 1_000_000,
      canvas: 9_000_000,
      tiles: 9_000_000,
    });
    expect(await stored(moved, 9_000_000)).toMatchObject({ facts: { width: 3000, height: 3000 } });
    const bigger = descriptorInIdat(gridIspe(gridCanvas(grid, 3000, 2900), 3000, 2900));
    expect(await avifDecoding(await saved(bigger))).toMatchObject({ canvas: 3000 * 2900 });
  });

  it("is refused (422) when its tiles hold more than four times the limit, its canvas within it", async () => {
    // Nine tiles of 1000 × 1000 on a canvas of 1000 × 1000: eight of them lie wholly outside it,
    // which MIAF forbids; libheif decodes all nine.
    const overhanging = gridIspe(gridCanvas(grid, 1000, 1000), 1000, 1000);
    expect(await avifDecoding(await saved(overhanging))).toEqual({
      frame: 1_000_000,
      canvas: 1_000_000,
      tiles: 9_000_000,
    });
    expect(await stored(overhanging, 2_000_000)).toEqual(TOO_LARGE(2_000_000));
    // Up to four times the limit is within it: the nine tiles are decoded, the canvas kept.
    expect(await stored(overhanging, 2_250_000)).toMatchObject({
      facts: { width: 1000, height: 1000 },
    });
  });

  it.each([
    ["an overlay (iovl)", "iovl"],
    ["an identity derivation (iden)", "iden"],
    ["an image of another codec (hvc1)", "hvc1"],
  ])("is not taken (415) when the image libheif would decode is %s", async (_, type) => {
    const other = gridItemType(grid, type);
    expect(await avifDecoding(await saved(other))).toBeUndefined();
    expect(await stored(other, 9_000_000)).toEqual(NOT_TAKEN);
  });

  it("is not taken (415) when the alpha libheif would decode with the image is another codec's", async () => {
    const alpha = await readFile(path.join(path.dirname(FIXTURE), "turned-alpha-libavif.avif"));
    expect(await avifDecoding(await saved(alpha))).toEqual({
      frame: 48 * 32,
      canvas: 0,
      tiles: 0,
    });
    // The second AV1 item is the alpha (an auxl of the first).
    const other = Buffer.from(alpha);
    other.write("hvc1", other.indexOf("av01", other.indexOf("av01") + 4), "latin1");
    expect(await avifDecoding(await saved(other))).toBeUndefined();
  });

  it("is not taken (415) when its descriptor's rows and columns are not its tiles", async () => {
    const out = Buffer.from(grid);
    out[descriptorAt(out) + 2] = 3; // four rows of three: twelve tiles, nine given
    expect(await avifDecoding(await saved(out))).toBeUndefined();
    expect(await stored(out, 9_000_000)).toEqual(NOT_TAKEN);
  });
});

describe("the item readers, for what libheif may read otherwise", () => {
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(8 + body.length);
    header.write(type, 4, "latin1");
    return { type, body, bytes: Buffer.concat([header, body]) };
  };
  /** An `infe` of version 2: the item's id and type. */
  const infe = (id: number, type: string) => {
    const body = Buffer.alloc(13);
    body[0] = 2;
    body.writeUInt16BE(id, 4);
    body.write(type, 8, "latin1");
    return box("infe", body).bytes;
  };
  /** An `iloc` of version 0, 4-byte offsets and lengths: one extent an item. */
  const iloc = (...ids: number[]) => {
    const head = Buffer.from([0, 0, 0, 0, 0x44, 0, 0, ids.length]);
    const entries = ids.map((id, i) => {
      const entry = Buffer.alloc(14);
      entry.writeUInt16BE(id, 0);
      entry.writeUInt16BE(1, 4);
      entry.writeUInt32BE(1000 + i * 10, 6);
      entry.writeUInt32BE(10, 10);
      return entry;
    });
    return box("iloc", head, ...entries);
  };

  it("refuses an item id listed twice in iinf (RangeError): which of the two is it?", () => {
    const iinf = (...entries: Buffer[]) =>
      box("iinf", Buffer.from([0, 0, 0, 0, 0, entries.length]), ...entries);
    expect([...items(iinf(infe(1, "grid"), infe(2, "av01"))).values()].map((i) => i.type)).toEqual([
      "grid",
      "av01",
    ]);
    expect(() => items(iinf(infe(1, "grid"), infe(1, "av01")))).toThrow(RangeError);
  });

  it("refuses an item located twice in iloc (RangeError)", () => {
    expect([...itemLocations(iloc(1, 2)).keys()]).toEqual([1, 2]);
    expect(() => itemLocations(iloc(1, 1))).toThrow(RangeError);
  });

  it("refuses an iloc field of another size than 0, 4 or 8 bytes (RangeError): libheif reads it as 0", () => {
    /** An `iloc` of version 1 with these field sizes, listing no item. */
    const sized = (offset: number, length: number, base: number, index: number) =>
      box("iloc", Buffer.from([1, 0, 0, 0, (offset << 4) | length, (base << 4) | index, 0, 0]));
    for (const [offset, length, base, index] of [
      [4, 4, 0, 0],
      [8, 8, 8, 8],
      [0, 4, 4, 0],
    ] as const) {
      expect(itemLocations(sized(offset, length, base, index)).size).toBe(0);
    }
    // An index of 9 bytes (one byte more than libheif reads) let a grid's tile be found in one
    // place by this reader and in another, of 16000 × 16000, by libheif.
    for (const [offset, length, base, index] of [
      [4, 4, 0, 9],
      [2, 4, 0, 0],
      [4, 2, 0, 0],
      [4, 4, 1, 0],
    ] as const) {
      expect(() => itemLocations(sized(offset, length, base, index))).toThrow(RangeError);
    }
  });
});
