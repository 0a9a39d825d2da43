// `pressroom db restore FILE`: checks a backup, then puts it in place of the embedded database,
// keeping the database it replaces. Nothing is touched until the backup has passed every check.
import { constants } from "node:fs";
import { copyFile, link, mkdir, open, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { MongoClient } from "mongodb";
import type { Config } from "../config.js";
import { DomainError } from "../domain-error.js";
import { embeddedFile, type FileReport, refuseExternal, runLauncherMode } from "./backup.js";
import { runningEmbedded } from "./database.js";
import { startEmbeddedDb } from "./embedded.js";

export interface RestoreResult {
  /** The backup restored. */
  readonly file: string;
  /** The database file it now is. */
  readonly target: string;
  /** Where the replaced database's files were kept; null when there was none. */
  readonly savedTo: string | null;
  readonly bytes: number;
  readonly collections: FileReport["collections"];
  readonly tookMs: number;
}

/** Collections every Pressroom database has: ensureIndexes (collections.ts) makes them at start. */
const PRESSROOM_COLLECTIONS = ["apiKeys", "blogs"];

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

async function fsync(file: string): Promise<void> {
  const handle = await open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Refuses while a launcher serves `dataDir` (its state file names a live process). */
async function refuseWhileRunning(dataDir: string): Promise<void> {
  const running = await runningEmbedded(dataDir);
  if (running === null) return;
  throw new DomainError(
    "conflict",
    `The embedded database of ${dataDir} is running (process ${running.pid}, ${running.uri}). ` +
      "Stop the server (and any `pressroom db`) first, then run the restore again.",
  );
}

/**
 * What a user means by "the backup is good": FerretDB opens it and reads every document. Starts
 * the launcher on a scratch directory holding a copy of `staged`, reads each collection through
 * the driver and requires the counts SQLite gave (`verified`). The scratch directory is removed.
 */
async function checkFerretDbReads(
  config: Config,
  staged: string,
  verified: FileReport,
  scratch: string,
): Promise<void> {
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  try {
    await copyFile(staged, path.join(scratch, `${config.mongodbDb}.sqlite`));
    const embedded = await startEmbeddedDb({ dataDir: scratch, onProgress: () => {} });
    const client = new MongoClient(embedded.uri, { serverSelectionTimeoutMS: 30_000 });
    try {
      const db = client.db(config.mongodbDb);
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      for (const { name, documents } of verified.collections) {
        if (!names.includes(name)) throw new Error(`FerretDB does not list collection ${name}`);
        let read = 0;
        for await (const _ of db.collection(name).find({}, { projection: { _id: 1 } })) read++;
        if (read !== documents) {
          throw new Error(
            `collection ${name}: FerretDB read ${read} documents, SQLite has ${documents}`,
          );
        }
      }
    } finally {
      await client.close();
      await embedded.stop();
    }
  } catch (err) {
    throw new DomainError(
      "invalid",
      `The backup does not open in FerretDB: ${(err as Error).message}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Puts `staged` in place of `target`. Each step leaves a database in place and, from step 2 on,
 * a whole copy of the old one in `aside`:
 * 1. `aside` is made; 2. the old file and its `-wal`/`-shm` get a second name there (hard links,
 * or copies where links fail); 3. the old `-wal`/`-shm` are unlinked in place (a WAL left beside
 * the new file would be replayed into it); 4. `staged` is renamed over `target` (atomic).
 * A crash after 3 and before 4 leaves the old file without its WAL in place (the WAL's last
 * transactions are in `aside`). Returns `aside`, or null if there was no old database.
 */
async function swapIn(staged: string, target: string, aside: string): Promise<string | null> {
  const dir = path.dirname(target);
  const old = [target, `${target}-wal`, `${target}-shm`];
  const present = [];
  for (const file of old) if (await exists(file)) present.push(file);
  let saved: string | null = null;
  if (present.length > 0) {
    await mkdir(aside, { recursive: true, mode: 0o700 });
    for (const file of present) {
      const copy = path.join(aside, path.basename(file));
      await link(file, copy).catch(() => copyFile(file, copy, constants.COPYFILE_EXCL));
      await fsync(copy);
    }
    await fsync(aside);
    await fsync(dir);
    for (const file of old.slice(1)) await unlink(file).catch(() => {});
    saved = aside;
  }
  await rename(staged, target);
  await fsync(dir);
  return saved;
}

export interface RestoreOptions {
  readonly file: string;
  readonly onProgress: (line: string) => void;
}

/** Restores the app's embedded database from a `pressroom db backup` file. */
export async function restoreEmbedded(
  config: Config,
  options: RestoreOptions,
): Promise<RestoreResult> {
  refuseExternal(config, "restore");
  const started = Date.now();
  await refuseWhileRunning(config.dataDir);
  const file = path.resolve(options.file);
  if (!(await exists(file))) throw new DomainError("not_found", `No such file: ${file}`);
  const target = embeddedFile(config.dataDir, config.mongodbDb);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  // As the launcher makes it (main.go): owner only.
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  // Not named *.sqlite: FerretDB would take a left-over one for a database.
  const staged = path.join(path.dirname(target), `.restore-${stamp}.partial`);
  await copyFile(file, staged, constants.COPYFILE_EXCL);
  try {
    const verified = await runLauncherMode(["-verify", staged], options.onProgress).catch(
      (err: unknown) => {
        if (!(err instanceof DomainError)) throw err;
        throw new DomainError("invalid", `${file} is not a usable backup: ${err.message}`);
      },
    );
    const names = verified.collections.map((c) => c.name);
    const missing = PRESSROOM_COLLECTIONS.filter((name) => !names.includes(name));
    if (missing.length > 0) {
      throw new DomainError(
        "invalid",
        `${file} is not a Pressroom database: it has no ${missing.join(" or ")} collection.`,
      );
    }
    options.onProgress("Backup checked by SQLite; opening it in FerretDB…");
    await checkFerretDbReads(
      config,
      staged,
      verified,
      path.join(config.dataDir, `.restore-check-${stamp}`),
    );
    await refuseWhileRunning(config.dataDir); // one may have started meanwhile
    await fsync(staged);
    const savedTo = await swapIn(
      staged,
      target,
      path.join(path.dirname(target), `before-restore-${stamp}`),
    );
    return {
      file,
      target,
      savedTo,
      bytes: verified.bytes,
      collections: verified.collections,
      tookMs: Date.now() - started,
    };
  } finally {
    // Opening a WAL-mode file, even read-only, makes its -wal and -shm.
    for (const file of [staged, `${staged}-wal`, `${staged}-shm`]) await rm(file, { force: true });
  }
}
