/**
 * Bad input gets a clear error and loses nothing (README "Media"; admin.yaml `uploadMedia`):
 * whatever bytes of an AVIF's boxes are changed, keeping it as it came (avif-boxes.ts) either
 * writes a file of the three boxes it writes, or declines (the caller then decodes it, which
 * refuses what libheif cannot read: 415), or refuses it as past the pixel limit (422): never
 * another failure, such as a field read past its box's end escaping as an error of its own. The
 * boxes' readers (isobmff.ts, avif-items.ts, av1-framing.ts) meet every value a field can hold
 * this way: sizes past the end, counts larger than their box, zero sizes, wrong versions,
 * unknown types. And whatever bytes of a grid AVIF's boxes are changed, what decoding it may make
 * (avif-decoding.ts) is told or the file is not taken, never another failure; and when libheif
 * decodes what was told, the image it makes is within that bound: the pixel limit holds.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AvifTooLarge,
  avifDecoding,
  writeAvifWithoutMetadata,
} from "../../server/src/media/avif-boxes.js";

let dir: string;
const files: Buffer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-avif-fuzz-"));
  const raw = Buffer.alloc(64 * 48 * 4).map((_, i) => (i * 7919 + (i >> 5)) % 256);
  files.push(
    await sharp(raw, { raw: { width: 64, height: 48, channels: 4 } })
      .avif({ quality: 50 })
      .withExif({ IFD0: { Make: "Pressroom Test Camera" } })
      .toBuffer(),
    await readFile(
      path.join(import.meta.dirname, "..", "fixtures", "media", "turned-alpha-libavif.avif"),
    ),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("an AVIF whose boxes are damaged", () => {
  it("is written as ftyp, meta and mdat, or declined, or refused past the pixel limit", async () => {
    let n = 0;
    const outcomes = { kept: 0, declined: 0, tooLarge: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1),
        // Edits where the boxes are (ftyp and meta lie before the mdat's data).
        fc.array(fc.record({ at: fc.nat(700), value: fc.nat(255) }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (which, edits) => {
          const bytes = Buffer.from(files[which] as Buffer);
          const metaEnd = bytes.indexOf("mdat");
          for (const { at, value } of edits) bytes[at % metaEnd] = value;
          const from = path.join(dir, `in-${n++}.avif`);
          await writeFile(from, bytes);
          try {
            if (await writeAvifWithoutMetadata(from, `${from}.out`, 1_000_000)) {
              outcomes.kept++;
              const out = await readFile(`${from}.out`);
              const top: string[] = [];
              for (let at = 0; at + 8 <= out.length; at += Math.max(8, out.readUInt32BE(at))) {
                top.push(out.toString("latin1", at + 4, at + 8));
              }
              expect(top).toEqual(["ftyp", "meta", "mdat"]);
            } else outcomes.declined++;
          } catch (err) {
            expect(err).toBeInstanceOf(AvifTooLarge);
            outcomes.tooLarge++;
          }
        },
      ),
      { numRuns: 400 },
    );
    // The edits must leave files that are kept too, or the property says little.
    expect(outcomes.kept).toBeGreaterThan(40);
    expect(outcomes.declined).toBeGreaterThan(40);
  }, 120_000);
});

describe("a grid AVIF whose boxes are damaged", () => {
  it("is told what decoding it makes at most, or not taken; libheif decodes no more than told", async () => {
    const grid = await readFile(
      path.join(import.meta.dirname, "..", "fixtures", "media", "grid-libavif.avif"),
    );
    let n = 0;
    const outcomes = { told: 0, decoded: 0, notTaken: 0 };
    await fc.assert(
      fc.asyncProperty(
        // Edits where the boxes are (before the mdat's data, which holds the grid's descriptor
        // first: its 8 bytes are edited too).
        fc.array(fc.record({ at: fc.nat(600), value: fc.nat(255) }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (edits) => {
          const bytes = Buffer.from(grid);
          const end = bytes.indexOf("mdat") + 12;
          for (const { at, value } of edits) bytes[at % end] = value;
          const from = path.join(dir, `grid-${n++}.avif`);
          await writeFile(from, bytes);
          const told = await avifDecoding(from);
          if (told === undefined) {
            outcomes.notTaken++;
            return;
          }
          outcomes.told++;
          for (const value of [told.frame, told.canvas, told.tiles]) {
            expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
          }
          const decoded = await sharp(bytes, { limitInputPixels: false })
            .raw()
            .toBuffer({ resolveWithObject: true })
            .catch(() => undefined);
          if (decoded === undefined) return;
          outcomes.decoded++;
          expect(decoded.info.width * decoded.info.height).toBeLessThanOrEqual(
            Math.max(told.frame, told.canvas),
          );
        },
      ),
      { numRuns: 300 },
    );
    expect(outcomes.decoded).toBeGreaterThan(30);
    expect(outcomes.notTaken).toBeGreaterThan(30);
  }, 120_000);
});
