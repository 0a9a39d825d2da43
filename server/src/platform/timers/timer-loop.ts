/**
 * Work run on a timer and on demand, one run at a time: the sweepers (platform/db/ttl-sweeper.ts,
 * keys/expiry-sweeper.ts, webhooks/retention.ts), the outbox relay and the delivery worker.
 */
export interface TimerLoop {
  /** Runs the work soon: now, or once more after the run under way. Never awaited by callers. */
  nudge(): void;
  /** Runs the work now (after the run under way) and resolves when it is done. */
  runNow(): Promise<void>;
  /** Stops the timer and waits for the run under way; no run starts afterwards. */
  close(): Promise<void>;
}

export interface TimerLoopOptions {
  /** The pause between the end of one run and the next timed one. */
  readonly intervalMs: number;
  /** The first timed run, this long after start; `intervalMs` when not given. */
  readonly firstDelayMs?: number;
}

/**
 * Runs `work` `firstDelayMs` after start, then `intervalMs` after each run ends, on an unref'd
 * timer (it never keeps the process alive); nudges during a run coalesce into one more run. Runs
 * never overlap, so a slow run delays the next rather than piling up. `work` must not reject: it
 * logs its own failures, and the next run is the retry.
 */
export function startTimerLoop(
  work: () => Promise<void>,
  { intervalMs, firstDelayMs = intervalMs }: TimerLoopOptions,
): TimerLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const arm = (delayMs: number) => {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => void start(), delayMs);
    timer.unref();
  };
  const start = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    running = (async () => {
      do {
        again = false;
        await work();
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
      arm(intervalMs);
    });
    return running;
  };
  arm(firstDelayMs);

  return {
    nudge() {
      if (!closed) void start();
    },
    async runNow() {
      while (running !== undefined) await running;
      if (closed) return;
      await start();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      while (running !== undefined) await running;
    },
  };
}
