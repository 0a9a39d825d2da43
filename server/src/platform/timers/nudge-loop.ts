/** Work run on a timer and whenever nudged, one run at a time (the outbox relay, the worker). */
export interface NudgeLoop {
  /** Runs the work soon: now, or once more after the run under way. Never awaited by callers. */
  nudge(): void;
  /** Runs the work now (after the run under way) and resolves when it is done. */
  runNow(): Promise<void>;
  /** Stops the timer and waits for the run under way; no run starts afterwards. */
  close(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs` (an unref'd timer: it never keeps the process alive) and on
 * every nudge; nudges during a run coalesce into one more run. `work` must not reject: it logs
 * its own failures, and the next run is the retry.
 */
export function nudgeLoop(work: () => Promise<void>, intervalMs: number): NudgeLoop {
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const start = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await work();
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => {
    if (!closed) void start();
  }, intervalMs);
  timer.unref();

  return {
    nudge() {
      if (!closed) void start();
    },
    async runNow() {
      if (closed) return;
      while (running !== undefined) await running;
      await start();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      while (running !== undefined) await running;
    },
  };
}
