import type { BlogDoc, Collections } from "../platform/db/collections.js";
import type { Logger } from "../platform/logger.js";
import { startTimerLoop, type TimerLoop } from "../platform/timers/timer-loop.js";
import type { EndpointsStore, Subscriptions } from "./endpoints-store.js";
import { deliveryDocOf, eventDocOf, insertAllOnce } from "./outbox-documents.js";

/** How often every instance looks for outboxes left by other instances, the CLI, or a crash. */
export const RELAY_SWEEP_MS = 1000;
/** Blogs with waiting events read per query. */
const BATCH = 100;
/**
 * Blogs written by this process that the relay holds to send first, at most: beyond it (the
 * relay stuck on a database that fails) a write's blog is left to the sweep, which finds it too.
 */
const NAMED_MAX = 10_000;
const PENDING_FIELDS = { _id: 1, workspaceId: 1, updatedAt: 1, revision: 1, webhookOutbox: 1 };

type PendingBlog = Pick<
  BlogDoc,
  "_id" | "workspaceId" | "updatedAt" | "revision" | "webhookOutbox"
>;

export interface RelayDeps {
  readonly collections: Pick<Collections, "blogs" | "webhookEvents" | "webhookDeliveries">;
  readonly endpoints: Pick<EndpointsStore, "subscriptions">;
  /** blog-writes.ts `clearWebhookOutboxes`: a compare-and-set on each version read. */
  readonly clearWebhookOutboxes: (
    workspaceId: string,
    versions: readonly Pick<BlogDoc, "_id" | "updatedAt" | "revision">[],
  ) => Promise<number>;
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
  /**
   * A blog write of this process queued an event: relay it now, before the rest of a round
   * already under way (another workspace's import may have left thousands).
   */
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
 *
 * A page of up to `BATCH` blogs is relayed in a few commands whatever its size (an import
 * leaves one event in each of thousands of blogs): one insert of all its events, one read of
 * each workspace's endpoints, one insert of the deliveries of every blog's first event, then of
 * every blog's second event and so on (a blog's event n has its deliveries stored before n+1's,
 * which per-blog order needs), and one compare-and-set per blog, a hundred per update.
 *
 * The sweep goes through every waiting blog in `_id` order, whichever workspace it belongs to,
 * so after an import of 45,000 blogs a round takes minutes. A write of this process names its
 * blog (`wrote`), and the relay sends the blogs so named before the sweep's next page: one
 * workspace's backlog does not hold up another's writes for longer than a page. Writes of
 * other instances are named to their own relays; those of the CLI are found by the sweep.
 */
export function outboxRelay(deps: RelayDeps): OutboxRelay {
  const { blogs, webhookEvents, webhookDeliveries } = deps.collections;

  const relayPage = async (page: readonly PendingBlog[]): Promise<number> => {
    const outboxes = page.map((blog) => ({
      blog,
      events: [...(blog.webhookOutbox ?? [])].sort((a, b) => a.seq - b.seq),
    }));
    const eventDocs = outboxes.flatMap(({ blog, events }) =>
      events.map((event) => eventDocOf(blog, event)),
    );
    await insertAllOnce(eventDocs.length, (options) =>
      webhookEvents.insertMany(eventDocs, options),
    );
    const subscriptions = new Map<string, Subscriptions>();
    for (const { blog } of outboxes) {
      if (!subscriptions.has(blog.workspaceId)) {
        subscriptions.set(blog.workspaceId, await deps.endpoints.subscriptions(blog.workspaceId));
      }
    }
    const createdAt = new Date(deps.now());
    let made = 0;
    const rounds = Math.max(0, ...outboxes.map(({ events }) => events.length));
    for (let n = 0; n < rounds; n++) {
      const deliveries = outboxes.flatMap(({ blog, events }) => {
        const event = events[n];
        if (event === undefined) return [];
        const subscribers = subscriptions.get(blog.workspaceId)?.(event.type, event.at) ?? [];
        return subscribers.map((endpoint) => deliveryDocOf(blog, event, endpoint._id, createdAt));
      });
      made += await insertAllOnce(deliveries.length, (options) =>
        webhookDeliveries.insertMany(deliveries, options),
      );
    }
    // A write since the page's read keeps its events (and these) for the next round.
    const byWorkspace = new Map<string, PendingBlog[]>();
    for (const blog of page) {
      const ofWorkspace = byWorkspace.get(blog.workspaceId);
      if (ofWorkspace === undefined) byWorkspace.set(blog.workspaceId, [blog]);
      else ofWorkspace.push(blog);
    }
    for (const [workspaceId, versions] of byWorkspace) {
      await deps.clearWebhookOutboxes(workspaceId, versions);
    }
    return made;
  };

  /** Blogs this process wrote since the relay last sent them, in the order written. */
  const named = new Set<string>();

  /** The blogs `wrote` named, a page at a time, until none is left. */
  const relayNamed = async (): Promise<number> => {
    let made = 0;
    while (named.size > 0) {
      const ids = [...named].slice(0, BATCH);
      for (const id of ids) named.delete(id);
      // By `_id` alone, each an index search; a filter naming `webhookPending` too is searched
      // in that index, through every waiting blog (server/embedded-db/README.md, "Plans").
      const read = await blogs
        .find<PendingBlog & Pick<BlogDoc, "webhookPending">>(
          { _id: { $in: ids } },
          { projection: { ...PENDING_FIELDS, webhookPending: 1 } },
        )
        .toArray();
      made += await relayPage(read.filter((blog) => blog.webhookPending === true));
    }
    return made;
  };

  const relayOnce = async (): Promise<number> => {
    let made = 0;
    let afterId = "";
    for (;;) {
      made += await relayNamed();
      const page = await blogs
        .find<PendingBlog>(
          { webhookPending: true, _id: { $gt: afterId } },
          { projection: PENDING_FIELDS },
        )
        .sort({ webhookPending: 1, _id: 1 })
        .limit(BATCH)
        .toArray();
      made += await relayPage(page);
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
    wrote(blogId: string): void {
      if (named.size < NAMED_MAX) named.add(blogId);
      loop.nudge();
    },
  };
}
