import { keysetCursor, readTime } from "../platform/cursor.js";
import type {
  Collections,
  WebhookAttemptDoc,
  WebhookDeliveryDoc,
} from "../platform/db/collections.js";

/** A delivery-log page's cursor: its last delivery's `createdAt` and id. */
export const deliveryCursor = keysetCursor({
  value: readTime,
  idPattern: /^dlv_[A-Za-z0-9]{1,60}$/,
});

/** The spec's cap on attempts shown per delivery (`WebhookDelivery.attempts` maxItems). */
const MAX_ATTEMPTS_SHOWN = 20;

export interface DeliveryLogEntry {
  readonly delivery: WebhookDeliveryDoc;
  /** Newest first. */
  readonly attempts: WebhookAttemptDoc[];
}

export interface DeliveryLogPage {
  readonly entries: DeliveryLogEntry[];
  readonly nextCursor: string | null;
}

/** Each webhook endpoint's delivery log, as the dashboard reads it. */
export interface DeliveryLog {
  /** Newest first; `cursor` is a page's `nextCursor`. */
  page(endpointId: string, limit: number, cursor?: string): Promise<DeliveryLogPage>;
  /** One delivery of the endpoint with its attempts; null when it is not this endpoint's. */
  one(endpointId: string, deliveryId: string): Promise<DeliveryLogEntry | null>;
}

/**
 * An endpoint's delivery log, newest first: a page is one range of the index
 * `{endpointId, createdAt desc, _id desc}` (keyset, no skip), and the page's attempts one query
 * of `_id` ranges (`${deliveryId}#NN`, sorting as their numbers do).
 */
export function deliveryLog({
  webhookDeliveries,
  webhookAttempts,
}: Pick<Collections, "webhookDeliveries" | "webhookAttempts">): DeliveryLog {
  const attemptsOf = async (
    deliveries: readonly WebhookDeliveryDoc[],
  ): Promise<Map<string, WebhookAttemptDoc[]>> => {
    const byDelivery = new Map<string, WebhookAttemptDoc[]>(deliveries.map((d) => [d._id, []]));
    if (deliveries.length === 0) return byDelivery;
    // By index `delivery_attempts` (the page's attempts only); newest first, sorted here.
    const docs = await webhookAttempts
      .find({ deliveryId: { $in: deliveries.map((d) => d._id) } })
      .toArray();
    docs.sort((a, b) => b.number - a.number);
    for (const doc of docs) {
      const list = byDelivery.get(doc.deliveryId);
      if (list !== undefined && list.length < MAX_ATTEMPTS_SHOWN) list.push(doc);
    }
    return byDelivery;
  };

  return {
    async page(endpointId: string, limit: number, cursor?: string): Promise<DeliveryLogPage> {
      const after = cursor === undefined ? null : deliveryCursor.decode(cursor);
      const filter =
        after === null
          ? { endpointId }
          : {
              endpointId,
              $or: [
                { createdAt: { $lt: after.value } },
                { createdAt: after.value, _id: { $lt: after.id } },
              ],
            };
      const docs = await webhookDeliveries
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .limit(limit + 1)
        .toArray();
      const deliveries = docs.slice(0, limit);
      const attempts = await attemptsOf(deliveries);
      const last = deliveries.at(-1);
      return {
        entries: deliveries.map((delivery) => ({
          delivery,
          attempts: attempts.get(delivery._id) ?? [],
        })),
        nextCursor:
          docs.length > limit && last !== undefined
            ? deliveryCursor.encode({ value: last.createdAt, id: last._id })
            : null,
      };
    },

    async one(endpointId: string, deliveryId: string): Promise<DeliveryLogEntry | null> {
      const delivery = await webhookDeliveries.findOne({ _id: deliveryId });
      if (delivery === null || delivery.endpointId !== endpointId) return null;
      const attempts = await attemptsOf([delivery]);
      return { delivery, attempts: attempts.get(deliveryId) ?? [] };
    },
  };
}
