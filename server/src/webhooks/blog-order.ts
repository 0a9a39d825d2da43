import type { Collections, WebhookDeliveryDoc } from "../platform/db/collections.js";

/** Pending deliveries of one blog to one endpoint read at most, to find the earliest. */
const GATE_READ = 1000;
/**
 * How long past its predecessor's next attempt (one waiting for a retry) a held-back delivery is
 * next looked at, if nothing wakes it sooner (its predecessor's settling does: `wakeNext`).
 */
export const HOLD_MARGIN_MS = 60_000;
/**
 * How long a delivery held back by one being sent right now waits, if nothing wakes it sooner:
 * short, because the predecessor may settle between this check and the hold (its wake then
 * finds nothing to wake yet).
 */
export const HOLD_IN_FLIGHT_MS = 2000;

/** What the order of a blog's deliveries is decided by (and a held-back one is moved by). */
export type OrderedDelivery = Pick<
  WebhookDeliveryDoc,
  "_id" | "seq" | "redeliveryOf" | "nextAttemptAt"
>;

/**
 * Per-blog order of an endpoint's deliveries (README, "Webhooks"): a blog's event waits while an
 * earlier one of the same blog is still pending for the endpoint. Test events and redeliveries
 * (`redeliveryOf`) neither wait nor hold anything back.
 */
export interface BlogOrder {
  /**
   * The earliest pending delivery of the blog before `d`; null when `d` may go. `seen` holds
   * one poll's answers: the blog's earliest pending delivery, read once per poll and blog.
   */
  heldBy(
    d: WebhookDeliveryDoc,
    seen: Map<string, OrderedDelivery | null>,
  ): Promise<OrderedDelivery | null>;
  /**
   * Moves `d` out of the due range: until `earlier`'s next attempt plus a margin when that one
   * waits for a retry, or for a moment when it is being sent now.
   */
  holdBack(d: WebhookDeliveryDoc, earlier: OrderedDelivery): Promise<void>;
  /** `d` settled: the blog's next pending delivery to the endpoint is due now. */
  wakeNext(d: WebhookDeliveryDoc): Promise<void>;
}

/**
 * A held-back delivery is moved out of the due range (to its predecessor's next attempt, plus a
 * margin) instead of staying at its head, where held-back deliveries of one busy blog would fill
 * every poll's pages and starve every other endpoint; the predecessor, once settled, makes its
 * successor due at once.
 *
 * The queries name only string fields (index `blog_order`'s prefix: the embedded database
 * answers a comparison of numbers such as `seq` by reading the whole collection) and read the
 * blog's few pending deliveries; their numbers are compared here.
 */
export function blogOrder(
  { webhookDeliveries }: Pick<Collections, "webhookDeliveries">,
  now: () => number,
): BlogOrder {
  const pendingOfBlog = (d: Pick<WebhookDeliveryDoc, "endpointId" | "blogId">) =>
    webhookDeliveries
      .find<OrderedDelivery>(
        { endpointId: d.endpointId, blogId: d.blogId, state: "pending" },
        { projection: { _id: 1, seq: 1, redeliveryOf: 1, nextAttemptAt: 1 } },
      )
      .limit(GATE_READ)
      .toArray();
  const ordered = (d: Pick<WebhookDeliveryDoc, "blogId" | "redeliveryOf">) =>
    d.blogId !== null && d.redeliveryOf === null;

  return {
    async heldBy(
      d: WebhookDeliveryDoc,
      seen: Map<string, OrderedDelivery | null>,
    ): Promise<OrderedDelivery | null> {
      if (!ordered(d)) return null;
      const key = `${d.endpointId}/${d.blogId}`;
      let first = seen.get(key);
      if (first === undefined) {
        first = (await pendingOfBlog(d))
          .filter((p) => p.redeliveryOf === null)
          .reduce<OrderedDelivery | null>((a, p) => (a === null || p.seq < a.seq ? p : a), null);
        seen.set(key, first);
      }
      return first !== null && first.seq < d.seq ? first : null;
    },

    async holdBack(d: WebhookDeliveryDoc, earlier: OrderedDelivery): Promise<void> {
      const at = now();
      const retryAt = earlier.nextAttemptAt?.getTime() ?? at;
      const until = retryAt > at ? retryAt + HOLD_MARGIN_MS : at + HOLD_IN_FLIGHT_MS;
      // Only if unchanged since read: a wake in between stands.
      await webhookDeliveries.updateOne(
        { _id: d._id, state: "pending", nextAttemptAt: d.nextAttemptAt },
        { $set: { nextAttemptAt: new Date(until) } },
      );
    },

    async wakeNext(d: WebhookDeliveryDoc): Promise<void> {
      if (!ordered(d)) return;
      const later = (await pendingOfBlog(d)).filter(
        (p) => p.redeliveryOf === null && p.seq > d.seq,
      );
      const next = later.reduce<OrderedDelivery | null>(
        (a, p) => (a === null || p.seq < a.seq ? p : a),
        null,
      );
      const at = now();
      if (next === null || next.nextAttemptAt === null || next.nextAttemptAt.getTime() <= at) {
        return;
      }
      await webhookDeliveries.updateOne(
        { _id: next._id, state: "pending", nextAttemptAt: next.nextAttemptAt },
        { $set: { nextAttemptAt: new Date(at) } },
      );
    },
  };
}
