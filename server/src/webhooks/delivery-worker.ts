import type {
  Collections,
  WebhookAttemptDoc,
  WebhookDeliveryDoc,
} from "../platform/db/collections.js";
import { randomBase62 } from "../platform/ids.js";
import type { Logger } from "../platform/logger.js";
import { startTimerLoop } from "../platform/timers/timer-loop.js";
import { attemptClaims } from "./attempt-claims.js";
import { blogOrder, type OrderedDelivery } from "./blog-order.js";
import { endpointHealth } from "./endpoint-health.js";
import type { EndpointsStore } from "./endpoints-store.js";
import { FairShare, shareOf } from "./fair-share.js";
import type { RetrySchedule } from "./retry-schedule.js";
import type { Send, SendOutcome } from "./safe-send.js";
import { notSent, signedSender } from "./signed-send.js";

/** How often an instance looks for due deliveries (besides being nudged). */
export const POLL_MS = 500;
/** Due deliveries read per query, and pages read per poll at most. */
const BATCH = 50;
const MAX_PAGES = 10;
/** Attempts in flight per instance, and per endpoint within an instance. */
export const MAX_IN_FLIGHT = 16;
export const MAX_IN_FLIGHT_PER_ENDPOINT = 4;
/** Attempts in flight per workspace within an instance, unless WEBHOOK_WORKSPACE_IN_FLIGHT says. */
export const DEFAULT_WORKSPACE_IN_FLIGHT = 4;

export interface WorkerDeps {
  readonly collections: Pick<
    Collections,
    "webhookDeliveries" | "webhookAttempts" | "webhookEvents" | "webhookEndpoints" | "webhookHealth"
  >;
  readonly endpoints: Pick<EndpointsStore, "signingKeys" | "disable">;
  /** webhooks/safe-send.ts `safeSender(policy)`; tests may pass their own. */
  readonly send: Send;
  /** WEBHOOK_TIMEOUT_MS. */
  readonly timeoutMs: number;
  /** WEBHOOK_CONNECT_TIMEOUT_MS: resolving and connecting, within `timeoutMs`. */
  readonly connectTimeoutMs?: number;
  /** WEBHOOK_WORKSPACE_IN_FLIGHT: a workspace's share of this instance's attempts. */
  readonly workspaceInFlight?: number;
  readonly schedule: RetrySchedule;
  /** The clock of due times, leases and endpoint health (epoch ms); tests move it forward. */
  readonly now: () => number;
  readonly log: Logger;
  /** Told of each attempt recorded: delivered (2xx) or failed (metrics). */
  readonly onAttempt?: (delivered: boolean) => void;
}

type Due = { readonly at: Date; readonly id: string };

/**
 * Sends due deliveries (README, "Webhooks"): per endpoint, the events of one blog in order (test
 * events and redeliveries wait for nothing), each workspace within its share of the instance's
 * attempts, and no attempt twice, however many instances send.
 */
export interface DeliveryWorker {
  /** This instance's id in the attempts it takes (attempt-claims.ts). */
  readonly instanceId: string;
  /** Polls soon (now, or once more after the poll under way): deliveries were made due. */
  nudge(): void;
  /** Polls now; resolves when the poll (not the attempts it started) is done. */
  pollNow(): Promise<void>;
  /** Stops polling and waits for the attempts in flight (each bounded by the timeout). */
  close(): Promise<void>;
}

/**
 * Polls every `POLL_MS` and when nudged (after a relay, after each finished attempt). A delivery
 * waits while an earlier event of its blog is still pending for the endpoint (blog-order.ts).
 * Each workspace has a share of the pool and due deliveries are started round-robin across
 * workspaces (fair-share.ts). Each attempt is taken by insert (attempt-claims.ts), so several
 * instances never send one attempt twice.
 */
export function deliveryWorker(deps: WorkerDeps): DeliveryWorker {
  const c = deps.collections;
  const instanceId = randomBase62(12);
  const claims = attemptClaims(c, {
    instanceId,
    timeoutMs: deps.timeoutMs,
    maxAttempts: deps.schedule.maxAttempts,
    now: deps.now,
  });
  const health = endpointHealth(c, deps.endpoints, deps.now);
  const order = blogOrder(c, deps.now);
  const sendSigned = signedSender(deps.endpoints, deps.send, {
    timeoutMs: deps.timeoutMs,
    connectTimeoutMs: Math.min(deps.connectTimeoutMs ?? deps.timeoutMs, deps.timeoutMs),
  });
  /** Delivery id → [workspace, endpoint], of the attempts this instance has in flight. */
  const inFlight = new Map<string, readonly [string, string]>();
  const running = new Set<Promise<void>>();
  const share = new FairShare(
    {
      total: MAX_IN_FLIGHT,
      perEndpoint: MAX_IN_FLIGHT_PER_ENDPOINT,
      perWorkspace: deps.workspaceInFlight ?? DEFAULT_WORKSPACE_IN_FLIGHT,
    },
    inFlight,
  );

  const settleOn = async (
    d: WebhookDeliveryDoc,
    number: number,
    ok: boolean,
    settled: Partial<WebhookDeliveryDoc> = {},
  ): Promise<void> => {
    const now = deps.now();
    const delay = ok ? null : deps.schedule.delayAfter(number);
    const next: Partial<WebhookDeliveryDoc> =
      ok || delay === null
        ? { state: ok ? "delivered" : "failed", settledAt: new Date(now), nextAttemptAt: null }
        : { nextAttemptAt: new Date(now + delay) };
    await c.webhookDeliveries.updateOne(
      { _id: d._id, state: "pending" },
      { $set: { ...next, ...settled, attempts: number } },
    );
    if (next.state !== undefined) await order.wakeNext(d);
  };

  const attempt = async (d: WebhookDeliveryDoc): Promise<void> => {
    const endpoint = await c.webhookEndpoints.findOne({ _id: d.endpointId });
    if (endpoint === null) {
      // The endpoint was deleted: its deliveries go with it.
      await c.webhookDeliveries.deleteOne({ _id: d._id });
      return;
    }
    const event = await c.webhookEvents.findOne({ _id: d.eventId });
    if (!endpoint.enabled || event === null) {
      await c.webhookDeliveries.updateOne(
        { _id: d._id, state: "pending" },
        { $set: { state: "skipped", settledAt: new Date(deps.now()), nextAttemptAt: null } },
      );
      await order.wakeNext(d);
      return;
    }
    const claim = await claims.claim(d);
    if (claim.kind === "busy") return;
    if (claim.kind === "exhausted") return settleOn(d, claim.attempts, false);
    if (claim.kind === "unsettled") return settleFrom(d, claim.attempt);
    let outcome: SendOutcome;
    try {
      outcome = await sendSigned(endpoint, event);
    } catch (err) {
      // A fault of ours (the database, the sealing key…): the attempt is recorded as failed, and
      // retried on schedule, rather than left to look like an instance that stopped.
      deps.log.warn({ err, deliveryId: d._id }, "webhook attempt failed before sending");
      outcome = notSent("not sent: an internal error of the server (see its log); retried");
    }
    if (!(await claims.finish(claim.attempt, outcome))) {
      deps.log.warn({ deliveryId: d._id }, "webhook attempt outlived its lease; not recorded");
      return;
    }
    deps.onAttempt?.(outcome.ok);
    await settleOn(d, claim.attempt.number, outcome.ok);
    if (outcome.ok) await health.succeeded(endpoint._id);
    else if (await health.failed(endpoint._id, outcome)) {
      deps.log.warn(
        { endpointId: endpoint._id },
        "webhook endpoint disabled after a day of failures",
      );
    }
  };

  /** An attempt its instance finished but never settled the delivery of (it stopped between). */
  const settleFrom = (d: WebhookDeliveryDoc, a: WebhookAttemptDoc): Promise<void> => {
    const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
    return settleOn(d, a.number, ok);
  };

  const start = (d: WebhookDeliveryDoc): void => {
    inFlight.set(d._id, [shareOf(d), d.endpointId]);
    const run = attempt(d)
      .catch((err: unknown) => {
        deps.log.warn({ err, deliveryId: d._id }, "webhook delivery attempt failed; will retry");
      })
      .finally(() => {
        inFlight.delete(d._id);
        running.delete(run);
        loop.nudge();
      });
    running.add(run);
  };

  const poll = async (): Promise<void> => {
    if (inFlight.size >= MAX_IN_FLIGHT) return; // polled again when an attempt ends
    const now = new Date(deps.now());
    let after: Due | null = null;
    share.reset();
    const seen = new Map<string, OrderedDelivery | null>();
    for (let page = 0; page < MAX_PAGES && !share.full; page++) {
      // Workspaces and endpoints at their share already: their due deliveries would only fill
      // the pages and hold back everyone else's.
      const { workspaces, endpoints } = share.saturated();
      const notBusy = {
        ...(workspaces.length === 0 ? {} : { workspaceId: { $nin: workspaces } }),
        ...(endpoints.length === 0 ? {} : { endpointId: { $nin: endpoints } }),
      };
      const due: WebhookDeliveryDoc[] = await c.webhookDeliveries
        .find(
          after === null
            ? { state: "pending", nextAttemptAt: { $lte: now }, ...notBusy }
            : {
                state: "pending",
                ...notBusy,
                $or: [
                  { nextAttemptAt: { $gt: after.at, $lte: now } },
                  { nextAttemptAt: after.at, _id: { $gt: after.id } },
                ],
              },
        )
        .sort({ state: 1, nextAttemptAt: 1, _id: 1 })
        .limit(BATCH)
        .toArray();
      for (const d of due) {
        if (share.full) break;
        if (!share.fits(d)) continue;
        const earlier = await order.heldBy(d, seen);
        if (earlier === null) share.add(d);
        else await order.holdBack(d, earlier);
      }
      const last = due.at(-1);
      if (due.length < BATCH || last === undefined || last.nextAttemptAt === null) break;
      after = { at: last.nextAttemptAt, id: last._id };
    }
    for (const d of share.choose()) start(d);
  };

  const loop = startTimerLoop(
    async () => {
      try {
        await poll();
      } catch (err) {
        deps.log.warn({ err }, "polling webhook deliveries failed; will retry");
      }
    },
    { intervalMs: POLL_MS },
  );

  return {
    instanceId,
    nudge: loop.nudge,
    pollNow: loop.runNow,
    async close(): Promise<void> {
      await loop.close();
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
