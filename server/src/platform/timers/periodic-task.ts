/** A task run on a timer, at most one run at a time (platform/db/ttl-sweeper.ts, keys/expiry-sweeper.ts). */
export interface PeriodicTask {
  /** Runs the task now (after a run under way); never rejects: the task handles its failures. */
  run(): Promise<void>;
  /** Stops the timer and waits for a run under way; no run starts afterwards. */
  close(): Promise<void>;
}

/**
 * Runs `task` after `firstDelayMs`, then `intervalMs` after each run ends, on an unref'd timer
 * (it never keeps the process alive). `task` must not reject: it logs its own failures, and
 * the next run is the retry.
 */
export function startPeriodicTask(
  task: () => Promise<void>,
  { intervalMs, firstDelayMs }: { intervalMs: number; firstDelayMs: number },
): PeriodicTask {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const run = async (): Promise<void> => {
    while (running !== undefined) await running;
    if (closed) return;
    running = task().finally(() => {
      running = undefined;
    });
    await running;
  };
  const schedule = (delayMs: number) => {
    if (closed) return;
    timer = setTimeout(() => {
      void run().then(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(firstDelayMs);

  return {
    run,
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      while (running !== undefined) await running;
    },
  };
}
