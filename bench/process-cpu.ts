/**
 * CPU time of processes and their descendants, read from Linux's /proc (bench/workers.ts): who
 * used the machine's cores during a window — the servers, the database, the load generator, or
 * other work on the machine. Elsewhere (no /proc) every figure is 0 and the report says so.
 */
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ), 100 on every Linux build we know. */
const TICKS_PER_SECOND = 100;

export const procAvailable = (): boolean => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
};

/** The live children of `pid` (every thread's list: a child belongs to the thread that forked it). */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8")
        .trim()
        .split(" ")
        .filter((p) => p !== "")
        .map(Number),
    );
  } catch {
    return [];
  }
}

/** User + system CPU of `pid` alone, in ms (0 when it is gone). */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU ms of `pid` and every live descendant. */
export function treeCpuMs(pid: number): number {
  return cpuMsOf(pid) + childrenOf(pid).reduce((sum, child) => sum + treeCpuMs(child), 0);
}

/** The machine's busy CPU time over all cores, in ms (os.cpus()). */
export function machineBusyMs(): number {
  let busy = 0;
  for (const { times } of cpus()) busy += times.user + times.nice + times.sys + times.irq;
  return busy;
}
