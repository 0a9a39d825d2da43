import cluster, { type Worker } from "node:cluster";
import type { Logger } from "../logger.js";
import { isReadyMessage, type ReadinessMessage } from "./messages.js";
import { FIRST_DELAY_MS, type RestartDecision, RestartPolicy } from "./restart-policy.js";

/**
 * How long past SHUTDOWN_TIMEOUT_MS a stopping worker may take to flush its buffers, close the
 * driver and exit before the primary kills it: a worker's own stop is bounded by the drain's
 * timeout, then a few writes.
 */
export const STOP_MARGIN_MS = 15_000;

export interface SupervisorOptions {
  /** How many workers to keep running. */
  readonly count: number;
  readonly log: Logger;
  /** SHUTDOWN_TIMEOUT_MS: what each worker's graceful stop may take for its requests. */
  readonly shutdownTimeoutMs: number;
  /** The restart policy's clock (tests). */
  readonly now?: () => number;
}

export interface Supervisor {
  /**
   * Resolves once every worker has reported that it serves, for the first time: with the URL
   * they serve at and their process ids. Rejects when a worker exits before that (a port taken,
   * a database refusing the start): nothing is restarted during the first start.
   */
  readonly started: Promise<{ url: string; pids: number[] }>;
  /** Resolves with the reason when the supervisor gives up restarting crashed workers. */
  readonly gaveUp: Promise<string>;
  /**
   * Asks every worker to stop (SIGTERM: each drains its requests and flushes, as one server
   * does), restarts none, and resolves once all have exited: true when each exited cleanly.
   */
  stop(): Promise<boolean>;
}

/**
 * The cluster primary's side of `--workers` (README, "Workers"): forks `count` workers (node's
 * `cluster`: each runs this program again, with the same arguments, and listens on the shared
 * port, whose connections the primary hands out in turn), tells each how many are serving (for
 * `/readyz`), replaces a worker that exits while the server runs (a crash, within the limits of
 * platform/cluster/restart-policy.ts, or its own graceful stop), and stops them all on request.
 */
export function superviseWorkers(options: SupervisorOptions): Supervisor {
  const { count, log } = options;
  const policy = new RestartPolicy(options.now);
  /** The worker in each slot (undefined between a crash and its replacement). */
  const slots: (Worker | undefined)[] = Array.from({ length: count }, () => undefined);
  const ready = new Set<number>();
  const restarts = new Set<NodeJS.Timeout>();
  let url = "";
  let everAllReady = false;
  let stopping = false;
  let cleanExits = true;
  let onAllExited: (() => void) | undefined;

  let resolveStarted: (value: { url: string; pids: number[] }) => void = () => {};
  let rejectStarted: (err: Error) => void = () => {};
  const started = new Promise<{ url: string; pids: number[] }>((resolve, reject) => {
    resolveStarted = resolve;
    rejectStarted = reject;
  });
  // The caller may stop before awaiting it; a start-up failure is also reported by `stop`.
  started.catch(() => {});
  let giveUp: (reason: string) => void = () => {};
  const gaveUp = new Promise<string>((resolve) => {
    giveUp = resolve;
  });

  const live = (): Worker[] => slots.filter((w): w is Worker => w !== undefined);
  const broadcast = () => {
    const message: ReadinessMessage = { pressroom: "readiness", ready: ready.size, of: count };
    for (const worker of live()) {
      // A worker that has just died may still be listed: its channel is closed, nothing to tell.
      if (worker.isConnected()) worker.send(message, undefined, undefined, () => {});
    }
  };

  const fork = (slot: number) => {
    const worker = cluster.fork();
    slots[slot] = worker;
    worker.on("message", (message: unknown) => {
      if (!isReadyMessage(message) || stopping) return;
      url = message.url;
      ready.add(worker.id);
      log.info(
        { worker: worker.id, workerPid: worker.process.pid, ready: ready.size, of: count },
        `worker ${worker.id} serving (${ready.size} of ${count})`,
      );
      broadcast();
      if (!everAllReady && ready.size === count) {
        everAllReady = true;
        resolveStarted({ url, pids: live().map((w) => w.process.pid ?? 0) });
      }
    });
    worker.once("exit", (code, signal) => exited(slot, worker, code, signal));
  };

  const exited = (slot: number, worker: Worker, code: number | null, signal: string | null) => {
    ready.delete(worker.id);
    if (slots[slot] === worker) slots[slot] = undefined;
    const how = signal === null ? `code ${code}` : `signal ${signal}`;
    if (stopping) {
      // Asked to stop: exit 0 after the drain, or the signal itself when it came mid start-up.
      if (!(code === 0 || signal === "SIGTERM" || signal === "SIGINT")) {
        cleanExits = false;
        log.warn(
          { worker: worker.id, workerPid: worker.process.pid, code, signal },
          `worker ${worker.id} stopped with ${how}`,
        );
      }
      if (live().length === 0) onAllExited?.();
      return;
    }
    broadcast();
    if (!everAllReady) {
      rejectStarted(
        new Error(
          `worker ${worker.id} (pid ${worker.process.pid}) exited with ${how} while starting`,
        ),
      );
      return;
    }
    // Exit 0 is a worker's own graceful stop, asked by a signal sent to it alone (a rolling
    // restart by hand): replaced like a crash, but never counted as one.
    const decision: RestartDecision =
      code === 0 ? { restartInMs: FIRST_DELAY_MS } : policy.crashed();
    if ("giveUp" in decision) {
      log.error(
        { worker: worker.id, workerPid: worker.process.pid, code, signal },
        `worker ${worker.id} (pid ${worker.process.pid}) exited with ${how}: ${decision.giveUp}, giving up`,
      );
      giveUp(decision.giveUp);
      return;
    }
    log[code === 0 ? "info" : "warn"](
      {
        worker: worker.id,
        workerPid: worker.process.pid,
        code,
        signal,
        restartInMs: decision.restartInMs,
        ready: ready.size,
        of: count,
      },
      `worker ${worker.id} (pid ${worker.process.pid}) ${code === 0 ? "stopped" : "exited"} with ${how}; starting a replacement in ${decision.restartInMs} ms`,
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork(slot);
    }, decision.restartInMs);
    restarts.add(timer);
  };

  for (let slot = 0; slot < count; slot++) fork(slot);

  const stopAll = async (): Promise<boolean> => {
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    rejectStarted(new Error("stopped while starting"));
    const workers = live();
    if (workers.length === 0) return cleanExits;
    const allExited = new Promise<void>((resolve) => {
      onAllExited = resolve;
    });
    for (const worker of workers) worker.process.kill("SIGTERM");
    const deadline = setTimeout(() => {
      for (const worker of live()) {
        log.warn(
          { worker: worker.id, workerPid: worker.process.pid },
          `worker ${worker.id} still running ${options.shutdownTimeoutMs + STOP_MARGIN_MS} ms after SIGTERM: killed`,
        );
        worker.process.kill("SIGKILL");
      }
    }, options.shutdownTimeoutMs + STOP_MARGIN_MS);
    await allExited;
    clearTimeout(deadline);
    return cleanExits;
  };

  let stopped: Promise<boolean> | undefined;
  return { started, gaveUp, stop: () => (stopped ??= stopAll()) };
}
