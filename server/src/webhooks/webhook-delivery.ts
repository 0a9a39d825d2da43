import type { BlogsStore } from "../blogs/blogs-store.js";
import type { Collections } from "../platform/db/collections.js";
import type { Logger } from "../platform/logger.js";
import { type DeliveryWorker, deliveryWorker } from "./delivery-worker.js";
import type { UrlPolicy } from "./endpoint-url.js";
import type { EndpointsStore } from "./endpoints-store.js";
import { type OutboxRelay, outboxRelay } from "./outbox-relay.js";
import { RETRY_DELAYS_MS, retrySchedule } from "./retry-schedule.js";
import { type Send, safeSender } from "./safe-send.js";

/** Tests only (app.ts `testHooks`): never set in production. */
export interface WebhookTestHooks {
  /** Waits between attempts (one per retry) instead of `RETRY_DELAYS_MS`. */
  readonly webhookRetryDelaysMs?: readonly number[];
  /** Sends deliveries instead of `safeSender` (a test of what the worker does with answers). */
  readonly webhookSend?: Send;
}

export interface WebhookDeliveryDeps extends WebhookTestHooks {
  readonly collections: Collections;
  readonly blogs: Pick<BlogsStore, "clearWebhookOutboxes">;
  readonly endpoints: EndpointsStore;
  readonly timeoutMs: number;
  /** WEBHOOK_CONNECT_TIMEOUT_MS and WEBHOOK_WORKSPACE_IN_FLIGHT (platform/config.ts `webhookLimits`). */
  readonly connectTimeoutMs?: number;
  readonly workspaceInFlight?: number;
  readonly urlPolicy: UrlPolicy;
  readonly now: () => number;
  readonly log: Logger;
  /** Told of each attempt recorded: delivered (2xx) or failed (metrics). */
  readonly onAttempt?: (delivered: boolean) => void;
}

/**
 * An instance's webhook delivery (WEBHOOK_DELIVERY on): the outbox relay, nudged after each
 * local blog write that queued an event and sweeping every second, and the delivery worker,
 * nudged after each relay round that made deliveries.
 */
export interface WebhookDelivery {
  readonly relay: OutboxRelay;
  readonly worker: DeliveryWorker;
  /** Stops the relay, then the worker (after its attempts in flight). */
  close(): Promise<void>;
}

export function startWebhookDelivery(deps: WebhookDeliveryDeps): WebhookDelivery {
  const worker = deliveryWorker({
    collections: deps.collections,
    endpoints: deps.endpoints,
    send: deps.webhookSend ?? safeSender(deps.urlPolicy),
    timeoutMs: deps.timeoutMs,
    ...(deps.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: deps.connectTimeoutMs }),
    ...(deps.workspaceInFlight === undefined ? {} : { workspaceInFlight: deps.workspaceInFlight }),
    schedule: retrySchedule(deps.webhookRetryDelaysMs ?? RETRY_DELAYS_MS),
    now: deps.now,
    log: deps.log,
    onAttempt: deps.onAttempt,
  });
  const relay = outboxRelay({
    collections: deps.collections,
    endpoints: deps.endpoints,
    clearWebhookOutboxes: deps.blogs.clearWebhookOutboxes,
    now: deps.now,
    log: deps.log,
    onRelayed: worker.nudge,
  });
  return {
    relay,
    worker,
    async close(): Promise<void> {
      await relay.close();
      await worker.close();
    },
  };
}
