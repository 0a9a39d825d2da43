/**
 * A still AVIF (in sRGB, or in the colour its code points or its profile name) is stored as it
 * came, without its metadata and without being decoded
 * (admin.yaml `uploadMedia`; server/src/media/avif-boxes.ts, av1-framing.ts): its AV1 data byte
 * for byte, in boxes written anew holding the image, its alpha and their properties (a rotation
 * among them); EXIF, XMP and anything after its boxes gone. What is checked instead of a decode:
 * its boxes, its AV1 data's framing (else it goes the decoding way, which refuses what libheif
 * cannot read: 415) and the frame size its sequence header allows (422 past the pixel limit,
 * whatever its `ispe` box claims). Damage inside its frame shows when a copy is asked for: 422
 * (openapi.yaml `MediaCopyImpossible`). Fixtures of another encoder (libavif's avifenc 0.11.1,
 * test/fixtures/media/README.md) stand beside sharp's own.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeAvifWithoutMetadata } from "../../server/src/media/avif-boxes.js";
import { transformImage } from "../../server/src/media/image-copies.js";
import { normaliseImage } from "../../server/src/media/image-normalise.js";
import { DomainError } from "../../server/src/platform/domain-error.js";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "media");
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-avif-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const WIDTH = 300;
const HEIGHT = 200;
/** Noise with a falling alpha: every AV1 coefficient matters, so damage shows. */
const noisy = () => {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 4).map((_, i) =>
    i % 4 === 3 ? 255 - ((i >> 2) % WIDTH) / 2 : (i * 7919 + (i >> 5)) % 256,
  );
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 4 } });
};
const tagged = () =>
  noisy()
    .avif({ quality: 60 })
    .withExif({ IFD0: { Make: "Pressroom Test Camera" } })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/">GPS 51.5007 N</x:xmpmeta>')
    .toBuffer();

/** Box types of a file's top level, and of its `meta` box's `iinf` items. */
function layout(avif: Buffer): { top: string[]; items: string[] } {
  const top: string[] = [];
  for (let at = 0; at + 8 <= avif.length; at += avif.readUInt32BE(at)) {
    top.push(avif.toString("latin1", at + 4, at + 8));
    if (avif.readUInt32BE(at) < 8) break;
  }
  const items: string[] = [];
  for (let at = avif.indexOf("infe"); at >= 0; at = avif.indexOf("infe", at + 4)) {
    const version = avif[at + 4] ?? 0;
    items.push(
      avif.toString("latin1", at + (version === 2 ? 12 : 14), at + (version === 2 ? 16 : 18)),
    );
  }
  return { top, items };
}

async function stored(
  bytes: Buffer,
  maxPixels = 1_000_000,
): Promise<{ facts: object; out: Buffer }> {
  const from = path.join(dir, `in-${Math.random()}.avif`);
  await writeFile(from, bytes);
  const facts = await normaliseImage(from, "avif", `${from}.out`, maxPixels);
  return { facts, out: await readFile(`${from}.out`) };
}

/** `bytes` written to a new file of the test's directory: its path. */
async function saved(bytes: Buffer): Promise<string> {
  const at = path.join(dir, `saved-${Math.random()}.avif`);
  await writeFile(at, bytes);
  return at;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => (err instanceof DomainError ? { code: err.code, message: err.message } : err),
  );

/**
 * Whether `out` holds the AV1 data of `original` byte for byte, so was not encoded again: the
 * image's and then the alpha's, each found in the upload (the longest start of the stored data
 * found there, then the rest).
 */
function keepsAv1Data(original: Buffer, out: Buffer): boolean {
  const av1 = out.subarray(out.indexOf("mdat") + 4);
  let found = 0;
  for (let step = av1.length; step > 0; step >>= 1) {
    while (found + step <= av1.length && original.includes(av1.subarray(0, found + step))) {
      found += step;
    }
  }
  return found > 64 && original.includes(av1.subarray(found));
}

/** The same file with every `ispe` claiming 1 × 1. */
function claimingOnePixel(avif: Buffer): Buffer {
  const out = Buffer.from(avif);
  for (let at = out.indexOf("ispe"); at >= 0; at = out.indexOf("ispe", at + 4)) {
    out.writeUInt32BE(1, at + 8);
    out.writeUInt32BE(1, at + 12);
  }
  return out;
}

/** Where the first OBUs of the `mdat`'s first item start, by type (1 sequence header, 6 frame). */
function firstObus(avif: Buffer): Map<number, number> {
  const starts = new Map<number, number>();
  let at = avif.indexOf("mdat") + 4;
  for (let n = 0; n < 3; n++) {
    starts.set(((avif[at] ?? 0) >> 3) & 15, at);
    let size = 0;
    let length = 0;
    for (let byte = 0x80; byte & 0x80; length++) {
      byte = avif[at + 1 + length] ?? 0;
      size += (byte & 0x7f) * 2 ** (7 * length);
    }
    at += 1 + length + size;
  }
  return starts;
}

/**
 * A file this module wrote (one `iloc` v0 entry of 14 bytes an item, primary first, each item one
 * extent in the one `mdat`) with the items' data changed by `edit`, `iloc` and `mdat` following.
 */
function withItemData(stored: Buffer, edit: (data: Buffer[]) => Buffer[]): Buffer {
  const iloc = stored.indexOf("iloc") - 4;
  const entries = Array.from(
    { length: stored.readUInt16BE(iloc + 14) },
    (_, i) => iloc + 16 + i * 14,
  );
  const data = edit(
    entries.map((at) =>
      stored.subarray(
        stored.readUInt32BE(at + 6),
        stored.readUInt32BE(at + 6) + stored.readUInt32BE(at + 10),
      ),
    ),
  );
  const mdat = stored.indexOf("mdat") - 4;
  const out = Buffer.concat([stored.subarray(0, mdat + 8), ...data]);
  let offset = mdat + 8;
  entries.forEach((at, i) => {
    out.writeUInt32BE(offset, at + 6);
    out.writeUInt32BE(data[i]?.length ?? 0, at + 10);
    offset += data[i]?.length ?? 0;
  });
  out.writeUInt32BE(out.length - mdat, mdat);
  return out;
}

/**
 * A file this module wrote with its first `av1C` given the primary item's sequence header OBU as
 * its configOBUs, and every size and offset after it moved along.
 */
function withAv1CConfig(stored: Buffer): Buffer {
  const iloc = stored.indexOf("iloc") - 4;
  const primary = stored.readUInt32BE(iloc + 16 + 6);
  // After the temporal delimiter (2 bytes): the sequence header, its size in one byte.
  const header = stored.subarray(primary + 2, primary + 4 + (stored[primary + 3] ?? 0));
  const av1C = stored.indexOf("av1C") - 4;
  const out = Buffer.concat([stored.subarray(0, av1C + 12), header, stored.subarray(av1C + 12)]);
  for (const type of ["meta", "iprp", "ipco", "av1C"]) {
    const at = out.indexOf(type) - 4;
    out.writeUInt32BE(out.readUInt32BE(at) + header.length, at);
  }
  for (let i = 0; i < out.readUInt16BE(iloc + 14); i++) {
    const at = iloc + 16 + i * 14 + 6;
    out.writeUInt32BE(out.readUInt32BE(at) + header.length, at);
  }
  return out;
}

/**
 * A file this module wrote (`ipma` v0 with one-byte indices, `iloc` v0 as `withItemData` reads
 * it) with a `colr` property of `body` added after the others and associated with the items of
 * `entries` (0 the image, 1 its alpha: the order of their `ipma` entries); the boxes around it
 * and the items' offsets follow.
 */
function withColour(stored: Buffer, body: Buffer, entries: number[]): Buffer {
  const colr = Buffer.concat([Buffer.alloc(4), Buffer.from("colr"), body]);
  colr.writeUInt32BE(colr.length, 0);
  const ipco = stored.indexOf("ipco") - 4;
  let index = 0;
  for (let at = ipco + 8; at < ipco + stored.readUInt32BE(ipco); at += stored.readUInt32BE(at)) {
    index += 1;
  }
  const ipcoEnd = ipco + stored.readUInt32BE(ipco);
  let out = Buffer.concat([stored.subarray(0, ipcoEnd), colr, stored.subarray(ipcoEnd)]);
  const ipma = out.indexOf("ipma") - 4;
  let added = 0;
  let at = ipma + 16;
  for (let e = 0; e < out.readUInt32BE(ipma + 12); e++) {
    const count = out[at + 2] ?? 0;
    if (entries.includes(e)) {
      out = Buffer.concat([
        out.subarray(0, at + 3 + count),
        Buffer.from([index + 1]),
        out.subarray(at + 3 + count),
      ]);
      out[at + 2] = count + 1;
      added += 1;
    }
    at += 3 + (out[at + 2] ?? 0);
  }
  const grown: [string, number][] = [
    ["meta", colr.length + added],
    ["iprp", colr.length + added],
    ["ipco", colr.length],
    ["ipma", added],
  ];
  for (const [type, by] of grown) {
    const box = out.indexOf(type) - 4;
    out.writeUInt32BE(out.readUInt32BE(box) + by, box);
  }
  const iloc = out.indexOf("iloc") - 4;
  for (let i = 0; i < out.readUInt16BE(iloc + 14); i++) {
    const offset = iloc + 16 + i * 14 + 6;
    out.writeUInt32BE(out.readUInt32BE(offset) + colr.length + added, offset);
  }
  return out;
}

/** An OBU of `type` with a size field and `payload`. */
const obu = (type: number, payload: Buffer) =>
  Buffer.concat([Buffer.from([(type << 3) | 2, payload.length]), payload]);

describe("an AVIF without its metadata, its AV1 data as it was", () => {
  it("keeps the same pixels and alpha, without EXIF, XMP or bytes after its boxes", async () => {
    const original = await tagged();
    expect(layout(original).items).toEqual(expect.arrayContaining(["Exif", "mime"]));
    const { facts, out } = await stored(Buffer.concat([original, Buffer.from("<html>trail")]));
    expect(facts).toEqual({ type: "avif", width: WIDTH, height: HEIGHT, bytes: out.length });
    expect(layout(out)).toEqual({ top: ["ftyp", "meta", "mdat"], items: ["av01", "av01"] });
    for (const text of ["Pressroom Test Camera", "GPS", "<html", "Exif"]) {
      expect(out.includes(text)).toBe(false);
    }
    const before = await sharp(original).ensureAlpha().raw().toBuffer();
    const after = await sharp(out).ensureAlpha().raw().toBuffer();
    expect(after.equals(before)).toBe(true);
  });

  it("keeps another encoder's rotation, and reports the upright size", async () => {
    // 48 × 32, red left and blue right, turned a quarter by `irot`: upright 32 × 48.
    const original = await readFile(path.join(FIXTURES, "turned-alpha-libavif.avif"));
    expect(original.includes("GPS")).toBe(true);
    const { facts, out } = await stored(original);
    expect(facts).toMatchObject({ type: "avif", width: 32, height: 48 });
    expect(out.includes("irot")).toBe(true);
    expect(out.includes("GPS")).toBe(false);
    const before = await sharp(original).ensureAlpha().raw().toBuffer();
    const after = await sharp(out).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(after.info).toMatchObject({ width: 32, height: 48 });
    // Turned upright by its `irot`: the right half (blue) on top, the left (red) below.
    const rgb = (x: number, y: number) => [
      ...after.data.subarray((y * 32 + x) * 4, (y * 32 + x) * 4 + 3),
    ];
    const hue = ([r = 0, , b = 0]: number[]) => (r > b + 100 ? "red" : b > r + 100 ? "blue" : "?");
    expect([hue(rgb(2, 2)), hue(rgb(2, 45))]).toEqual(["blue", "red"]);
    expect(after.data.equals(before)).toBe(true);
  });

  it.each([
    // An HDR image: BT.2020 primaries, PQ transfer, BT.2020 matrix (9/16/9), full range.
    ["hdr10-libavif.avif", 10, false, [0, 9, 0, 16, 0, 9, 0x80]],
    // sRGB's code points (1/13/6): libavif's default.
    ["alpha10-libavif.avif", 10, true, [0, 1, 0, 13, 0, 6, 0x80]],
  ])(
    "keeps libavif's %s of %i bits as it came: its samples, its alpha and its colour code points",
    async (name, bits, alpha, nclx) => {
      const original = await readFile(path.join(FIXTURES, name));
      expect(original.includes("GPS")).toBe(true);
      const { facts, out } = await stored(original);
      expect(facts).toEqual({ type: "avif", width: 64, height: 48, bytes: out.length });
      expect(out.includes("GPS")).toBe(false);
      expect(layout(out).items).toEqual(alpha ? ["av01", "av01"] : ["av01"]);
      expect(keepsAv1Data(original, out)).toBe(true);
      const colour = out.indexOf("colrnclx") + 8;
      expect([...out.subarray(colour, colour + 7)]).toEqual(nclx);
      expect((await sharp(out).metadata()).bitsPerSample).toBe(bits);
      const samples = (avif: Buffer) => sharp(avif).raw({ depth: "ushort" }).toBuffer();
      expect((await samples(out)).equals(await samples(original))).toBe(true);
    },
  );

  it("makes 8-bit sRGB copies of a kept AVIF of 10 bits, its alpha kept in WebP", async () => {
    const { out } = await stored(await readFile(path.join(FIXTURES, "alpha10-libavif.avif")));
    const facts = { type: "avif" as const, width: 64, height: 48 };
    const webp = await transformImage(out, facts, { w: 64, fm: "webp" }, 1e6);
    const meta = await sharp(webp.bytes).metadata();
    expect([webp.type, meta.width, meta.height, meta.hasAlpha, meta.space]).toEqual([
      "webp",
      64,
      48,
      true,
      "srgb",
    ]);
    const jpeg = await transformImage(out, facts, { w: 32, fm: "jpeg" }, 1e6);
    expect((await sharp(jpeg.bytes).metadata()).depth).toBe("uchar");
  });

  it("keeps no metadata OBU of the AV1 data, and no configuration OBU of av1C", async () => {
    const { out: clean } = await stored(await tagged());
    // ITU-T T.35 metadata (type 4, a country code, a text) after the temporal delimiter.
    // (libaom refuses a padding OBU in an image, so none is tried here; it goes the same way.)
    const t35 = Buffer.concat([
      Buffer.from([4, 0xb5]),
      Buffer.from("GPS 51.5007 N"),
      Buffer.from([0x80]),
    ]);
    const inflated = withItemData(clean, ([primary = Buffer.alloc(0), ...rest]) => [
      Buffer.concat([primary.subarray(0, 2), obu(5, t35), primary.subarray(2)]),
      ...rest,
    ]);
    expect(inflated.includes("GPS")).toBe(true);
    const before = await sharp(clean).ensureAlpha().raw().toBuffer();
    expect((await sharp(inflated).ensureAlpha().raw().toBuffer()).equals(before)).toBe(true);
    const { out } = await stored(inflated);
    expect(out.includes("GPS")).toBe(false);
    expect(out.equals(clean)).toBe(true);
    // av1C may repeat the sequence header (configOBUs): a decoder reads that one first, so it is
    // not kept (the data's own is what the pixel limit was checked against).
    const withConfig = withAv1CConfig(clean);
    expect(withConfig.readUInt32BE(withConfig.indexOf("av1C") - 4)).toBeGreaterThan(12);
    expect((await sharp(withConfig).ensureAlpha().raw().toBuffer()).equals(before)).toBe(true);
    const kept = (await stored(withConfig)).out;
    expect(kept.readUInt32BE(kept.indexOf("av1C") - 4)).toBe(12);
    expect(kept.equals(clean)).toBe(true);
  });

  it.each([
    [
      "a frame header before its sequence header",
      (data: Buffer[]) => {
        const [primary = Buffer.alloc(0), ...rest] = data;
        // The temporal delimiter (0x12 0x00) made an empty frame header.
        expect([...primary.subarray(0, 2)]).toEqual([0x12, 0x00]);
        return [Buffer.concat([Buffer.from([0x1a, 0x00]), primary.subarray(2)]), ...rest];
      },
    ],
  ])("declines to keep an AVIF with %s", async (_, edit) => {
    const { out: clean } = await stored(await tagged());
    const from = path.join(dir, `edited-${Math.random()}.avif`);
    await writeFile(from, withItemData(clean, edit));
    expect(await writeAvifWithoutMetadata(from, `${from}.out`, 1e6)).toBe(false);
  });

  it("declines to keep an AVIF whose items' data overlap (a small file claiming a large one)", async () => {
    const { out: clean } = await stored(await tagged());
    const overlapping = Buffer.from(clean);
    const iloc = overlapping.indexOf("iloc") - 4;
    // The alpha's extent (second entry) is the primary's: AV1 data that walks, written twice.
    overlapping.writeUInt32BE(overlapping.readUInt32BE(iloc + 16 + 6), iloc + 30 + 6);
    overlapping.writeUInt32BE(overlapping.readUInt32BE(iloc + 16 + 10), iloc + 30 + 10);
    const from = path.join(dir, `overlap-${Math.random()}.avif`);
    await writeFile(from, overlapping);
    expect(await writeAvifWithoutMetadata(from, `${from}.out`, 1e6)).toBe(false);
  });

  it("encodes again what it does not keep: a grid of tiles", async () => {
    const original = await readFile(path.join(FIXTURES, "grid-libavif.avif"));
    expect(layout(original).items).toContain("grid");
    const { facts, out } = await stored(original);
    expect(facts).toMatchObject({ type: "avif", width: 128, height: 128 });
    expect(layout(out).items).not.toContain("grid");
  });

  it.each([
    ["sharp's", () => noisy().avif({ quality: 60 }).toBuffer(), WIDTH * HEIGHT],
    ["libavif's", () => readFile(path.join(FIXTURES, "turned-alpha-libavif.avif")), 48 * 32],
    // One it encodes again: libvips' own pixel limit reads the ispe (1 × 1), libheif would decode
    // the AV1 data's frame whatever the limit.
    [
      "sharp's, of 12 bits",
      () => noisy().avif({ quality: 60, bitdepth: 12 }).toBuffer(),
      WIDTH * HEIGHT,
    ],
  ])(
    "refuses by its AV1 sequence header an AVIF (%s) past the pixel limit, whatever its ispe says",
    async (_, make, pixels) => {
      const lying = claimingOnePixel(await make());
      expect(await refusal(stored(lying, pixels - 1))).toEqual({
        code: "unprocessable",
        message: `Image too large: more than ${pixels - 1} pixels (MEDIA_MAX_PIXELS).`,
      });
      // Within the limit it is not kept (the size the library would report is its ispe's), and
      // libheif refuses to decode a frame of another size than its ispe's: not an image (415).
      expect(await refusal(stored(lying, pixels))).toEqual({
        code: "unsupported_type",
        message: "Not an image Pressroom takes: send JPEG, PNG, WebP, AVIF or GIF bytes.",
      });
      expect(await writeAvifWithoutMetadata(await saved(lying), `${dir}/lying.out`, pixels)).toBe(
        false,
      );
    },
  );

  it.each([
    ["cut short", (b: Buffer) => b.subarray(0, b.length - 100)],
    // Its EXIF and XMP items come last: the image's data whole, which libheif decodes.
    ["cut short by its last byte, in its XMP", (b: Buffer) => b.subarray(0, b.length - 1)],
    ["cut short in its AV1 data", (b: Buffer) => b.subarray(0, b.indexOf("mdat") + 2000)],
    [
      "whose AV1 data is not OBUs",
      (b: Buffer) => {
        const out = Buffer.from(b);
        out.fill(0xff, out.indexOf("mdat") + 4);
        return out;
      },
    ],
    [
      "whose first OBU has its forbidden bit set",
      (b: Buffer) => {
        const out = Buffer.from(b);
        const sequenceHeader = firstObus(out).get(1) ?? 0;
        out[sequenceHeader] = (out[sequenceHeader] ?? 0) | 0x80;
        return out;
      },
    ],
    [
      "whose AV1 data holds no frame (its frame OBU made padding)",
      (b: Buffer) => {
        const out = Buffer.from(b);
        const frame = firstObus(out).get(6) ?? 0;
        expect(out[frame]).toBe((6 << 3) | 0x02);
        out[frame] = (15 << 3) | 0x02;
        return out;
      },
    ],
  ])("refuses an AVIF %s (415)", async (_, damage) => {
    expect(await refusal(stored(damage(await tagged())))).toEqual({
      code: "unsupported_type",
      message: "Not an image Pressroom takes: send JPEG, PNG, WebP, AVIF or GIF bytes.",
    });
  });

  it("encodes again an AVIF of 12 bits, as one of 8 (no browser need show 12)", async () => {
    const original = await readFile(path.join(FIXTURES, "alpha12-libavif.avif"));
    expect((await sharp(original).metadata()).bitsPerSample).toBe(12);
    const { facts, out } = await stored(original);
    expect(facts).toMatchObject({ type: "avif", width: 64, height: 48 });
    expect(out.includes("GPS")).toBe(false);
    expect((await sharp(out).metadata()).bitsPerSample).toBe(8);
  });

  it.each([
    [
      "sharp's, Display P3, 4:4:4 with alpha",
      () =>
        noisy()
          .withIccProfile("p3")
          .avif({ quality: 60 })
          .withExif({ IFD0: { ImageDescription: "GPS 51.5007 N" } })
          .toBuffer(),
      { width: WIDTH, height: HEIGHT },
    ],
    [
      "libavif's p3-libavif.avif, its code points beside it",
      () => readFile(path.join(FIXTURES, "p3-libavif.avif")),
      { width: 64, height: 48 },
    ],
  ])(
    "keeps an AVIF tagged with a profile that describes it (%s): its AV1 data and the profile whole",
    async (_, make, size) => {
      const original = await make();
      expect(original.includes("GPS")).toBe(true);
      const { facts, out } = await stored(original);
      expect(facts).toEqual({ type: "avif", ...size, bytes: out.length });
      expect(out.includes("GPS")).toBe(false);
      expect(keepsAv1Data(original, out)).toBe(true);
      const [before, after] = await Promise.all([
        sharp(original).metadata(),
        sharp(out).metadata(),
      ]);
      expect(before.icc?.includes("acsp")).toBe(true);
      expect(after.icc?.equals(before.icc ?? Buffer.alloc(0))).toBe(true);
      // The same samples under the same profile: the same colours, wherever they are shown.
      const samples = (avif: Buffer) => sharp(avif).keepIccProfile().ensureAlpha().raw().toBuffer();
      expect((await samples(out)).equals(await samples(original))).toBe(true);
    },
  );

  it("keeps no colour of an alpha: a profile there, which no reader takes, is dropped", async () => {
    const { out: clean } = await stored(await tagged());
    const junk = Buffer.from(`prof${"GPS 51.5007 N ".repeat(8)}`, "latin1");
    const laden = withColour(clean, junk, [1]);
    const before = await sharp(clean).ensureAlpha().raw().toBuffer();
    expect((await sharp(laden).ensureAlpha().raw().toBuffer()).equals(before)).toBe(true);
    expect((await sharp(laden).metadata()).icc).toBeUndefined();
    const { out } = await stored(laden);
    expect(out.includes("GPS")).toBe(false);
    expect(out.equals(clean)).toBe(true);
  });

  it.each([
    ["a second profile, one libheif does not read", "prof", "junk"],
    ["the same profile twice", "prof", "p3"],
    ["a restricted profile beside the profile", "rICC", "p3"],
    ["a second set of code points", "nclx", "nclx"],
  ])(
    "encodes again, in sRGB, an AVIF whose image has %s (readers differ in which they take)",
    async (_, kind, what) => {
      const p3 = await noisy().withIccProfile("p3").avif({ quality: 60 }).toBuffer();
      const { out: clean } = await stored(p3);
      const profile = (await sharp(p3).metadata()).icc ?? Buffer.alloc(0);
      const body =
        what === "nclx"
          ? Buffer.from("nclx\x00\x01\x00\x0d\x00\x06\x80", "latin1")
          : Buffer.concat([
              Buffer.from(kind, "latin1"),
              what === "p3" ? profile : Buffer.from("GPS 51.5007 N ".repeat(8), "latin1"),
            ]);
      const once = withColour(clean, body, [0]);
      // sharp's file holds a profile and no code points: they are added twice.
      const twice = what === "nclx" ? withColour(once, body, [0]) : once;
      if (what === "nclx") expect((await stored(once)).out.includes("colrnclx")).toBe(true);
      const { facts, out } = await stored(twice);
      expect(facts).toMatchObject({ type: "avif", width: WIDTH, height: HEIGHT });
      expect(out.includes("GPS")).toBe(false);
      expect(keepsAv1Data(twice, out)).toBe(false);
      expect((await sharp(out).metadata()).icc).toBeUndefined();
    },
  );

  it("declines to keep an AVIF whose profile is not the one libvips read", async () => {
    const p3 = await saved(await noisy().withIccProfile("p3").avif({ quality: 60 }).toBuffer());
    const profile = (await sharp(p3).metadata()).icc ?? Buffer.alloc(0);
    expect(await writeAvifWithoutMetadata(p3, `${p3}.out`, 1e6, profile)).toBe(true);
    const other = Buffer.from(profile);
    other[other.length - 1] = (other[other.length - 1] ?? 0) ^ 1;
    expect(await writeAvifWithoutMetadata(p3, `${p3}.out`, 1e6, other)).toBe(false);
    expect(await writeAvifWithoutMetadata(p3, `${p3}.out`, 1e6)).toBe(false);
  });

  it("makes the copies of a kept Display P3 AVIF in sRGB, converted by its profile", async () => {
    // #2a7 in Display P3 is held as (82, 167, 125); converted back to sRGB it is near (34, 170,
    // 119) again, while its samples as they are would look wrong untagged.
    const p3 = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2a7" } })
      .withIccProfile("p3")
      .avif({ quality: 90 })
      .toBuffer();
    const { out } = await stored(p3);
    expect((await sharp(out).metadata()).icc).toBeDefined();
    const facts = { type: "avif" as const, width: 64, height: 48 };
    for (const fm of ["png", "webp", "jpeg", "avif"] as const) {
      const copy = await transformImage(out, facts, { w: 32, fm }, 1e6);
      const [meta, stats] = await Promise.all([
        sharp(copy.bytes).metadata(),
        sharp(copy.bytes).stats(),
      ]);
      expect(meta.hasProfile).toBe(false);
      const means = stats.channels.map((c) => Math.round(c.mean));
      [34, 170, 119].forEach((want, i) => {
        expect(Math.abs((means[i] ?? 0) - want), `${fm}: ${means}`).toBeLessThan(6);
      });
    }
  });

  it.each([
    ["of version 5 (iccMAX, which browsers do not read)", 8, "\x05"],
    ["of a device link, not a class images are tagged with", 12, "link"],
    ["from CMYK", 16, "CMYK"],
    ["from grey, for an RGB image", 16, "GRAY"],
    ["whose header gives another size than its length", 0, "\x00\x00\x01\x00"],
  ])(
    "encodes again in sRGB an AVIF whose profile does not describe it: one %s",
    async (_, at, bytes) => {
      const p3 = await noisy().withIccProfile("p3").avif({ quality: 60 }).toBuffer();
      const profile = p3.indexOf("acsp") - 36;
      const damaged = Buffer.from(p3);
      damaged.write(bytes, profile + at, "latin1");
      const { facts, out } = await stored(damaged);
      expect(facts).toMatchObject({ type: "avif", width: WIDTH, height: HEIGHT });
      expect(out.includes("acsp")).toBe(false);
      expect((await sharp(out).metadata()).icc).toBeUndefined();
    },
  );

  it("refuses an AVIF it encodes again (12 bits) cut short in its EXIF, its image whole (415)", async () => {
    const deep = await noisy()
      .avif({ quality: 60, bitdepth: 12 })
      .withExif({ IFD0: {} })
      .toBuffer();
    expect((await sharp(deep).metadata()).bitsPerSample).toBe(12);
    expect((await stored(deep)).out.length).toBeGreaterThan(0);
    expect(await refusal(stored(deep.subarray(0, deep.length - 1)))).toEqual({
      code: "unsupported_type",
      message: "Not an image Pressroom takes: send JPEG, PNG, WebP, AVIF or GIF bytes.",
    });
  });

  it("stores an AVIF damaged inside its frame, and answers its copies 422", async () => {
    const damaged = await tagged();
    const mdat = damaged.indexOf("mdat");
    for (let at = mdat + 300; at < mdat + 900; at++)
      damaged[at] = ((damaged[at] ?? 0) * 31 + 7) & 255;
    const { facts, out } = await stored(damaged);
    expect(facts).toMatchObject({ type: "avif", width: WIDTH, height: HEIGHT });
    const copy = transformImage(
      out,
      { type: "avif", width: WIDTH, height: HEIGHT },
      { w: 64 },
      1e6,
    );
    expect(await refusal(copy)).toEqual({
      code: "unprocessable",
      message: "No copy of this image can be made: its image data does not decode.",
    });
  });
});
