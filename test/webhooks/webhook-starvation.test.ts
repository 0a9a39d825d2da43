// Per-blog order holds back only the blog it is about (README, "Webhooks": order per
// blog, per endpoint). Held-back deliveries must not fill the worker's pages and starve others.
import { beforeAll, describe, expect, it } from "vitest";
import type { WebhookDeliveryDoc } from "../../server/src/platform/db/collections.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer } from "../support/test-server.js";
import { startReceiver, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, endpointsOf } from "./support.js";

let t: TestDb;
beforeAll(async () => {
  t = await useTestDb();
});

describe("happy: a blog held back at one endpoint holds back nothing else (README, Webhooks)", () => {
  it("600 events of one blog waiting behind its first (in backoff) at one endpoint do not delay another endpoint's delivery due after them all", async () => {
    const c = collections(t.db);
    const ws = "ws_StarvationTest01";
    const slow = await startReceiver(() => 503);
    const other = await startReceiver();
    const endpoints = endpointsOf(t.db);
    const { endpoint: e1 } = await endpoints.create(
      ws,
      { url: slow.url, events: ALL_EVENTS },
      null,
    );
    const { endpoint: e2 } = await endpoints.create(
      ws,
      { url: other.url, events: ALL_EVENTS },
      null,
    );
    const now = Date.now();
    const delivery = (i: number, patch: Partial<WebhookDeliveryDoc>): WebhookDeliveryDoc => ({
      _id: `dlv_Starve${String(i).padStart(5, "0")}`,
      eventId: `evt_Starve${String(i).padStart(5, "0")}`,
      endpointId: e1._id,
      workspaceId: ws,
      eventType: "blog.updated",
      blogId: "b_StarveBusyBlog",
      seq: i,
      state: "pending",
      attempts: 0,
      nextAttemptAt: new Date(now - 600_000 + i),
      redeliveryOf: null,
      createdAt: new Date(now - 600_000),
      settledAt: null,
      ...patch,
    });
    // Event 1 of the busy blog failed and waits an hour; events 2-601 are due, behind it.
    const busy = [
      delivery(1, { attempts: 3, nextAttemptAt: new Date(now + 3_600_000) }),
      ...Array.from({ length: 600 }, (_, i) => delivery(i + 2, {})),
    ];
    await c.webhookDeliveries.insertMany(busy);
    // Another endpoint's delivery, due after every one of them.
    await c.webhookEvents.insertOne({
      _id: "evt_StarveOther00001",
      workspaceId: ws,
      type: "blog.released",
      occurredAt: new Date(now - 1000),
      blogId: "b_StarveOtherBlog",
      slug: "other",
      seq: 1,
      endpointId: null,
    });
    await c.webhookDeliveries.insertOne(
      delivery(9999, {
        _id: "dlv_StarveOther00001",
        eventId: "evt_StarveOther00001",
        endpointId: e2._id,
        eventType: "blog.released",
        blogId: "b_StarveOtherBlog",
        seq: 1,
        nextAttemptAt: new Date(now - 1000),
      }),
    );

    await startTestServer(t.db, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" });
    await waitFor("the other endpoint's delivery", async () => other.received.length > 0, 30_000);
    expect(other.received[0]?.id).toBe("evt_StarveOther00001");
    // The busy blog's events stayed in order: none of them was sent past event 1.
    expect(slow.received).toEqual([]);
    const stillDue = await c.webhookDeliveries.countDocuments({
      endpointId: e1._id,
      state: "pending",
      nextAttemptAt: { $lte: new Date() },
    });
    expect(stillDue).toBeLessThan(600);
  }, 60_000);
});
