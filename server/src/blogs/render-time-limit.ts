/**
 * The render pool's time limit (render-pool.ts), counted in the CPU time of the thread doing the
 * render where the runtime can read it (`worker.cpuUsage()`, Node 22.19 and 24.6 on), otherwise
 * in wall-clock time from the render's start.
 *
 * Counting CPU time is what lets a long render go on at a lower CPU priority than the request
 * thread and the database (`demote`, once it has used that much CPU): a render starved by their
 * load is not refused for time it never got (on a saturated machine a niced thread can get a
 * fortieth of a core), while a body that really takes `limitMs` of rendering is refused after
 * exactly that much work, whatever the load. A render is still cut after `wallCapMs` of
 * wall-clock time, so a request never waits without bound.
 */

/** Reads a thread's CPU time (user + system), in milliseconds. */
export type ThreadCpuClock = () => Promise<number>;

export interface RenderTimeLimit {
  /** Refusal threshold, ms of the rendering thread's CPU time (or of wall-clock time). */
  readonly limitMs: number;
  /** Longest wall-clock time a render may take, however little CPU it got. */
  readonly wallCapMs: number;
  /**
   * The rendering thread's CPU clock and its reading when the render started; absent where the
   * runtime cannot read another thread's CPU time (the limit is then wall-clock).
   */
  readonly cpu?: { readonly clock: ThreadCpuClock; readonly startMs: number };
  /** Called once when the limit is reached (not after `stop`). */
  readonly expire: () => void;
  /**
   * Called once when the render has used `afterMs` of CPU time (only with `cpu`, and not after
   * `stop` or `expire`): the pool then lowers the thread's CPU priority for the rest of it.
   */
  readonly demote?: { readonly afterMs: number; readonly action: () => void };
}

/** Shortest wait between two readings of the thread's CPU time. */
const MIN_CHECK_MS = 10;

/** Starts watching one render, from now; `stop` when it ends. */
export function watchRenderTime(limit: RenderTimeLimit): { stop(): void } {
  const wallStart = performance.now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const expire = (): void => {
    if (stopped) return;
    stopped = true;
    limit.expire();
  };
  const checkAfter = (ms: number): void => {
    if (!stopped) timer = setTimeout(check, Math.max(MIN_CHECK_MS, ms));
  };
  let demote = limit.cpu === undefined ? undefined : limit.demote;
  /** CPU time left before the next thing to do: demote, or expire. */
  const nextAt = (used: number): number =>
    Math.min(limit.limitMs, demote?.afterMs ?? Number.POSITIVE_INFINITY) - used;
  async function check(): Promise<void> {
    const wall = performance.now() - wallStart;
    const { cpu } = limit;
    if (cpu === undefined || wall >= limit.wallCapMs) return expire();
    let used: number;
    try {
      used = (await cpu.clock()) - cpu.startMs;
    } catch {
      // The thread is gone: its render has ended, and whoever ran it has been told.
      return;
    }
    if (stopped) return;
    if (used >= limit.limitMs) return expire();
    if (demote !== undefined && used >= demote.afterMs) {
      const { action } = demote;
      demote = undefined;
      action();
    }
    // The thread cannot use more CPU than the time that passes: look again when it could be
    // due for demotion or at the limit, and never later than the wall-clock cap.
    const now = performance.now() - wallStart;
    checkAfter(Math.min(nextAt(used), limit.wallCapMs - now));
  }

  checkAfter(Math.min(nextAt(0), limit.wallCapMs));
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
