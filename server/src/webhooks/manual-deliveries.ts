import type { LimitDecision } from "../limits/rate-limiter.js";
import type {
  Collections,
  WebhookDeliveryDoc,
  WebhookEndpointDoc,
  WebhookEventDoc,
} from "../platform/db/collections.js";
import { conflict, DomainError, notFound } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";

export const DISABLED_MESSAGE = "This endpoint is disabled; enable it first.";
const DELIVERY_NOT_FOUND = "Webhook delivery not found.";
/** Retry-After of the per-endpoint pending cap: its deliveries settle in seconds or in hours. */
const PENDING_RETRY_AFTER_SECONDS = 60;

/** The limits on what owners queue by hand (README, "Webhooks": fair share and limits). */
export interface ManualLimits {
  /** The server's rate limiter (limits/rate-limiter.ts): counts shared through the database. */
  readonly limiter: {
    check(keyId: string, limit: ManualRate): LimitDecision | Promise<LimitDecision>;
  };
  /** WEBHOOK_MANUAL_RATE_LIMIT: test events and redeliveries per workspace per window. */
  readonly rate: ManualRate;
  /** WEBHOOK_MANUAL_PENDING_MAX: those still waiting to be sent, per endpoint. */
  readonly pendingMax: number;
}
type ManualRate = { readonly requests: number; readonly windowSeconds: number };

export interface ManualDeliveryDeps {
  readonly collections: Pick<Collections, "webhookEvents" | "webhookDeliveries">;
  /** The endpoint of the path, in its workspace (404 otherwise): the endpoints store's `get`. */
  readonly endpointOf: (workspaceId: string, endpointId: string) => Promise<WebhookEndpointDoc>;
  /** Tells the delivery worker a delivery is due now; by default nothing (it polls). */
  readonly nudge?: () => void;
  readonly now?: () => number;
  /** Unset: no limits (tests of other rules only; the server always passes them). */
  readonly limits?: ManualLimits;
}

/**
 * What an owner queues by hand: a test event, or a delivery's event again, within the limits
 * given (`ManualLimits`: "throttled" over them). The delivery worker sends them like any other.
 */
export interface ManualDeliveries {
  /** A `webhook.test` event for this endpoint only, and its pending delivery (409 when off). */
  sendTest(workspaceId: string, endpointId: string): Promise<WebhookDeliveryDoc>;
  /**
   * A new delivery of the same event (same `webhook-id`) to the same endpoint; 404 when the
   * delivery is not this endpoint's, 409 when the endpoint is off.
   */
  redeliver(
    workspaceId: string,
    endpointId: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryDoc>;
}

/**
 * Each is a pending delivery document, inserted with a new unique `_id` (exact across instances,
 * no update).
 */
export function manualDeliveries({
  collections: { webhookEvents, webhookDeliveries },
  endpointOf,
  nudge = () => {},
  now = Date.now,
  limits,
}: ManualDeliveryDeps): ManualDeliveries {
  /**
   * Refuses (429) a test event or redelivery over the workspace's rate or the endpoint's cap on
   * pending ones. The rate is counted first (a refused attempt counts, as for API keys); the
   * cap is a count of the endpoint's pending manual deliveries (index `pending_manual`): two
   * requests at once may both pass it, which bounds the excess by the rate limit.
   */
  const admit = async (endpoint: WebhookEndpointDoc): Promise<void> => {
    if (limits === undefined) return;
    const { requests, windowSeconds } = limits.rate;
    const decision = await limits.limiter.check(
      `webhook-manual:${endpoint.workspaceId}`,
      limits.rate,
    );
    if (!decision.allowed) {
      throw new DomainError(
        "throttled",
        `Too many test events and redeliveries in this workspace: at most ${requests} per ${windowSeconds} seconds. Try again in ${decision.resetSeconds} seconds.`,
        decision.resetSeconds,
      );
    }
    const pending = await webhookDeliveries.countDocuments(
      { endpointId: endpoint._id, manual: true, state: "pending" },
      { limit: limits.pendingMax },
    );
    if (pending >= limits.pendingMax) {
      throw new DomainError(
        "throttled",
        `This endpoint already has ${limits.pendingMax} test events and redeliveries waiting to be sent (the most it may have); wait until they are delivered or given up.`,
        PENDING_RETRY_AFTER_SECONDS,
      );
    }
  };

  const enabledEndpoint = async (workspaceId: string, endpointId: string) => {
    const endpoint = await endpointOf(workspaceId, endpointId);
    if (!endpoint.enabled) throw conflict(DISABLED_MESSAGE);
    return endpoint;
  };

  const queue = async (delivery: WebhookDeliveryDoc): Promise<WebhookDeliveryDoc> => {
    await webhookDeliveries.insertOne(delivery);
    nudge();
    return delivery;
  };

  return {
    async sendTest(workspaceId: string, endpointId: string): Promise<WebhookDeliveryDoc> {
      const endpoint = await enabledEndpoint(workspaceId, endpointId);
      await admit(endpoint);
      const at = new Date(now());
      const event: WebhookEventDoc = {
        _id: newId("evt"),
        workspaceId: endpoint.workspaceId,
        type: "webhook.test",
        occurredAt: at,
        blogId: null,
        slug: null,
        seq: 0,
        endpointId: endpoint._id,
      };
      await webhookEvents.insertOne(event);
      return queue({
        _id: newId("dlv"),
        eventId: event._id,
        endpointId: endpoint._id,
        workspaceId: endpoint.workspaceId,
        eventType: "webhook.test",
        blogId: null,
        seq: 0,
        state: "pending",
        attempts: 0,
        nextAttemptAt: at,
        redeliveryOf: null,
        manual: true,
        createdAt: at,
        settledAt: null,
      });
    },

    async redeliver(
      workspaceId: string,
      endpointId: string,
      deliveryId: string,
    ): Promise<WebhookDeliveryDoc> {
      const endpoint = await endpointOf(workspaceId, endpointId);
      const old = await webhookDeliveries.findOne({ _id: deliveryId });
      if (old === null || old.endpointId !== endpoint._id) throw notFound(DELIVERY_NOT_FOUND);
      if (!endpoint.enabled) throw conflict(DISABLED_MESSAGE);
      // Kept days longer than the log's deliveries (retention.ts): gone only in a race with it.
      if ((await webhookEvents.countDocuments({ _id: old.eventId }, { limit: 1 })) === 0) {
        throw notFound("This delivery's event is no longer kept, so it cannot be sent again.");
      }
      await admit(endpoint);
      const at = new Date(now());
      return queue({
        _id: newId("dlv"),
        eventId: old.eventId,
        endpointId: endpoint._id,
        workspaceId: endpoint.workspaceId,
        eventType: old.eventType,
        blogId: old.blogId,
        seq: old.seq,
        state: "pending",
        attempts: 0,
        nextAttemptAt: at,
        redeliveryOf: old._id,
        manual: true,
        createdAt: at,
        settledAt: null,
      });
    },
  };
}
