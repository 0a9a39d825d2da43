/**
 * An upright WebP in sRGB, or in the colours of a profile that describes it, is stored as it
 * came, without its metadata (admin.yaml `uploadMedia`; server/src/media/webp-chunks.ts): its
 * image chunks byte for byte, so a lossless WebP stays lossless and a lossy one gets no second
 * generation; EXIF and XMP chunks, an sRGB profile's ICCP chunk and anything after the RIFF
 * gone, VP8X's flags for them cleared; another profile's one ICCP chunk kept with its flag;
 * animations keep every frame.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseImage } from "../../server/src/media/image-normalise.js";
import { writeWebpWithoutMetadata } from "../../server/src/media/webp-chunks.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-webp-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const WIDTH = 120;
const HEIGHT = 80;
const raw = Buffer.alloc(WIDTH * HEIGHT * 3).map((_, i) => (i * 7919 + (i >> 5)) % 256);
const fromRaw = () => sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });

/** The file's chunks: FourCC and payload, in order. */
function chunksOf(webp: Buffer): { fourcc: string; payload: Buffer }[] {
  const chunks: { fourcc: string; payload: Buffer }[] = [];
  for (let at = 12; at + 8 <= webp.length; ) {
    const size = webp.readUInt32LE(at + 4);
    chunks.push({
      fourcc: webp.toString("latin1", at, at + 4),
      payload: webp.subarray(at + 8, at + 8 + size),
    });
    at += 8 + size + (size % 2);
  }
  return chunks;
}

/** Where the chunk `fourcc` lies in the file (found by its FourCC): its header to its padded end. */
function spanOf(webp: Buffer, fourcc: string): { start: number; end: number } {
  const start = webp.indexOf(fourcc);
  const size = webp.readUInt32LE(start + 4);
  return { start, end: start + 8 + size + (size % 2) };
}

async function stored(bytes: Buffer): Promise<{ facts: object; out: Buffer }> {
  const from = path.join(dir, `in-${Math.random()}.webp`);
  await writeFile(from, bytes);
  const facts = await normaliseImage(from, "webp", `${from}.out`, 1_000_000);
  return { facts, out: await readFile(`${from}.out`) };
}

describe("a WebP without its metadata, its image data as it was", () => {
  it("a lossless WebP stays lossless: the same pixels, without EXIF, XMP, its sRGB profile or trailing bytes", async () => {
    const tagged = await fromRaw()
      .webp({ lossless: true })
      .withExif({ IFD0: { Make: "Pressroom Test Camera" } })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/">GPS 51.5007 N</x:xmpmeta>')
      .withIccProfile("srgb")
      .toBuffer();
    expect(chunksOf(tagged).map((c) => c.fourcc)).toEqual(
      expect.arrayContaining(["VP8X", "ICCP", "EXIF", "XMP "]),
    );
    const { facts, out } = await stored(Buffer.concat([tagged, Buffer.from("PK\x03\x04 zip")]));
    expect(facts).toMatchObject({ type: "webp", width: WIDTH, height: HEIGHT });
    expect(chunksOf(out).map((c) => c.fourcc)).toEqual(["VP8X", "VP8L"]);
    expect((chunksOf(out)[0]?.payload[0] ?? 0) & (0x20 | 0x08 | 0x04)).toBe(0);
    expect(out.readUInt32LE(4)).toBe(out.length - 8);
    expect(out.includes(Buffer.from("PK\x03\x04"))).toBe(false);
    expect(chunksOf(out)[1]?.payload).toEqual(
      chunksOf(tagged).find((c) => c.fourcc === "VP8L")?.payload,
    );
    expect(await sharp(out).raw().toBuffer()).toEqual(raw);
  });

  it("a lossy WebP keeps its VP8 data byte for byte: no second generation", async () => {
    const lossy = await fromRaw()
      .webp({ quality: 60 })
      .withExif({ IFD0: { Make: "Cam" } })
      .toBuffer();
    const { out } = await stored(lossy);
    const vp8 = (webp: Buffer) => chunksOf(webp).find((c) => c.fourcc === "VP8 ")?.payload;
    expect(vp8(out)).toBeDefined();
    expect(vp8(out)).toEqual(vp8(lossy));
    expect(out.includes(Buffer.from("Cam"))).toBe(false);
  });

  it("a lossy WebP with transparency keeps its alpha chunk", async () => {
    const alpha = await sharp({
      create: {
        width: 40,
        height: 30,
        channels: 4,
        background: { r: 200, g: 0, b: 0, alpha: 0.5 },
      },
    })
      .webp({ quality: 70 })
      .withExif({ IFD0: { Make: "Cam" } })
      .toBuffer();
    const { out } = await stored(alpha);
    expect(chunksOf(out).map((c) => c.fourcc)).toEqual(["VP8X", "ALPH", "VP8 "]);
    expect((await sharp(out).metadata()).hasAlpha).toBe(true);
  });

  it("an animation keeps every frame and its timing", async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const animated = await sharp(await Promise.all(["#a00", "#0a0", "#00a"].map(frame)), {
      join: { animated: true },
    })
      .webp({ lossless: true, loop: 0, delay: [100, 200, 300] })
      .toBuffer();
    const { facts, out } = await stored(animated);
    expect(facts).toMatchObject({ width: 40, height: 30 });
    expect(out).toEqual(animated);
    const meta = await sharp(out, { animated: true }).metadata();
    expect([meta.pages, meta.delay]).toEqual([3, [100, 200, 300]]);
  });

  it("a WebP turned by its EXIF orientation is encoded again, upright", async () => {
    const turned = await fromRaw()
      .webp({ quality: 80 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { facts, out } = await stored(turned);
    expect(facts).toMatchObject({ width: HEIGHT, height: WIDTH });
    expect((await sharp(out).metadata()).orientation).toBeUndefined();
  });

  it("a WebP encoded again larger than 1920 × 1080 is written at libwebp's effort 2, a smaller one at 4", async () => {
    // image-processing.ts: from effort 3 up libwebp keeps the tokens of the whole image.
    const [big, small] = [
      { width: 1600, height: 1300 },
      { width: WIDTH, height: HEIGHT },
    ];
    for (const [size, effort] of [
      [big, 2],
      [small, 4],
    ] as const) {
      // Smooth bands with a little grain: quick to encode, yet effort 2 and 4 write it apart.
      const pixels = Buffer.alloc(size.width * size.height * 3).map(
        (_, i) => ((i >> 9) + (i % 7) * 3) % 256,
      );
      const turned = await sharp(pixels, { raw: { ...size, channels: 3 } })
        .webp({ quality: 80 })
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const from = path.join(dir, `effort-${effort}.webp`);
      await writeFile(from, turned);
      await normaliseImage(from, "webp", `${from}.out`, 4_000_000);
      const expected = await sharp(turned).rotate().webp({ quality: 90, effort }).toBuffer();
      // Compared whole, not diffed: a diff of two images' bytes takes minutes.
      const out = await readFile(`${from}.out`);
      expect({ bytes: out.length, same: out.equals(expected) }).toEqual({
        bytes: expected.length,
        same: true,
      });
    }
  });

  it("a WebP tagged Display P3 keeps its profile's chunk and flag; EXIF and XMP go", async () => {
    const tagged = await fromRaw()
      .webp({ lossless: true })
      .withExif({ IFD0: { Make: "Pressroom Test Camera" } })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/">GPS 51.5007 N</x:xmpmeta>')
      .withIccProfile("p3")
      .toBuffer();
    const { facts, out } = await stored(tagged);
    expect(facts).toMatchObject({ type: "webp", width: WIDTH, height: HEIGHT });
    expect(chunksOf(out).map((c) => c.fourcc)).toEqual(["VP8X", "ICCP", "VP8L"]);
    expect((chunksOf(out)[0]?.payload[0] ?? 0) & (0x20 | 0x08 | 0x04)).toBe(0x20);
    expect(out.includes("GPS")).toBe(false);
    const [before, after] = await Promise.all([sharp(tagged).metadata(), sharp(out).metadata()]);
    expect(after.icc?.equals(before.icc ?? Buffer.alloc(0))).toBe(true);
    const samples = (webp: Buffer) => sharp(webp).keepIccProfile().raw().toBuffer();
    expect((await samples(out)).equals(await samples(tagged))).toBe(true);
  });

  it("a WebP whose ICCP chunks are not the profile read is not kept as it came", async () => {
    const tagged = await fromRaw().webp({ lossless: true }).withIccProfile("p3").toBuffer();
    const profile = (await sharp(tagged).metadata()).icc ?? Buffer.alloc(0);
    const { start: at, end } = spanOf(tagged, "ICCP");
    const twice = Buffer.concat([
      tagged.subarray(0, end),
      tagged.subarray(at, end),
      tagged.subarray(end),
    ]);
    twice.writeUInt32LE(twice.length - 8, 4);
    const from = path.join(dir, "profiles.webp");
    await writeFile(from, tagged);
    expect(await writeWebpWithoutMetadata(from, `${from}.out`, profile)).toBe(true);
    // Another profile than the one asked to keep, or its chunk there twice.
    const other = Buffer.from(profile);
    other[other.length - 1] = (other[other.length - 1] ?? 0) ^ 1;
    expect(await writeWebpWithoutMetadata(from, `${from}.out`, other)).toBe(false);
    // The profile's chunk holding more than the profile: its last byte.
    expect(
      await writeWebpWithoutMetadata(from, `${from}.out`, profile.subarray(0, profile.length - 1)),
    ).toBe(false);
    await writeFile(from, twice);
    expect(await writeWebpWithoutMetadata(from, `${from}.out`, profile)).toBe(false);
    // Its chunk after the image's, where the container does not put it.
    const imageEnd = spanOf(tagged, "VP8L").end;
    const late = Buffer.concat([
      tagged.subarray(0, at),
      tagged.subarray(end, imageEnd),
      tagged.subarray(at, end),
      tagged.subarray(imageEnd),
    ]);
    expect(chunksOf(late).map((c) => c.fourcc)).toEqual(["VP8X", "VP8L", "ICCP"]);
    expect((await sharp(late).metadata()).icc?.equals(profile)).toBe(true);
    await writeFile(from, late);
    expect(await writeWebpWithoutMetadata(from, `${from}.out`, profile)).toBe(false);
    // A simple WebP (no VP8X, so no profile) with the chunk after its image.
    const simple = await fromRaw().webp({ quality: 80 }).toBuffer();
    expect(chunksOf(simple).map((c) => c.fourcc)).toEqual(["VP8 "]);
    const withChunk = Buffer.concat([simple, tagged.subarray(at, end)]);
    withChunk.writeUInt32LE(withChunk.length - 8, 4);
    await writeFile(`${from}.simple`, withChunk);
    expect(await writeWebpWithoutMetadata(`${from}.simple`, `${from}.out`, profile)).toBe(false);
    // None to keep: the chunk and its flag go.
    expect(await writeWebpWithoutMetadata(from, `${from}.out`)).toBe(true);
    const out = await readFile(`${from}.out`);
    expect(chunksOf(out).map((c) => c.fourcc)).toEqual(["VP8X", "VP8L"]);
    expect((chunksOf(out)[0]?.payload[0] ?? 0) & 0x20).toBe(0);
  });

  it("chunks that run past the RIFF, or a RIFF longer than the file, do not walk", async () => {
    const webp = await fromRaw().webp({ lossless: true }).toBuffer();
    const from = path.join(dir, "broken.webp");
    const longChunk = Buffer.from(webp);
    longChunk.writeUInt32LE(webp.length, 16);
    const longRiff = Buffer.from(webp);
    longRiff.writeUInt32LE(webp.length * 2, 4);
    for (const broken of [longChunk, longRiff, webp.subarray(0, 10)]) {
      await writeFile(from, broken);
      expect(await writeWebpWithoutMetadata(from, `${from}.out`)).toBe(false);
    }
  });
});
