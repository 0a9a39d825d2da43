/**
 * An upload cut short is refused, whatever library version decodes it (README, "Media": "a file
 * that only starts like an image (a polyglot, a truncated file) is `415` too"): for each type
 * the library takes, the same image cut at any of two dozen points, from a sixteenth of its
 * length to its last byte, is `unsupported_type`. A PNG or GIF that lacks only its end marker
 * keeps every pixel, and is taken, as libpng and browsers take it. An AVIF's own cases, which
 * its boxes tell, are in avif-boxes.test.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseImage } from "../../server/src/media/image-normalise.js";
import type { ImageType } from "../../server/src/media/image-type.js";
import { DomainError } from "../../server/src/platform/domain-error.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-cut-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const WIDTH = 300;
const HEIGHT = 200;
/** Noise, so that every part of the file carries pixels. */
const raw = Buffer.alloc(WIDTH * HEIGHT * 3).map((_, i) => (i * 7919 + (i >> 5)) % 256);
const noisy = () => sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });

const MAKERS: readonly [string, ImageType, () => Promise<Buffer>][] = [
  ["a JPEG", "jpeg", () => noisy().jpeg({ quality: 80 }).toBuffer()],
  ["a progressive JPEG", "jpeg", () => noisy().jpeg({ quality: 80, progressive: true }).toBuffer()],
  ["a PNG", "png", () => noisy().png().toBuffer()],
  ["a lossy WebP", "webp", () => noisy().webp({ quality: 80 }).toBuffer()],
  ["a lossless WebP", "webp", () => noisy().webp({ lossless: true }).toBuffer()],
  ["a GIF", "gif", () => noisy().gif().toBuffer()],
  ["an AVIF", "avif", () => noisy().avif({ quality: 60 }).toBuffer()],
];

async function stored(bytes: Buffer, type: ImageType): Promise<Buffer> {
  const from = path.join(dir, `in-${Math.random()}`);
  await writeFile(from, bytes);
  await normaliseImage(from, type, `${from}.out`, 1_000_000);
  return readFile(`${from}.out`);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => (err instanceof DomainError ? err.code : err),
  );

describe("an upload cut short", () => {
  it.each(MAKERS)(
    "%s cut anywhere before its end marker is refused (415)",
    async (_, type, make) => {
      const whole = await make();
      expect((await stored(whole, type)).length).toBeGreaterThan(0);
      // Fifteen cuts spread over the file, and its last bytes one by one and in growing runs, past
      // the end markers that are taken without (below).
      const marker = type === "png" ? 12 : type === "gif" ? 1 : 0;
      const cuts = [
        ...Array.from({ length: 15 }, (_, i) => Math.floor((whole.length * (i + 1)) / 16)),
        ...[1, 2, 3, 4, 8, 13, 16, 32, 64].map((n) => whole.length - n),
      ].filter((kept) => kept < whole.length - marker);
      const outcomes = await Promise.all(
        cuts.map(async (kept) => [kept, await refusal(stored(whole.subarray(0, kept), type))]),
      );
      expect(outcomes).toEqual(cuts.map((kept) => [kept, "unsupported_type"]));
    },
  );

  it.each([
    // IEND: its length (0), its type and its CRC.
    ["a PNG without its IEND chunk", "png", () => noisy().png().toBuffer(), 12],
    // The trailer byte, 0x3B.
    ["a GIF without its trailer", "gif", () => noisy().gif().toBuffer(), 1],
  ] as const)("%s keeps every pixel, and is taken", async (_, type, make, marker) => {
    const whole = await make();
    // Stored as the whole file is (a GIF is encoded again, its palette chosen anew).
    const [fromWhole, fromCut] = await Promise.all(
      [whole, whole.subarray(0, whole.length - marker)].map(async (b) =>
        sharp(await stored(b, type))
          .removeAlpha()
          .raw()
          .toBuffer(),
      ),
    );
    expect(fromWhole?.length).toBe(WIDTH * HEIGHT * 3);
    expect(fromCut?.equals(fromWhole ?? Buffer.alloc(0))).toBe(true);
  });
});
