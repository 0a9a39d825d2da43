// A lock between processes: a file made with O_EXCL that holds the owner's pid.
import { open, readFile, rm, stat } from "node:fs/promises";
import { isProcessAlive } from "./process-alive.js";

const STALE_MS = 15 * 60_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const errCode = (err: unknown): unknown => (err as NodeJS.ErrnoException | null)?.code;

/** Takes the lock; false if another live process holds it (a dead owner's lock is removed). */
async function tryLock(lockPath: string): Promise<boolean> {
  try {
    const fh = await open(lockPath, "wx");
    await fh.writeFile(String(process.pid));
    await fh.close();
    return true;
  } catch (err) {
    if (errCode(err) !== "EEXIST") throw err;
  }
  let stale = false;
  try {
    const [info, pid] = await Promise.all([stat(lockPath), readFile(lockPath, "utf8")]);
    const owner = Number(pid);
    stale = Date.now() - info.mtimeMs > STALE_MS || (owner > 0 && !isProcessAlive(owner));
  } catch {
    // Gone meanwhile (released by its owner): the next attempt will tell.
  }
  if (stale) await rm(lockPath, { force: true });
  return false;
}

/**
 * Runs `fn` holding the lock file `lockPath`. While another live process holds it, calls
 * `onWait` once and waits; a lock older than 15 minutes or whose process is gone is taken over.
 */
export async function withLockFile<T>(
  lockPath: string,
  onWait: () => void,
  fn: () => Promise<T>,
): Promise<T> {
  if (!(await tryLock(lockPath))) {
    onWait();
    while (!(await tryLock(lockPath))) await sleep(500);
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}
