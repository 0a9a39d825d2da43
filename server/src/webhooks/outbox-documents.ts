import { MongoBulkWriteError } from "mongodb";
import type {
  BlogDoc,
  OutboxEventDoc,
  WebhookDeliveryDoc,
  WebhookEventDoc,
} from "../platform/db/collections.js";
import { isDuplicateWriteError } from "../platform/db/duplicate-key.js";
import { deliveryIdOf } from "./signing.js";

// What the outbox relay (outbox-relay.ts) stores for a blog's waiting events, and how it stores
// them once: fixed ids, so a relay cut short and run again creates nothing twice.

/** The `webhookEvents` document of an event of a blog's outbox (`_id` = the event's id). */
export function eventDocOf(
  blog: Pick<BlogDoc, "_id" | "workspaceId">,
  event: OutboxEventDoc,
): WebhookEventDoc {
  return {
    _id: event.id,
    workspaceId: blog.workspaceId,
    type: event.type,
    occurredAt: event.at,
    blogId: blog._id,
    slug: event.slug,
    seq: event.seq,
    endpointId: null,
  };
}

/** The pending `webhookDeliveries` document of an outbox event to one endpoint. */
export function deliveryDocOf(
  blog: Pick<BlogDoc, "_id" | "workspaceId">,
  event: OutboxEventDoc,
  endpointId: string,
  createdAt: Date,
): WebhookDeliveryDoc {
  return {
    _id: deliveryIdOf(event.id, endpointId),
    eventId: event.id,
    endpointId,
    workspaceId: blog.workspaceId,
    eventType: event.type,
    blogId: blog._id,
    seq: event.seq,
    state: "pending",
    attempts: 0,
    nextAttemptAt: createdAt,
    redeliveryOf: null,
    createdAt,
    settledAt: null,
  };
}

/**
 * Inserts `count` documents with fixed ids in one unordered command: those an earlier,
 * interrupted relay made are refused as duplicates and the rest go in. Returns how many went in.
 */
export async function insertAllOnce(
  count: number,
  insertMany: (options: { ordered: false }) => Promise<{ insertedCount: number }>,
): Promise<number> {
  if (count === 0) return 0;
  try {
    return (await insertMany({ ordered: false })).insertedCount;
  } catch (err) {
    if (
      err instanceof MongoBulkWriteError &&
      [err.writeErrors].flat().every(isDuplicateWriteError)
    ) {
      return err.insertedCount;
    }
    throw err;
  }
}
