import { MongoBulkWriteError } from "mongodb";
import type {
  BlogDoc,
  Collections,
  OutboxEventDoc,
  WebhookDeliveryDoc,
  WebhookEventDoc,
} from "../platform/db/collections.js";
import { isDuplicateKey, isDuplicateWriteError } from "../platform/db/duplicate-key.js";
import type { Logger } from "../platform/logger.js";
import { startTimerLoop, type TimerLoop } from "../platform/timers/timer-loop.js";
import type { EndpointsStore } from "./endpoints-store.js";
import { deliveryIdOf } from "./signing.js";

/** How often every instance looks for outboxes left by other instances, the CLI, or a crash. */
export const RELAY_SWEEP_MS = 1000;
/** Blogs with waiting events read per query. */
const BATCH = 100;

type PendingBlog = Pick<
  BlogDoc,
  "_id" | "workspaceId" | "updatedAt" | "revision" | "webhookOutbox"
>;

export interface RelayDeps {
  readonly collections: Pick<Collections, "blogs" | "webhookEvents" | "webhookDeliveries">;
  readonly endpoints: Pick<EndpointsStore, "subscribers">;
  /** blog-writes.ts `clearWebhookOutbox`: a compare-and-set on the version read. */
  readonly clearWebhookOutbox: (
    workspaceId: string,
    version: Pick<BlogDoc, "_id" | "updatedAt" | "revision">,
  ) => Promise<boolean>;
  readonly now: () => number;
  readonly log: Logger;
  /** Told after a round that made deliveries (the delivery worker's nudge). */
  readonly onRelayed: () => void;
}

/**
 * Moves webhook events from blogs' outboxes into `webhookEvents` and one `webhookDeliveries`
 * document per subscribed endpoint (README, "Webhooks"), on a timer (every `RELAY_SWEEP_MS`) and
 * when nudged. An event written with its blog survives any crash, and makes each of its
 * deliveries once.
 */
export interface OutboxRelay extends TimerLoop {
  /** One round over every blog with waiting events; returns the deliveries it made. */
  relayOnce(): Promise<number>;
  /** A blog write of this process queued an event: relay it now. */
  wrote(blogId: string): void;
}

/**
 * How an event survives a crash between the blog write and its delivery: the event is written
 * in the blog's own document, in the same update as the change (blog-writes.ts,
 * blog-events.ts), so from that moment it is as durable as the change. The relay removes it
 * from the blog only after its event and deliveries are stored; those are inserted with fixed
 * ids (the event's own, `deliveryIdOf(event, endpoint)`), so a relay cut short by a crash and
 * run again, by this instance or another (every instance sweeps every `RELAY_SWEEP_MS`),
 * creates nothing twice. Emptying the outbox is a compare-and-set on the blog's revision: a
 * write in between keeps every event for the next round. That filter is atomic on MongoDB and on
 * the embedded database alike (server/embedded-db/README.md, "Single-document writes are
 * atomic"), so any instance relays and empties any blog's outbox, whoever wrote it.
 */
export function outboxRelay(deps: RelayDeps): OutboxRelay {
  const { blogs, webhookEvents, webhookDeliveries } = deps.collections;

  const insertOnce = async <T>(insert: () => Promise<T>): Promise<boolean> => {
    try {
      await insert();
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  };

  const relayEvent = async (blog: PendingBlog, event: OutboxEventDoc): Promise<number> => {
    const doc: WebhookEventDoc = {
      _id: event.id,
      workspaceId: blog.workspaceId,
      type: event.type,
      occurredAt: event.at,
      blogId: blog._id,
      slug: event.slug,
      seq: event.seq,
      endpointId: null,
    };
    await insertOnce(() => webhookEvents.insertOne(doc));
    const createdAt = new Date(deps.now());
    const subscribers = await deps.endpoints.subscribers(blog.workspaceId, event.type, event.at);
    const deliveries = subscribers.map(
      (endpoint): WebhookDeliveryDoc => ({
        _id: deliveryIdOf(event.id, endpoint._id),
        eventId: event.id,
        endpointId: endpoint._id,
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
      }),
    );
    if (deliveries.length === 0) return 0;
    // One command for all, each insert on its own (unordered): those made by an earlier,
    // interrupted relay are refused as duplicates and the rest go in. Awaited before the next
    // event: per-blog order needs event n's deliveries stored before n+1's.
    try {
      return (await webhookDeliveries.insertMany(deliveries, { ordered: false })).insertedCount;
    } catch (err) {
      if (
        err instanceof MongoBulkWriteError &&
        [err.writeErrors].flat().every(isDuplicateWriteError)
      ) {
        return err.insertedCount;
      }
      throw err;
    }
  };

  const relayOnce = async (): Promise<number> => {
    let made = 0;
    let afterId = "";
    for (;;) {
      const page = await blogs
        .find<PendingBlog>(
          { webhookPending: true, _id: { $gt: afterId } },
          { projection: { _id: 1, workspaceId: 1, updatedAt: 1, revision: 1, webhookOutbox: 1 } },
        )
        .sort({ webhookPending: 1, _id: 1 })
        .limit(BATCH)
        .toArray();
      for (const blog of page) {
        const events = [...(blog.webhookOutbox ?? [])].sort((a, b) => a.seq - b.seq);
        for (const event of events) made += await relayEvent(blog, event);
        // A write since this read keeps its events (and these) for the next round.
        await deps.clearWebhookOutbox(blog.workspaceId, blog);
      }
      const last = page.at(-1);
      if (page.length < BATCH || last === undefined) break;
      afterId = last._id;
    }
    return made;
  };

  const loop = startTimerLoop(
    async () => {
      try {
        if ((await relayOnce()) > 0) deps.onRelayed();
      } catch (err) {
        deps.log.warn({ err }, "relaying webhook events failed; the next round retries");
      }
    },
    { intervalMs: RELAY_SWEEP_MS },
  );
  return {
    ...loop,
    relayOnce,
    wrote(): void {
      loop.nudge();
    },
  };
}
