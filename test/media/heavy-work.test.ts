/**
 * Image work that holds much memory takes a heavy turn of the media pool, which runs one such job
 * at a time (README "Media", "What it costs"; server/src/media/image-memory.ts, media-pool.ts):
 * decoding an AVIF of more than ~2.7 megapixels (libheif decodes its whole frame, ~25 bytes a
 * pixel), encoding a copy as AVIF of more than ~2.8 megapixels, an AVIF upload encoded again of
 * more than ~1.5 megapixels, a WebP one of more than ~5 (libwebp encodes its whole picture, ~13
 * bytes a pixel), and decoding a progressive JPEG of more than ~11 (libjpeg holds its
 * coefficients). An upload is checked (and kept) in a turn of its own first, light unless it is
 * such a JPEG: an AVIF kept as it came is never heavy.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transform } from "../../server/src/media/image-copies.js";
import {
  copyBytes,
  encodeAgainBytes,
  isHeavy,
  progressiveBytes,
} from "../../server/src/media/image-memory.js";
import { mediaFiles } from "../../server/src/media/media-files.js";
import { mediaPool } from "../../server/src/media/media-pool.js";
import { mediaStore } from "../../server/src/media/media-store.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
let dir: string;

beforeAll(async () => {
  t = await useTestDb();
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-heavy-work-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The media pool, recording whether each job it is given is heavy. */
function recordingPool() {
  const pool = mediaPool();
  const turns: ("heavy" | "light")[] = [];
  return {
    turns,
    run<T>(workspaceId: string, work: () => Promise<T>, heavy = false): Promise<T> {
      turns.push(heavy ? "heavy" : "light");
      return pool.run(workspaceId, work, heavy);
    },
  };
}

/** A noisy image (so that it neither compresses to nothing nor decodes trivially). */
const noise = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 30 },
    },
  });

describe("an upload's turns", () => {
  const upload = async (bytes: Buffer, name: string) => {
    const pool = recordingPool();
    const store = mediaStore(collections(t.db), t.db, {
      uploadBytes: 16 * 2 ** 20,
      maxPixels: 40_000_000,
      dir: path.join(dir, name),
      pool,
    });
    const { media } = await store.upload({
      workspaceId: "ws_heavy",
      userId: "usr_heavy",
      name,
      alt: "Noise",
      body: Readable.from([bytes]),
      declaredLength: bytes.length,
    });
    return { media, turns: pool.turns };
  };

  it("an AVIF encoded again (12 bits, 1.7 megapixels) is checked in a light turn, encoded in a heavy one", async () => {
    const avif = await noise(1400, 1200).avif({ quality: 50, effort: 0, bitdepth: 12 }).toBuffer();
    const { media, turns } = await upload(avif, "deep.avif");
    expect(media).toMatchObject({ type: "avif", width: 1400, height: 1200 });
    expect(turns).toEqual(["light", "heavy"]);
  });

  it("an AVIF kept as it came (10 bits, sRGB) takes one light turn, however large", async () => {
    const avif = await noise(2400, 1800).avif({ quality: 50, effort: 0, bitdepth: 10 }).toBuffer();
    const { media, turns } = await upload(avif, "kept.avif");
    expect(media).toMatchObject({ type: "avif", width: 2400, height: 1800 });
    expect(turns).toEqual(["light"]);
  });

  it("a WebP encoded again (turned, 5.5 megapixels) is encoded in a heavy turn", async () => {
    const webp = await noise(2700, 2040)
      .webp({ quality: 50, effort: 0 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { media, turns } = await upload(webp, "turned.webp");
    expect(media).toMatchObject({ type: "webp", width: 2040, height: 2700 });
    expect(turns).toEqual(["light", "heavy"]);
  });

  it("a progressive JPEG of 11.6 megapixels is checked in a heavy turn, a baseline one in a light one", async () => {
    // One colour: what counts is the header (libjpeg holds a progressive image's coefficients).
    const flat = () =>
      sharp({ create: { width: 4000, height: 2900, channels: 3, background: "#3a6" } });
    const progressive = await flat().jpeg({ progressive: true }).toBuffer();
    expect((await upload(progressive, "progressive.jpg")).turns).toEqual(["heavy"]);
    const baseline = await flat().jpeg().toBuffer();
    expect((await upload(baseline, "baseline.jpg")).turns).toEqual(["light"]);
  });

  it("a progressive CMYK JPEG of 9 megapixels is checked and encoded again in heavy turns", async () => {
    const cmyk = await sharp({
      create: { width: 3000, height: 3000, channels: 3, background: "#3a6" },
    })
      .toColourspace("cmyk")
      .jpeg({ progressive: true })
      .toBuffer();
    const { media, turns } = await upload(cmyk, "cmyk.jpg");
    expect(media).toMatchObject({ type: "jpeg", width: 3000, height: 3000 });
    expect(turns).toEqual(["heavy", "heavy"]);
  });

  it("a small AVIF encoded again (12 bits, 1.2 megapixels) and a PNG encoded again are light", async () => {
    const avif = await noise(1200, 1000).avif({ quality: 50, effort: 0, bitdepth: 12 }).toBuffer();
    expect((await upload(avif, "small.avif")).turns).toEqual(["light", "light"]);
    const png = await noise(1600, 1200).png({ compressionLevel: 1 }).toBuffer();
    expect((await upload(png, "large.png")).turns).toEqual(["light", "light"]);
  });
});

describe("a copy's turn", () => {
  /** Stores `bytes` as image `id` (its record and its original), as an upload leaves them. */
  async function stored(id: string, bytes: Buffer, type: "avif" | "jpeg") {
    const pool = recordingPool();
    const files = mediaFiles(collections(t.db), t.db, {
      dir: path.join(dir, id),
      pool,
      maxPixels: 40_000_000,
    });
    const { width = 0, height = 0 } = await sharp(bytes).metadata();
    await t.db.collection("media").insertOne({
      _id: id as never,
      workspaceId: "ws_heavy",
      sha256: createHash("sha256").update(id).update(bytes).digest("hex"),
      name: `${id}.${type}`,
      alt: "Noise",
      type,
      width,
      height,
      bytes: bytes.length,
      terms: [],
      createdAt: new Date(),
      createdBy: "usr_heavy",
    });
    const source = path.join(dir, `${id}.upload`);
    await writeFile(source, bytes);
    await files.putOriginal(id, source);
    return {
      copy: async (transform: Transform) => {
        await files.file(id, `${id}.${type}`, transform);
        return pool.turns.at(-1);
      },
    };
  }

  it("a copy of an AVIF of 3 megapixels is heavy whatever its size; of one of 1 megapixel, light", async () => {
    const large = await stored(
      "med_heavy_large",
      await noise(2000, 1500).avif({ quality: 50, effort: 0 }).toBuffer(),
      "avif",
    );
    expect(await large.copy({ w: 64, fm: "webp" })).toBe("heavy");
    const small = await stored(
      "med_heavy_small",
      await noise(1200, 800).avif({ quality: 50, effort: 0 }).toBuffer(),
      "avif",
    );
    expect(await small.copy({ w: 64, fm: "webp" })).toBe("light");
  });

  it("a copy of a 6-megapixel JPEG is light, but heavy as an AVIF of more than ~2.8 megapixels", async () => {
    const jpeg = await stored(
      "med_heavy_jpeg",
      await noise(3000, 2000).jpeg({ quality: 80 }).toBuffer(),
      "jpeg",
    );
    expect(await jpeg.copy({ fm: "webp" })).toBe("light");
    expect(await jpeg.copy({ w: 1280, fm: "avif" })).toBe("light");
    expect(await jpeg.copy({ w: 2560, fm: "avif" })).toBe("heavy");
  });

  it("a copy of a progressive JPEG of 11.6 megapixels is heavy whatever its size", async () => {
    const progressive = await stored(
      "med_heavy_progressive",
      await sharp({ create: { width: 4000, height: 2900, channels: 3, background: "#3a6" } })
        .jpeg({ progressive: true })
        .toBuffer(),
      "jpeg",
    );
    expect(await progressive.copy({ w: 64, fm: "webp" })).toBe("heavy");
  });
});

describe("the estimates, at the sizes BENCHMARKS.md measured", () => {
  const MB = 2 ** 20;
  it("a 12-megapixel AVIF's copy ~286 MB (measured +149–224), its upload encoded again ~504 MB (+437–443)", () => {
    const twelve = { type: "avif" as const, width: 4000, height: 3000 };
    expect(Math.round(copyBytes(twelve, { w: 1280, fm: "webp" }) / MB)).toBe(286);
    expect(
      Math.round(encodeAgainBytes({ type: "avif", decodedPixels: 12e6, orientation: 1 }) / MB),
    ).toBe(504);
    expect(isHeavy(copyBytes({ ...twelve, type: "jpeg" }, { w: 1280, fm: "webp" }))).toBe(false);
  });

  it("a turned upload encoded again holds the image whole: heavy from 20 megapixels (+75 MB)", () => {
    const turned = (type: "png" | "jpeg", pixels: number) =>
      encodeAgainBytes({ type, decodedPixels: pixels, orientation: 6 });
    expect(isHeavy(turned("png", 20e6))).toBe(true);
    expect(isHeavy(turned("jpeg", 12e6))).toBe(false);
    expect(encodeAgainBytes({ type: "png", decodedPixels: 20e6, orientation: 1 })).toBe(0);
  });

  it("a progressive JPEG ~69 MB at 12 megapixels (+43 in 4:2:0, +83 in 4:4:4): heavy past ~11, with 3 channels", () => {
    const coding = (pixels: number, channels: number, progressive = true) => ({
      pixels,
      channels,
      progressive,
    });
    expect(Math.round(progressiveBytes(coding(12e6, 3)) / MB)).toBe(69);
    expect(progressiveBytes(coding(40e6, 3, false))).toBe(0);
    expect(isHeavy(progressiveBytes(coding(11.2e6, 3)))).toBe(true);
    expect(isHeavy(progressiveBytes(coding(11e6, 3)))).toBe(false);
    expect(isHeavy(progressiveBytes(coding(8.5e6, 4)))).toBe(true);
    const jpeg = { type: "jpeg" as const, width: 4000, height: 3000 };
    expect(copyBytes(jpeg, { w: 64, fm: "webp" }, coding(12e6, 3))).toBe(
      progressiveBytes(coding(12e6, 3)),
    );
    const upload = { type: "jpeg" as const, decodedPixels: 12e6 };
    expect(encodeAgainBytes({ ...upload, orientation: 1 }, coding(12e6, 3))).toBe(
      progressiveBytes(coding(12e6, 3)),
    );
    expect(encodeAgainBytes({ ...upload, orientation: 6 }, coding(12e6, 3))).toBe(
      progressiveBytes(coding(12e6, 3)) + encodeAgainBytes({ ...upload, orientation: 6 }),
    );
  });

  it("a WebP encoded again ~149 MB at 12 megapixels, turned or not (+127–155): heavy past ~5", () => {
    const webp = (pixels: number, orientation: number) =>
      encodeAgainBytes({ type: "webp", decodedPixels: pixels, orientation });
    expect(Math.round(webp(12e6, 1) / MB)).toBe(149);
    expect(webp(12e6, 6)).toBe(webp(12e6, 1));
    expect(isHeavy(webp(5.2e6, 1))).toBe(true);
    expect(isHeavy(webp(5e6, 6))).toBe(false);
  });

  it("an AVIF copy contained in a box fills it, however small the image", () => {
    const small = { type: "jpeg" as const, width: 1000, height: 1000 };
    const box = { w: 2560, h: 1920, fit: "contain" as const, fm: "avif" as const };
    expect(Math.round(copyBytes(small, box) / MB)).toBe(113);
    expect(isHeavy(copyBytes(small, box))).toBe(true);
    expect(isHeavy(copyBytes(small, { ...box, fit: "inside" }))).toBe(false);
  });

  it("an AVIF copy is estimated at its own size: within a box, covering it, or bounded to 4.9 megapixels", () => {
    const jpeg = { type: "jpeg" as const, width: 6000, height: 4000 };
    // 1920 × 1920 covered: 3.7 megapixels; 640 wide: 640 × 427; none: 2715 × 1810 (4.9).
    expect(Math.round(copyBytes(jpeg, { w: 1920, h: 1920, fit: "cover", fm: "avif" }) / MB)).toBe(
      84,
    );
    expect(Math.round(copyBytes(jpeg, { w: 640, fm: "avif" }) / MB)).toBe(6);
    expect(Math.round(copyBytes(jpeg, { fm: "avif" }) / MB)).toBe(112);
  });
});
