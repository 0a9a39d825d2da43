// The outbox relay moves a page of blogs' events in a few commands, not a few per blog (README,
// "Webhooks": the outbox; server/src/webhooks/outbox-relay.ts): an import leaves one event in each
// of thousands of blogs, and relaying them one blog at a time kept the database busy for minutes
// after the import, slowing every consumer's reads meanwhile. Each event is still delivered once.
import type { Db } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Collections, collections } from "../../server/src/platform/db/collections.js";
import { createLogger } from "../../server/src/platform/logger.js";
import { createStores } from "../../server/src/stores.js";
import { deliveryDocOf, eventDocOf } from "../../server/src/webhooks/outbox-documents.js";
import {
  type OutboxRelay,
  outboxRelay,
  type RelayDeps,
} from "../../server/src/webhooks/outbox-relay.js";
import { importReleased } from "../support/import-released.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { type Receiver, startReceiver, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, endpointsOf } from "./support.js";

const BLOGS = 250;

let t: TestDb;
let c: Collections;
let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  t = await useTestDb();
  c = collections(t.db);
  server = await startTestServer(t.db, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" });
  receiver = await startReceiver();
}, 60_000);

afterAll(async () => {
  await receiver.close();
  await server.stop();
});

/** Commands sent since `from` to `collection`. */
const sent = (from: number, name: string, collection: string) =>
  t.commands.slice(from).filter((cmd) => cmd.name === name && cmd.collection === collection);

/** Whether an update command's first statement's filter holds `field: true`. */
const filtersOn = (cmd: TestDb["commands"][number], field: string): boolean => {
  const [first] = (cmd.command.updates ?? []) as { q?: Record<string, unknown> }[];
  return first?.q?.[field] === true;
};

const AT = new Date("2024-03-01T10:00:00Z");

/** `count` released blogs imported into `ws` (`prefix-000`, …), one second apart. */
const importBlogs = (db: Db, ws: string, prefix: string, count: number) =>
  importReleased(
    db,
    ws,
    Array.from({ length: count }, (_, i) => ({
      name: `${prefix}-${String(i).padStart(3, "0")}`,
      releasedAt: new Date(AT.getTime() + i * 1000),
    })),
  );

/**
 * Runs a relay of its own over `own`'s database through one round (no server relays that
 * database); `made` is told the relay before it runs. Returns the commands the round sent.
 */
async function relayRound(
  own: TestDb,
  deps: Pick<RelayDeps, "endpoints" | "clearWebhookOutboxes">,
  made: (relay: OutboxRelay) => void = () => {},
): Promise<TestDb["commands"]> {
  const relay = outboxRelay({
    collections: collections(own.db),
    ...deps,
    now: Date.now,
    log: createLogger("silent"),
    onRelayed: () => {},
  });
  made(relay);
  const from = own.commands.length;
  try {
    await relay.runNow();
  } finally {
    await relay.close();
  }
  return own.commands.slice(from);
}

describe("the outbox relay works a page of blogs at a time", () => {
  it(`an import of ${BLOGS} released blogs is relayed in a few inserts and clears per page of 100 blogs, not per blog, and each blog.released reaches the endpoint once`, async () => {
    const ws = (await createStores(t.db).workspaces.create("Imported site"))._id;
    await endpointsOf(t.db).create(ws, { url: receiver.url, events: ALL_EVENTS }, null);
    const from = t.commands.length;
    const created = await importBlogs(t.db, ws, "post", BLOGS);
    expect(created).toBe(BLOGS);

    await waitFor(
      "every outbox emptied",
      async () => (await c.blogs.countDocuments({ workspaceId: ws, webhookPending: true })) === 0,
      60_000,
    );
    await waitFor(`${BLOGS} deliveries`, () => receiver.unique().length >= BLOGS, 60_000);
    const events = receiver
      .unique()
      .map((d) => JSON.parse(d.body) as { type: string; data: { slug: string } });
    expect(events).toHaveLength(BLOGS);
    expect(new Set(events.map((e) => e.data.slug)).size).toBe(BLOGS);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(["blog.released"]));
    expect(await c.webhookEvents.countDocuments({ workspaceId: ws })).toBe(BLOGS);
    expect(await c.webhookDeliveries.countDocuments({ workspaceId: ws })).toBe(BLOGS);

    // Three pages (100, 100, 50), more if a sweep came while the import was writing: one insert
    // of events, one of deliveries and one clear each. One blog at a time made 250 of each.
    const eventInserts = sent(from, "insert", "webhookEvents");
    const deliveryInserts = sent(from, "insert", "webhookDeliveries");
    const clears = sent(from, "update", "blogs").filter((cmd) => filtersOn(cmd, "webhookPending"));
    const endpointReads = sent(from, "find", "webhookEndpoints");
    for (const commands of [eventInserts, deliveryInserts, clears]) {
      expect(commands.length).toBeGreaterThanOrEqual(3);
      expect(commands.length).toBeLessThanOrEqual(12);
    }
    // The endpoints are read once per page, not once per event (the delivery worker reads them
    // too, by `_id`, once per delivery at most).
    const relayEndpointReads = endpointReads.filter((cmd) =>
      JSON.stringify(cmd.command.filter).includes('"workspaceId"'),
    );
    expect(relayEndpointReads.length).toBeLessThanOrEqual(12);
  }, 120_000);
});

describe("a relay cut short and run again creates nothing twice", () => {
  it("events and deliveries an interrupted relay stored are refused as duplicates, the rest go in, each outbox is emptied, two pages of 150 blogs take two commands of each kind", async () => {
    // A database of its own, with no server relaying it: this test runs the relay itself.
    const own = await useTestDb();
    const oc = collections(own.db);
    const stores = createStores(own.db, { webhookUrlPolicy: { allowHttpLoopback: true } });
    const ws = (await stores.workspaces.create("Cut short"))._id;
    const endpoint = await stores.webhookEndpoints.create(
      ws,
      { url: "http://127.0.0.1:8099/hook", events: ALL_EVENTS },
      null,
    );
    await importBlogs(own.db, ws, "cut", 150);
    // What a relay killed midway left: the events of the first 30 blogs, and the deliveries of
    // the first 10 of those; every outbox still full.
    const first = await oc.blogs.find({ workspaceId: ws }).sort({ _id: 1 }).limit(30).toArray();
    const stored = first.flatMap((blog) =>
      (blog.webhookOutbox ?? []).map((event) => eventDocOf(blog, event)),
    );
    expect(stored).toHaveLength(30);
    await oc.webhookEvents.insertMany(stored);
    await oc.webhookDeliveries.insertMany(
      first
        .slice(0, 10)
        .flatMap((blog) =>
          (blog.webhookOutbox ?? []).map((event) =>
            deliveryDocOf(blog, event, endpoint.endpoint._id, AT),
          ),
        ),
    );

    const since = await relayRound(own, {
      endpoints: stores.webhookEndpoints,
      clearWebhookOutboxes: stores.blogs.clearWebhookOutboxes,
    });
    expect(await oc.webhookEvents.countDocuments({ workspaceId: ws })).toBe(150);
    expect(await oc.webhookDeliveries.countDocuments({ workspaceId: ws })).toBe(150);
    expect(await oc.blogs.countDocuments({ workspaceId: ws, webhookPending: true })).toBe(0);
    const count = (name: string, collection: string) =>
      since.filter((cmd) => cmd.name === name && cmd.collection === collection).length;
    expect(count("insert", "webhookEvents")).toBe(2);
    expect(count("insert", "webhookDeliveries")).toBe(2);
    expect(count("find", "webhookEndpoints")).toBe(2);
    expect(
      since.filter((cmd) => cmd.name === "update" && filtersOn(cmd, "webhookPending")),
    ).toHaveLength(2);
  }, 120_000);
});

describe("a write is relayed before another workspace's backlog", () => {
  it("a blog released while the relay works through an import of 250 blogs of another workspace goes out in the relay's next page, alone, not after the import's", async () => {
    // A database of its own, with no server relaying it: this test runs the relay itself.
    const own = await useTestDb();
    const oc = collections(own.db);
    let relay: OutboxRelay | undefined;
    const stores = createStores(own.db, {
      webhookUrlPolicy: { allowHttpLoopback: true },
      // As app.ts wires it: each blog write of the process names its blog to the relay.
      onWebhookEvent: (blogId) => relay?.wrote(blogId),
    });
    const importing = (await stores.workspaces.create("Imported site"))._id;
    const writing = (await stores.workspaces.create("Writing team"))._id;
    for (const ws of [importing, writing]) {
      await stores.webhookEndpoints.create(
        ws,
        { url: "http://127.0.0.1:8099/hook", events: ALL_EVENTS },
        null,
      );
    }
    await importBlogs(own.db, importing, "backlog", 250);
    let released = "";
    const since = await relayRound(
      own,
      {
        endpoints: stores.webhookEndpoints,
        clearWebhookOutboxes: async (workspaceId, versions) => {
          const cleared = await stores.blogs.clearWebhookOutboxes(workspaceId, versions);
          // Once the relay is through its first page of the import, the other team releases.
          if (released === "") {
            const blog = { title: "Our news", bodyMarkdown: "Words.", release: true };
            released = (await stores.blogs.create(writing, blog))._id;
          }
          return cleared;
        },
      },
      (made) => {
        relay = made;
      },
    );
    const inserts = since
      .filter((cmd) => cmd.name === "insert" && cmd.collection === "webhookEvents")
      .map((cmd) => (cmd.command.documents ?? []) as { blogId: string; workspaceId: string }[]);
    expect(inserts[0]?.every((event) => event.workspaceId === importing)).toBe(true);
    expect(inserts[0]).toHaveLength(100);
    // Next: the released blog's event alone, then the rest of the import (150 blogs).
    expect(inserts[1]?.map((event) => event.blogId)).toEqual([released]);
    expect(inserts.slice(2).flat()).toHaveLength(150);
    expect(await oc.webhookEvents.countDocuments({})).toBe(251);
    expect(await oc.webhookDeliveries.countDocuments({ workspaceId: writing })).toBe(1);
    expect(await oc.blogs.countDocuments({ webhookPending: true })).toBe(0);
  }, 120_000);
});
