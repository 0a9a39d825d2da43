/**
 * The data of one size of bench/db-scaling.ts, seeded once (bench/scaling-seed.ts) into a data
 * directory through the launcher, after the app's `ensureIndexes`; each variant then starts on a
 * copy of it. With `--seed-dir` it is kept, with its manifest (seed.json), and reused.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { MongoClient } from "mongodb";
import { ensureIndexes } from "../../server/src/platform/db/indexes.js";
import { type ScalingSeed, SEED_FORMAT, seedScaling } from "../scaling-seed.js";
import { type Children, startLauncher } from "./processes.js";

export const DB_NAME = "pressroom_scaling";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seeds `size` released blogs into `dir`/data (or reuses a kept seed there). */
export async function seeded(
  group: Children,
  bin: string,
  dir: string,
  size: number,
  log: (line: string) => void,
): Promise<ScalingSeed> {
  const manifest = path.join(dir, "seed.json");
  if (existsSync(manifest)) {
    const kept = JSON.parse(await readFile(manifest, "utf8")) as ScalingSeed;
    if (kept.format === SEED_FORMAT && kept.released === size) {
      log(`Reusing the seed of ${size} released blogs in ${dir}`);
      return kept;
    }
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const started = Date.now();
  log(`Seeding ${size.toLocaleString("en")} released blogs into ${dir}…`);
  const db = await startLauncher(group, bin, path.join(dir, "data"), false);
  try {
    const mongo = new MongoClient(db.uri);
    await mongo.connect();
    try {
      const database = mongo.db(DB_NAME);
      await ensureIndexes(database);
      const seed = await seedScaling(database, size, log);
      // The launcher adds its indexes for new collections within a second (-id-index-interval).
      await sleep(2500);
      await writeFile(manifest, JSON.stringify(seed));
      log(
        `  seeded ${seed.totalBlogs} blogs (${size} released) in ${Math.round((Date.now() - started) / 1000)} s`,
      );
      return seed;
    } finally {
      await mongo.close();
    }
  } finally {
    await db.stop();
  }
}
