// The lock of a data directory's embedded database: `pressroom db restore` holds it for its whole
// run, and starting the embedded database (database.ts startRecordedEmbeddedDb) holds it until
// the state file names the new process. So a server cannot start on a database being replaced,
// and a restore that takes the lock and then finds no state file knows none is running or starting.
import { open, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { isProcessAlive } from "./process-alive.js";

export type LockHolder = "restore" | "start";

export interface HeldBy {
  readonly pid: number;
  readonly holder: LockHolder;
}

export type LockAttempt = { readonly release: () => Promise<void> } | { readonly heldBy: HeldBy };

/** `<dataDir>/embedded-db.lock`, beside the state file `embedded-db.json`. */
export const dataDirLockFile = (dataDir: string): string => path.join(dataDir, "embedded-db.lock");

const errCode = (err: unknown): unknown => (err as NodeJS.ErrnoException | null)?.code;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Who holds `file`: null if it is gone, "writing" while its holder is still writing it. */
async function readHolder(file: string): Promise<HeldBy | "writing" | null> {
  try {
    const value = JSON.parse(await readFile(file, "utf8")) as Partial<HeldBy>;
    if (typeof value.pid === "number" && (value.holder === "restore" || value.holder === "start")) {
      return { pid: value.pid, holder: value.holder };
    }
  } catch (err) {
    if (errCode(err) === "ENOENT") return null;
  }
  // Made (O_EXCL) but not written yet, or a holder killed between the two: stale after 5 s.
  const info = await stat(file).catch(() => null);
  if (info === null) return null;
  return Date.now() - info.mtimeMs < 5000 ? "writing" : { pid: 0, holder: "start" };
}

/**
 * Takes the lock of `dataDir` for `holder` (an O_EXCL file holding this pid), or says which live
 * process holds it. A lock whose process is gone (killed) is removed and taken. Two processes
 * taking over the same dead lock at the same instant could both succeed: a crash and two
 * simultaneous starts on one data dir; not guarded against.
 */
export async function tryDataDirLock(dataDir: string, holder: LockHolder): Promise<LockAttempt> {
  const file = dataDirLockFile(dataDir);
  for (;;) {
    try {
      const fh = await open(file, "wx", 0o600);
      try {
        await fh.writeFile(`${JSON.stringify({ pid: process.pid, holder })}\n`);
      } finally {
        await fh.close();
      }
      return { release: () => rm(file, { force: true }) };
    } catch (err) {
      if (errCode(err) !== "EEXIST") throw err;
    }
    const held = await readHolder(file);
    if (held === "writing") await sleep(50);
    else if (held !== null && held.pid > 0 && isProcessAlive(held.pid)) return { heldBy: held };
    else if (held !== null) await rm(file, { force: true });
  }
}
