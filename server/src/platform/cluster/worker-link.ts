import cluster from "node:cluster";
import { isReadinessMessage, type ReadyMessage } from "./messages.js";

/** A worker's line to the cluster primary (README, "Workers"). */
export interface WorkerLink {
  /** This worker's cluster id, for its log lines. */
  readonly id: number;
  /**
   * Why this server is not ready although it answers (the primary has not yet seen every worker
   * serve, or a crashed one is being replaced), or undefined when all of them serve.
   */
  notReady(): string | undefined;
  /** Tells the primary that this worker serves at `url`. */
  serving(url: string): void;
  /**
   * After a failed start: closes the channel to the primary (whose listeners, ours and
   * prom-client's, would keep the process alive), so the process exits once it has cleaned up,
   * with its exit code, which the primary reads.
   */
  leave(): void;
}

/** In a cluster worker, its link to the primary; elsewhere (one process, no cluster) undefined. */
export function joinCluster(): WorkerLink | undefined {
  const worker = cluster.worker;
  if (!cluster.isWorker || worker === undefined) return undefined;
  let ready = 0;
  let of = 0;
  const onMessage = (message: unknown) => {
    if (!isReadinessMessage(message)) return;
    ready = message.ready;
    of = message.of;
  };
  process.on("message", onMessage);
  return {
    id: worker.id,
    notReady: () =>
      of > 0 && ready >= of
        ? undefined
        : `Not every server process serves yet (${of === 0 ? "waiting for the first count" : `${ready} of ${of}`}).`,
    serving: (url) => {
      const message: ReadyMessage = { pressroom: "ready", url };
      process.send?.(message);
    },
    leave: () => {
      process.off("message", onMessage);
      if (worker.isConnected()) worker.disconnect();
    },
  };
}
