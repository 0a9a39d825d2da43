import type { Collections } from "../platform/db/collections.js";
import { FIRST_SWEEP_DELAY_MS, SWEEP_INTERVAL_MS } from "../platform/db/ttl-sweeper.js";
import type { Logger } from "../platform/logger.js";
import { startTimerLoop, type TimerLoop } from "../platform/timers/timer-loop.js";

/** How long settled deliveries, their attempts and events are kept (the delivery log's reach). */
export const WEBHOOK_RETENTION_MS = 30 * 86_400_000;
/** Events are kept this much longer than settled deliveries (which settle ≤ ~25 h after it). */
export const EVENT_MARGIN_MS = 3 * 86_400_000;
const SETTLED = ["delivered", "failed", "skipped"] as const;
/** Deliveries deleted per query, so one sweep never holds a long list in memory. */
const BATCH = 500;

/**
 * Deletes deliveries settled (delivered, failed, skipped) before `cutoff`, with their attempts,
 * and events older than `cutoff` minus `EVENT_MARGIN_MS` (a delivery settles at most about a
 * day after its event, so every delivery in the log still has its event). Idempotent,
 * safe from every instance at once. Returns what it deleted.
 */
export async function purgeWebhookLog(
  {
    webhookDeliveries,
    webhookAttempts,
    webhookEvents,
  }: Pick<Collections, "webhookDeliveries" | "webhookAttempts" | "webhookEvents">,
  cutoff: Date,
): Promise<{ deliveries: number; attempts: number; events: number }> {
  let deliveries = 0;
  let attempts = 0;
  // One state at a time, in index order (`settled_deliveries` {state, settledAt, _id}): each batch
  // is an index range, never a sort of every delivery past the cutoff.
  for (const state of SETTLED) {
    for (;;) {
      const old = await webhookDeliveries
        .find({ state, settledAt: { $lt: cutoff } }, { projection: { _id: 1 } })
        .sort({ state: 1, settledAt: 1, _id: 1 })
        .limit(BATCH)
        .toArray();
      if (old.length === 0) break;
      const ids = old.map((d) => d._id);
      attempts += (await webhookAttempts.deleteMany({ deliveryId: { $in: ids } })).deletedCount;
      deliveries += (await webhookDeliveries.deleteMany({ _id: { $in: ids } })).deletedCount;
      if (old.length < BATCH) break;
    }
  }
  // Events outlive the deliveries settled last (a day or so after the event) by a margin, so a
  // delivery still in the log can always be redelivered.
  const eventCutoff = new Date(cutoff.getTime() - EVENT_MARGIN_MS);
  const events = (await webhookEvents.deleteMany({ occurredAt: { $lt: eventCutoff } }))
    .deletedCount;
  return { deliveries, attempts, events };
}

/** Runs `purgeWebhookLog` on the sessions sweeper's schedule (unref'd timer). */
export function startWebhookRetention(
  collections: Collections,
  log: Logger,
  now: () => number,
): TimerLoop {
  return startTimerLoop(
    () =>
      purgeWebhookLog(collections, new Date(now() - WEBHOOK_RETENTION_MS)).then(
        (purged) => {
          if (Object.values(purged).some((n) => n > 0)) {
            log.debug({ purged }, "old webhook deliveries and events deleted");
          }
        },
        (err: unknown) => {
          log.warn({ err }, "deleting old webhook deliveries failed; will retry");
        },
      ),
    { intervalMs: SWEEP_INTERVAL_MS, firstDelayMs: FIRST_SWEEP_DELAY_MS },
  );
}
