// `pressroom db restore FILE`: checks a backup, then puts it in place of the embedded database,
// keeping the database it replaces. Nothing is touched until the backup has passed every check.
import { constants } from "node:fs";
import { copyFile, link, mkdir, open, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.js";
import { runningEmbedded } from "../db/database.js";
import { conflict, DomainError } from "../domain-error.js";
import { embeddedFile, type FileReport, refuseExternal, runLauncherMode } from "./backup.js";
import { tryDataDirLock } from "./data-dir-lock.js";
import { checkFerretDbReads } from "./restore-check.js";

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

/** Collections every Pressroom database has: ensureIndexes (platform/db/indexes.ts) makes them at start. */
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

/**
 * Takes the data dir's lock for the whole restore (data-dir-lock.ts: no server starts on it
 * meanwhile), then refuses if a launcher serves it (its state file names a live process).
 */
async function lockIdleDataDir(dataDir: string): Promise<() => Promise<void>> {
  const stop = "Stop the server (and any `pressroom db`) first, then run the restore again.";
  const lock = await tryDataDirLock(dataDir, "restore");
  if ("heldBy" in lock) {
    const { pid, holder } = lock.heldBy;
    throw conflict(
      holder === "restore"
        ? `Another restore of ${dataDir} is running (process ${pid}).`
        : `The embedded database of ${dataDir} is starting (process ${pid}). ${stop}`,
    );
  }
  const running = await runningEmbedded(dataDir); // never throws: no state file is "none"
  if (running === null) return lock.release;
  await lock.release();
  throw conflict(
    `The embedded database of ${dataDir} is running (process ${running.pid}, ${running.uri}). ${stop}`,
  );
}

/**
 * Copies `file` and its `-wal` (its last transactions may be only there: a copy of a running
 * database, the old files a restore keeps) into the private directory `dir`, and returns the
 * copy. The launcher then reads the copy: opening a database, even read-only, makes a `-wal` and
 * `-shm` beside it, and those are not to appear in the user's backup folder. A `-shm` is not
 * copied: SQLite rebuilds it from the WAL.
 */
async function privateCopy(file: string, dir: string): Promise<string> {
  await mkdir(dir, { mode: 0o700 });
  const copy = path.join(dir, "backup.sqlite");
  await copyFile(file, copy, constants.COPYFILE_EXCL);
  if (await exists(`${file}-wal`)) {
    await copyFile(`${file}-wal`, `${copy}-wal`, constants.COPYFILE_EXCL);
  }
  return copy;
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

/**
 * Restores the app's embedded database from a `pressroom db backup` file (or any copy of a
 * database file, with its `-wal` if one is beside it), holding the data dir's lock throughout.
 */
export async function restoreEmbedded(
  config: Config,
  options: RestoreOptions,
): Promise<RestoreResult> {
  refuseExternal(config, "restore");
  const started = Date.now();
  const file = path.resolve(options.file);
  if (!(await exists(file))) throw new DomainError("not_found", `No such file: ${file}`);
  const target = embeddedFile(config.dataDir, config.mongodbDb);
  // As the launcher makes it (main.go): owner only.
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const release = await lockIdleDataDir(config.dataDir);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const source = path.join(config.dataDir, `.restore-source-${stamp}`);
  // Not named *.sqlite: FerretDB would take a left-over one for a database.
  const staged = path.join(path.dirname(target), `.restore-${stamp}.partial`);
  const { onProgress } = options;
  try {
    const copy = await privateCopy(file, source);
    const checked = await runLauncherMode(["-verify", copy], onProgress).catch((err: unknown) => {
      if (!(err instanceof DomainError)) throw err;
      throw new DomainError("invalid", `${file} is not a usable backup: ${err.message}`);
    });
    const names = checked.collections.map((c) => c.name);
    const missing = PRESSROOM_COLLECTIONS.filter((name) => !names.includes(name));
    if (missing.length > 0) {
      throw new DomainError(
        "invalid",
        `${file} is not a Pressroom database: it has no ${missing.join(" or ")} collection.`,
      );
    }
    // The launcher's backup mode: one file, WAL transactions included, checked, fsynced, 0600.
    const verified = await runLauncherMode(
      ["-backup-from", copy, "-backup-to", staged],
      onProgress,
    );
    onProgress("Backup checked by SQLite; opening it in FerretDB…");
    const scratch = path.join(config.dataDir, `.restore-check-${stamp}`);
    await checkFerretDbReads(config, staged, verified, scratch);
    const aside = path.join(path.dirname(target), `before-restore-${stamp}`);
    const savedTo = await swapIn(staged, target, aside);
    return {
      file,
      target,
      savedTo,
      bytes: verified.bytes,
      collections: verified.collections,
      tookMs: Date.now() - started,
    };
  } finally {
    await rm(source, { recursive: true, force: true });
    await rm(staged, { force: true }); // still there if a check refused it
    await release();
  }
}
