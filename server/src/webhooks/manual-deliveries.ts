import type {
  Collections,
  WebhookDeliveryDoc,
  WebhookEndpointDoc,
  WebhookEventDoc,
} from "../db/collections.js";
import { conflict, notFound } from "../domain-error.js";
import { newId } from "../ids.js";

export const DISABLED_MESSAGE = "This endpoint is disabled; enable it first.";
const DELIVERY_NOT_FOUND = "Webhook delivery not found.";

export interface ManualDeliveryDeps {
  readonly collections: Pick<Collections, "webhookEvents" | "webhookDeliveries">;
  /** The endpoint of the path, in its workspace (404 otherwise): the endpoints store's `get`. */
  readonly endpointOf: (workspaceId: string, endpointId: string) => Promise<WebhookEndpointDoc>;
  /** Tells the delivery worker a delivery is due now; by default nothing (it polls). */
  readonly nudge?: () => void;
  readonly now?: () => number;
}

/**
 * What an owner queues by hand: a test event, or a delivery's event again. Each is a pending
 * delivery document, inserted with a new unique `_id` (exact across instances, no update); the
 * delivery worker sends it like any other.
 */
export function manualDeliveries({
  collections: { webhookEvents, webhookDeliveries },
  endpointOf,
  nudge = () => {},
  now = Date.now,
}: ManualDeliveryDeps) {
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
    /** A `webhook.test` event for this endpoint only, and its pending delivery (409 when off). */
    async sendTest(workspaceId: string, endpointId: string): Promise<WebhookDeliveryDoc> {
      const endpoint = await enabledEndpoint(workspaceId, endpointId);
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
        createdAt: at,
        settledAt: null,
      });
    },

    /**
     * A new delivery of the same event (same `webhook-id`) to the same endpoint; 404 when the
     * delivery is not this endpoint's, 409 when the endpoint is off.
     */
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
        createdAt: at,
        settledAt: null,
      });
    },
  };
}

export type ManualDeliveries = ReturnType<typeof manualDeliveries>;
