/**
 * A JPEG in sRGB, or in the colours of a profile that describes it, is stored as it came, without
 * its metadata (admin.yaml `uploadMedia`; server/src/media/jpeg-segments.ts): its compressed
 * image data byte for byte, every APPn segment but JFIF (without a thumbnail), Adobe and the
 * profile it keeps (ICC.1:2022 Annex B.4: exactly that profile, or it is encoded again) gone,
 * COM gone, nothing after EOI; a turned one with an EXIF segment of its orientation alone.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseImage } from "../../server/src/media/image-normalise.js";
import {
  NotAJpeg,
  servableAsIs,
  writeJpegWithoutMetadata,
} from "../../server/src/media/jpeg-segments.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-jpeg-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Pixels that compress to many stuffed `FF 00` bytes in the image data. */
async function noisyJpeg(options: { progressive?: boolean } = {}): Promise<Buffer> {
  const width = 300;
  const height = 200;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 7) * 31) % 256;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95, progressive: options.progressive ?? false })
    .toBuffer();
}

const segment = (marker: number, payload: Buffer): Buffer => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

/** `jpeg` with `segments` inserted after its SOI and `tail` after its EOI. */
const withSegments = (jpeg: Buffer, segments: Buffer[], tail = Buffer.alloc(0)): Buffer =>
  Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2), tail]);

async function walked(
  bytes: Buffer,
  orientation?: number,
  profile?: Buffer,
): Promise<{ out: Buffer; sof: number | undefined }> {
  const from = path.join(dir, `in-${Math.random()}`);
  const to = `${from}.out`;
  await writeFile(from, bytes);
  const frame = await writeJpegWithoutMetadata(from, to, orientation, profile);
  return { out: await readFile(to), sof: frame?.sof };
}

const pixelsOf = (jpeg: Buffer) => sharp(jpeg).raw().toBuffer();

const SECRET = "GPS 51.5007 N, 0.1246 W, the writer's home";
const jfif = (thumb: number) =>
  Buffer.concat([
    Buffer.from("JFIF\0\x01\x01\x00\x00\x01\x00\x01", "latin1"),
    Buffer.from([thumb, thumb]),
    Buffer.alloc(thumb * thumb * 3, 0x7f),
  ]);

describe("a JPEG without its metadata, its image data as it was", () => {
  it("drops EXIF, XMP, ICC, comments, a JFIF thumbnail and what follows EOI; keeps the pixels exactly", async () => {
    const jpeg = await noisyJpeg();
    const input = withSegments(
      jpeg,
      [
        segment(0xe0, jfif(4)),
        segment(0xe1, Buffer.from(`Exif\0\0${SECRET}`, "latin1")),
        segment(0xe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0<x>${SECRET}</x>`, "latin1")),
        segment(0xe2, Buffer.from(`ICC_PROFILE\0${SECRET}`, "latin1")),
        segment(0xed, Buffer.from(`Photoshop 3.0\0${SECRET}`, "latin1")),
        segment(0xfe, Buffer.from(SECRET, "latin1")),
      ],
      Buffer.from(`PK\x03\x04${SECRET}`, "latin1"),
    );
    const { out, sof } = await walked(input);
    expect(out.includes(Buffer.from("GPS 51"))).toBe(false);
    expect(out.includes(Buffer.from("PK\x03\x04"))).toBe(false);
    expect(out.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    // sharp's own JFIF APP0 (no thumbnail) is all that stays beside the image's tables and data.
    expect(out.length).toBe(jpeg.length);
    expect(out).toEqual(jpeg);
    expect(await pixelsOf(out)).toEqual(await pixelsOf(input));
    expect(sof).toBe(0xc0);
    expect(servableAsIs({ sof: 0xc0, precision: 8 })).toBe(true);
  });

  it("every scan of a progressive JPEG is kept unchanged", async () => {
    const plain = await noisyJpeg({ progressive: true });
    const { out, sof } = await walked(
      withSegments(plain, [segment(0xe1, Buffer.from(`Exif\0\0${SECRET}`, "latin1"))]),
    );
    expect(sof).toBe(0xc2);
    expect(out).toEqual(plain);
  });

  it("restart markers and fill bytes inside the image data are data, not segments", async () => {
    const jpeg = await noisyJpeg();
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    const dataAt = sos + 2 + jpeg.readUInt16BE(sos + 2) + 100;
    // `FF D3` is a restart marker, `FF FF D5` one after a fill byte (dropped); neither ends
    // the scan.
    const marked = (fill: number[]) =>
      Buffer.concat([
        jpeg.subarray(0, dataAt),
        Buffer.from([0xff, 0xd3, 0x12, 0xff, 0x00, ...fill, 0xff, 0xd5, 0x34]),
        jpeg.subarray(dataAt),
      ]);
    const { out } = await walked(
      withSegments(marked([0xff]), [segment(0xfe, Buffer.from(SECRET, "latin1"))]),
    );
    expect(out).toEqual(marked([]));
  });

  it("segments cut by the walk's reads (256 KB at a time) are dropped or kept whole", async () => {
    const jpeg = await noisyJpeg();
    const big = (n: number) => Buffer.alloc(60_000, 0x41 + n);
    // 5 × 60 KB of metadata: the first read ends inside the fifth segment.
    const input = withSegments(jpeg, [
      ...[0, 1, 2, 3, 4].map((n) => segment(n % 2 === 0 ? 0xe1 : 0xfe, big(n))),
      segment(0xee, Buffer.from("Adobe\0\x64\0\0\0\0\x01", "latin1")),
    ]);
    expect(input.length).toBeGreaterThan(300_000);
    const { out } = await walked(input);
    expect(out.length).toBe(jpeg.length + 2 + 2 + 12);
    expect(out.includes(Buffer.from("Adobe"))).toBe(true);
    expect(await pixelsOf(out)).toEqual(await pixelsOf(jpeg));
  });

  it.each([
    ["cut short (no EOI)", (j: Buffer) => j.subarray(0, j.length - 100)],
    ["text after its SOI", (j: Buffer) => Buffer.concat([j.subarray(0, 2), Buffer.from("<html>")])],
    [
      "a segment length below 2",
      (j: Buffer) => Buffer.concat([j.subarray(0, 2), Buffer.from([0xff, 0xe1, 0, 1])]),
    ],
    ["no SOI", (j: Buffer) => j.subarray(2)],
  ])("bytes that do not walk as a JPEG to its EOI are refused: %s", async (_kind, damage) => {
    await expect(walked(damage(await noisyJpeg()))).rejects.toBeInstanceOf(NotAJpeg);
  });

  it("an arithmetic-coded or 12-bit frame is reported, to be encoded again rather than kept", async () => {
    const jpeg = await noisyJpeg();
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const arithmetic = Buffer.from(jpeg);
    arithmetic[sof + 1] = 0xc9;
    const { sof: seen } = await walked(arithmetic);
    expect(seen).toBe(0xc9);
    expect(servableAsIs({ sof: 0xc9, precision: 8 })).toBe(false);
    expect(servableAsIs({ sof: 0xc1, precision: 12 })).toBe(false);
    expect(servableAsIs(undefined)).toBe(false);
  });

  it("a turned JPEG keeps its EXIF orientation alone, where EXIF goes: after SOI and a JFIF APP0", async () => {
    const jpeg = await noisyJpeg();
    const app0 = segment(0xe0, jfif(0));
    const exif = segment(0xe1, Buffer.from(`Exif\0\0${SECRET}`, "latin1"));
    for (const orientation of [2, 3, 4, 5, 6, 7, 8]) {
      for (const before of [[app0], []]) {
        const { out } = await walked(withSegments(jpeg, [...before, exif]), orientation);
        // The upload's bytes with one APP1 of 36 bytes added after SOI and JFIF, and nothing
        // else of its EXIF.
        const at = 2 + (before[0]?.length ?? 0);
        expect(out.subarray(at, at + 4)).toEqual(Buffer.from([0xff, 0xe1, 0x00, 0x22]));
        expect(Buffer.concat([out.subarray(0, at), out.subarray(at + 36)])).toEqual(
          withSegments(jpeg, before),
        );
        expect(out.includes(Buffer.from("GPS 51"))).toBe(false);
        const meta = await sharp(out).metadata();
        expect([meta.orientation, meta.exif?.length]).toEqual([orientation, 32]);
        expect(await pixelsOf(out)).toEqual(await pixelsOf(jpeg));
      }
    }
  });

  it.each([
    [3, 300, 200],
    [6, 200, 300],
    [8, 200, 300],
  ])(
    "a JPEG of orientation %i is kept as it came and reported at its upright size, %i × %i",
    async (orientation, width, height) => {
      const turned = await sharp(await noisyJpeg())
        .withMetadata({ orientation })
        .toBuffer();
      const from = path.join(dir, `turned-${orientation}.jpg`);
      await writeFile(from, turned);
      const stored = await normaliseImage(from, "jpeg", `${from}.out`, 1_000_000);
      expect(stored).toMatchObject({ type: "jpeg", width, height });
      const out = await readFile(`${from}.out`);
      expect((await sharp(out).metadata()).orientation).toBe(orientation);
      // Not encoded again (which would turn its pixels): the same pixels, as stored.
      expect(await pixelsOf(out)).toEqual(await pixelsOf(turned));
    },
  );

  it("an EXIF orientation outside 1–8 is read as upright: kept without one", async () => {
    const jpeg = await noisyJpeg();
    // An EXIF block like the one a turned photo keeps, its Orientation set to 9.
    const exif = Buffer.from(
      "Exif\0\0MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x09\0\0\0\0\0\0",
      "latin1",
    );
    const from = path.join(dir, "orientation-9.jpg");
    await writeFile(from, withSegments(jpeg, [segment(0xe1, exif)]));
    const stored = await normaliseImage(from, "jpeg", `${from}.out`, 1_000_000);
    expect(stored).toMatchObject({ type: "jpeg", width: 300, height: 200 });
    expect(await readFile(`${from}.out`)).toEqual(jpeg);
  });

  it("a failure to write what is kept is this machine's error, never a refusal of the image", async () => {
    const from = path.join(dir, "upright.jpg");
    await writeFile(from, await noisyJpeg());
    const to = path.join(dir, "no-such-directory", "kept.jpg");
    await expect(normaliseImage(from, "jpeg", to, 1_000_000)).rejects.toMatchObject({
      code: "ENOENT",
    });
  });

  it("stray bytes between segments, which libjpeg skips, make the image encoded again, not refused", async () => {
    const jpeg = await noisyJpeg();
    const afterApp0 = 4 + jpeg.readUInt16BE(4);
    const stray = Buffer.concat([
      jpeg.subarray(0, afterApp0),
      Buffer.from([0, 0, 0]),
      jpeg.subarray(afterApp0),
    ]);
    await expect(walked(stray)).rejects.toBeInstanceOf(NotAJpeg);
    const from = path.join(dir, "stray.jpg");
    await writeFile(from, stray);
    const stored = await normaliseImage(from, "jpeg", `${from}.out`, 1_000_000);
    expect(stored).toMatchObject({ type: "jpeg", width: 300, height: 200 });
    expect((await readFile(`${from}.out`)).equals(jpeg)).toBe(false);
  });
});

describe("a JPEG's colour profile, kept when it describes the image", () => {
  /** libvips' Display P3 profile, as a JPEG tagged with it carries it. */
  const p3Profile = async () => {
    const tagged = await sharp(await noisyJpeg())
      .withIccProfile("p3")
      .toBuffer();
    const { icc } = await sharp(tagged).metadata();
    if (icc === undefined) throw new Error("no profile");
    return icc;
  };
  /** An APP2 ICC segment: part `sequence` of `count`, holding `data`. */
  const iccSegment = (sequence: number, count: number, data: Buffer) =>
    segment(
      0xe2,
      Buffer.concat([Buffer.from("ICC_PROFILE\0", "latin1"), Buffer.from([sequence, count]), data]),
    );
  /** The profile in two segments, as a writer splits one of more than 64 KB. */
  const inTwo = (profile: Buffer) => [
    iccSegment(1, 2, profile.subarray(0, 200)),
    iccSegment(2, 2, profile.subarray(200)),
  ];

  /** `jpeg` (progressive) with `segments` inserted before its second scan's SOS. */
  const beforeSecondScan = (jpeg: Buffer, segments: Buffer[]) => {
    const sos = Buffer.from([0xff, 0xda]);
    const second = jpeg.indexOf(sos, jpeg.indexOf(sos) + 2);
    return Buffer.concat([jpeg.subarray(0, second), ...segments, jpeg.subarray(second)]);
  };
  /** `bytes` as the library stores them: its facts and the stored file. */
  const normalised = async (bytes: Buffer, name: string) => {
    const from = path.join(dir, name);
    await writeFile(from, bytes);
    const facts = await normaliseImage(from, "jpeg", `${from}.out`, 1_000_000);
    return { facts, out: await readFile(`${from}.out`) };
  };

  it("a profile in two segments is kept in its place, the EXIF beside it dropped", async () => {
    const [jpeg, profile] = await Promise.all([noisyJpeg(), p3Profile()]);
    const exif = segment(0xe1, Buffer.from(`Exif\0\0${SECRET}`, "latin1"));
    const input = withSegments(jpeg, [exif, ...inTwo(profile)]);
    // libvips reads the two as the one profile.
    expect((await sharp(input).metadata()).icc?.equals(profile)).toBe(true);
    const { out } = await walked(input, 1, profile);
    expect(out).toEqual(withSegments(jpeg, inTwo(profile)));
    // Without a profile to keep, its segments go with the rest of the metadata.
    expect((await walked(input)).out).toEqual(jpeg);
    // Turned: the orientation's EXIF segment first, then the profile's.
    const turned = await walked(input, 6, profile);
    expect((await sharp(turned.out).metadata()).orientation).toBe(6);
    expect(turned.out.indexOf("Exif")).toBeLessThan(turned.out.indexOf("ICC_PROFILE"));
    expect((await sharp(turned.out).metadata()).icc?.equals(profile)).toBe(true);
  });

  it.each([
    ["a part repeated", (p: Buffer) => [iccSegment(1, 2, p.subarray(0, 200)), ...inTwo(p)]],
    ["a part missing", (p: Buffer) => [iccSegment(2, 2, p.subarray(200))]],
    ["the profile cut short", (p: Buffer) => [iccSegment(1, 2, p.subarray(0, 200))]],
    [
      "counts that differ",
      (p: Buffer) => [iccSegment(1, 3, p.subarray(0, 200)), iccSegment(2, 2, p.subarray(200))],
    ],
    [
      "parts numbered alike",
      (p: Buffer) => [iccSegment(1, 1, p.subarray(0, 200)), iccSegment(1, 1, p.subarray(200))],
    ],
    [
      "a count past its parts",
      (p: Buffer) => [iccSegment(1, 3, p.subarray(0, 200)), iccSegment(2, 3, p.subarray(200))],
    ],
    [
      "a part past the profile's end",
      (p: Buffer) => [...inTwo(p), iccSegment(3, 2, Buffer.from(SECRET, "latin1"))],
    ],
    [
      "other bytes than the profile's",
      (p: Buffer) => [
        iccSegment(
          1,
          1,
          Buffer.concat([p.subarray(0, 300), Buffer.from(SECRET), p.subarray(300 + SECRET.length)]),
        ),
      ],
    ],
    [
      "an empty part",
      (p: Buffer) => [
        iccSegment(1, 3, p.subarray(0, 200)),
        iccSegment(2, 3, Buffer.alloc(0)),
        iccSegment(3, 3, p.subarray(200)),
      ],
    ],
  ])(
    "ICC segments with %s are not kept as the profile: the JPEG does not walk",
    async (_, parts) => {
      const [jpeg, profile] = await Promise.all([noisyJpeg(), p3Profile()]);
      await expect(walked(withSegments(jpeg, parts(profile)), 1, profile)).rejects.toBeInstanceOf(
        NotAJpeg,
      );
    },
  );

  it("a grey JPEG tagged with an RGB profile is encoded again, untagged: the profile does not describe it", async () => {
    const [grey, profile] = await Promise.all([
      sharp(await noisyJpeg())
        .toColourspace("b-w")
        .jpeg()
        .toBuffer(),
      p3Profile(),
    ]);
    const input = withSegments(grey, inTwo(profile));
    const meta = await sharp(input).metadata();
    expect([meta.space, meta.icc?.equals(profile)]).toEqual(["b-w", true]);
    const { out } = await normalised(input, "grey-p3.jpg");
    expect(out.includes("ICC_PROFILE")).toBe(false);
    expect(out.equals(grey)).toBe(false);
  });

  it("ICC segments after a scan began are not the profile, even whole: libvips reads none there", async () => {
    const [jpeg, profile] = await Promise.all([noisyJpeg({ progressive: true }), p3Profile()]);
    const late = beforeSecondScan(jpeg, inTwo(profile));
    expect((await sharp(late).metadata()).icc).toBeUndefined();
    await expect(walked(late, 1, profile)).rejects.toBeInstanceOf(NotAJpeg);
    // Not asked to keep a profile (libvips read none), they go with the rest.
    expect((await walked(late)).out).toEqual(jpeg);
  });

  it("a segment libvips takes as the profile's (ICC_PROFILE and any byte) but browsers do not makes the JPEG encoded again", async () => {
    const [jpeg, profile] = await Promise.all([noisyJpeg(), p3Profile()]);
    const loose = segment(
      0xe2,
      Buffer.concat([Buffer.from("ICC_PROFILE\x01\x01\x01", "latin1"), profile]),
    );
    const input = withSegments(jpeg, [loose]);
    expect((await sharp(input).metadata()).icc?.equals(profile)).toBe(true);
    await expect(walked(input, 1, profile)).rejects.toBeInstanceOf(NotAJpeg);
    const { out } = await normalised(input, "loose-icc.jpg");
    // Encoded again, converted to sRGB by the profile libvips read, untagged.
    expect(out.includes("ICC_PROFILE")).toBe(false);
    expect(out.equals(jpeg)).toBe(false);
  });

  it("a profile libvips does not see (an ICC segment between scans) makes the JPEG encoded again", async () => {
    const [jpeg, profile] = await Promise.all([noisyJpeg({ progressive: true }), p3Profile()]);
    const tagged = withSegments(jpeg, inTwo(profile));
    const hidden = beforeSecondScan(tagged, [iccSegment(3, 2, Buffer.from(SECRET, "latin1"))]);
    expect((await sharp(hidden).metadata()).icc?.equals(profile)).toBe(true);
    const { facts, out } = await normalised(hidden, "hidden-icc.jpg");
    expect(facts).toMatchObject({ type: "jpeg", width: 300, height: 200 });
    expect(out.includes(Buffer.from(SECRET))).toBe(false);
    // Encoded again: converted to sRGB, untagged.
    expect((await sharp(out).metadata()).icc).toBeUndefined();
    // Without the hidden part it is kept as it came, its profile in it.
    expect((await normalised(tagged, "tagged-icc.jpg")).out).toEqual(tagged);
  });
});
