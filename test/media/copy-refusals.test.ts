/**
 * A copy that cannot be made is refused once and then remembered (README "Media"; openapi.yaml
 * `MediaCopyImpossible`; server/src/media/media-files.ts): the stored image never changes under
 * its ID, so the same copy asked again answers the same 422 without another decode in the pool.
 * Only that refusal is remembered: a busy pool's 503 (`MediaBusy`) is not, and neither is any
 * other copy of the same image. A deleted image is still a 404.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaFiles } from "../../server/src/media/media-files.js";
import { mediaPool } from "../../server/src/media/media-pool.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { DomainError } from "../../server/src/platform/domain-error.js";
import { damagedAvif } from "../support/damaged-avif.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
let dir: string;

beforeAll(async () => {
  t = await useTestDb();
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-copy-refusals-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A pool that counts the work it is given; `busyFirst` refuses the first as a full pool does. */
function countingPool(busyFirst = false) {
  const pool = mediaPool();
  const counts = { runs: 0 };
  return {
    counts,
    run<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
      counts.runs++;
      if (busyFirst && counts.runs === 1) {
        return Promise.reject(new DomainError("unavailable", "Too many images.", 1));
      }
      return pool.run(workspaceId, work);
    },
  };
}

/** Stores `bytes` as image `id` (its record and its original), as an upload leaves them. */
async function stored(
  files: ReturnType<typeof mediaFiles>,
  id: string,
  bytes: Buffer,
  type: "avif" | "png",
) {
  await t.db.collection("media").insertOne({
    _id: id as never,
    workspaceId: "ws_refusals",
    // The same bytes are one image of a workspace (index `workspace_media_bytes`).
    sha256: createHash("sha256").update(id).update(bytes).digest("hex"),
    name: `${id}.${type}`,
    alt: "Noise",
    type,
    width: 200,
    height: 150,
    bytes: bytes.length,
    terms: [],
    createdAt: new Date(),
    createdBy: "usr_refusals",
  });
  const source = path.join(dir, `${id}.upload`);
  await writeFile(source, bytes);
  await files.putOriginal(id, source);
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) =>
      err instanceof DomainError ? { code: err.code, message: err.message } : String(err),
  );

describe("a copy that cannot be made", () => {
  it("is refused with 422 once, and the same copy asked again is refused without another try", async () => {
    const pool = countingPool();
    const files = mediaFiles(collections(t.db), t.db, { dir, pool, maxPixels: 40_000_000 });
    await stored(files, "med_damaged1", await damagedAvif(), "avif");
    const expected = {
      code: "unprocessable",
      message: "No copy of this image can be made: its image data does not decode.",
    };
    const copy = () => files.file("med_damaged1", "med_damaged1.avif", { w: 64, fm: "webp" });
    expect(await refusalOf(copy())).toEqual(expected);
    expect(pool.counts.runs).toBe(1);
    expect(await refusalOf(copy())).toEqual(expected);
    expect(await refusalOf(copy())).toEqual(expected);
    expect(pool.counts.runs).toBe(1);
    // Another copy of the same image is its own question: tried once, then remembered too.
    const other = () => files.file("med_damaged1", "med_damaged1.avif", { w: 128, fm: "jpeg" });
    expect(await refusalOf(other())).toEqual(expected);
    expect(await refusalOf(other())).toEqual(expected);
    expect(pool.counts.runs).toBe(2);
  });

  it("is a 404 once its image is deleted, on an instance that remembered it too", async () => {
    // Two instances of one database (own caches); the image is deleted through the second.
    const pool = countingPool();
    const files = mediaFiles(collections(t.db), t.db, { dir, pool, maxPixels: 40_000_000 });
    const elsewhere = mediaFiles(collections(t.db), t.db, {
      dir: path.join(dir, "elsewhere"),
      pool: countingPool(),
      maxPixels: 40_000_000,
    });
    await stored(files, "med_damaged2", await damagedAvif(), "avif");
    const copy = () => files.file("med_damaged2", "med_damaged2.avif", { w: 64, fm: "webp" });
    expect(await refusalOf(copy())).toMatchObject({ code: "unprocessable" });
    await t.db.collection("media").deleteOne({ _id: "med_damaged2" as never });
    await elsewhere.remove("med_damaged2");
    // This instance reads the record again after RECORD_TTL_MS (2 s: media-files.ts).
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await refusalOf(copy())).toMatchObject({ code: "not_found" });
    expect(pool.counts.runs).toBe(1);
  });
});

describe("a copy refused for another reason", () => {
  it("a busy pool's 503 is not remembered: the next request makes the copy", async () => {
    const pool = countingPool(true);
    const files = mediaFiles(collections(t.db), t.db, { dir, pool, maxPixels: 40_000_000 });
    const png = await sharp({
      create: { width: 200, height: 150, channels: 3, background: "#2a8" },
    })
      .png()
      .toBuffer();
    await stored(files, "med_healthy1", png, "png");
    const copy = () => files.file("med_healthy1", "med_healthy1.png", { w: 64, fm: "webp" });
    expect(await refusalOf(copy())).toMatchObject({ code: "unavailable" });
    const made = await copy();
    expect(made.type).toBe("webp");
    expect((await sharp(await readFile(made.path)).metadata()).width).toBe(64);
    expect(pool.counts.runs).toBe(2);
  });
});
