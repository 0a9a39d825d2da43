// An endpoint failing for a day is turned off and its owner sees why; the delivery
// log is kept 30 days (README, "Webhooks"; openapi/admin.yaml, WebhookEndpoint.disabledReason).
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections, type WebhookDeliveryDoc } from "../../server/src/platform/db/collections.js";
import { purgeWebhookLog } from "../../server/src/webhooks/retention.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { HOUR, offsetClock } from "../support/test-clock.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer } from "../support/test-server.js";
import { startReceiver, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi, endpointsOf } from "./support.js";

type Me = components["schemas"]["Me"];

let t: TestDb;
let admin: AdminClient;
let ws: string;
const clock = offsetClock();

beforeAll(async () => {
  t = await useTestDb();
  const server = await startTestServer(
    t.db,
    { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" },
    // A minute between attempts on the test clock, which the test moves forward.
    {
      testHooks: { now: clock.now, webhookRetryDelaysMs: Array.from({ length: 10 }, () => 60_000) },
    },
  );
  admin = new AdminClient(server.url);
  ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
});

describe("happy: a day of failures turns the endpoint off (README, Webhooks)", () => {
  it("an endpoint whose every attempt failed for 24 hours is disabled with a reason naming since when and the last answer; its pending deliveries are then skipped", async () => {
    const receiver = await startReceiver(() => 503);
    const endpoints = endpointsOf(t.db);
    const { endpoint } = await endpoints.create(
      ws,
      { url: receiver.url, events: ALL_EVENTS },
      null,
    );
    const c = collections(t.db);
    const blog = blogApi(admin, ws);
    await blog.create("Failing", true);
    await waitFor("the first failed attempt", () => receiver.received.length === 1);
    await waitFor(
      "its failure recorded",
      async () => (await c.webhookHealth.findOne({ _id: endpoint._id }))?.failingSince != null,
    );
    expect((await endpoints.get(ws, endpoint._id)).enabled).toBe(true);

    clock.advance(25 * HOUR); // the retry is due; the endpoint has failed for over a day
    await waitFor("the second attempt", () => receiver.received.length === 2);
    await waitFor(
      "the endpoint disabled",
      async () => !(await endpoints.get(ws, endpoint._id)).enabled,
    );
    const off = await endpoints.get(ws, endpoint._id);
    expect(off.disabledReason).toMatch(
      /^Every delivery since \d{4}-\d\d-\d\d \d\d:\d\d UTC failed \(last: HTTP 503\)\. Fix the receiver, then turn the endpoint back on\.$/,
    );

    clock.advance(2 * 60_000); // the next retry falls due while the endpoint is off
    await waitFor(
      "the delivery skipped",
      async () =>
        (await c.webhookDeliveries.findOne({ endpointId: endpoint._id }))?.state === "skipped",
    );
    expect(receiver.received).toHaveLength(2);
  });
});

describe("happy: the delivery log is kept 30 days (README, Webhooks)", () => {
  it("settled deliveries, their attempts and events older than the cutoff are deleted; pending and newer ones stay", async () => {
    const c = collections(t.db);
    const old = new Date("2026-01-01T00:00:00Z");
    const cutoff = new Date("2026-02-01T00:00:00Z");
    const recent = new Date("2026-03-01T00:00:00Z");
    const delivery = (
      id: string,
      state: WebhookDeliveryDoc["state"],
      at: Date,
    ): WebhookDeliveryDoc => ({
      _id: id,
      eventId: `evt_${id}`,
      endpointId: "we_retention",
      workspaceId: ws,
      eventType: "blog.released",
      blogId: "b_retention",
      seq: 1,
      state,
      attempts: 1,
      // Pending, but not due: the test server's delivery worker would otherwise take it, find
      // no endpoint `we_retention` and delete it as the deleted endpoint's (delivery-worker.ts).
      nextAttemptAt: state === "pending" ? new Date("2100-01-01T00:00:00Z") : null,
      redeliveryOf: null,
      createdAt: at,
      settledAt: state === "pending" ? null : at,
    });
    await c.webhookDeliveries.insertMany([
      delivery("dlv_oldDelivered", "delivered", old),
      delivery("dlv_oldFailed", "failed", old),
      delivery("dlv_oldPending", "pending", old),
      delivery("dlv_newDelivered", "delivered", recent),
    ]);
    const attempt = (deliveryId: string) => ({
      _id: `${deliveryId}#01`,
      deliveryId,
      endpointId: "we_retention",
      number: 1,
      instanceId: "x",
      startedAt: old,
      leaseUntil: old,
      finishedAt: old,
      latencyMs: 1,
      statusCode: 200,
      error: null,
      responseExcerpt: null,
    });
    await c.webhookAttempts.insertMany([attempt("dlv_oldDelivered"), attempt("dlv_newDelivered")]);
    const event = (id: string, at: Date) => ({
      _id: id,
      workspaceId: ws,
      type: "blog.released" as const,
      occurredAt: at,
      blogId: "b_retention",
      slug: "s",
      seq: 1,
      endpointId: null,
    });
    // An event a day before the cutoff is kept: a delivery settled after the cutoff may be its.
    const dayBefore = new Date(cutoff.getTime() - 86_400_000);
    await c.webhookEvents.insertMany([
      event("evt_retOld", old),
      event("evt_retDayBefore", dayBefore),
      event("evt_retNew", recent),
    ]);

    const purged = await purgeWebhookLog(c, cutoff);
    expect(purged).toMatchObject({ deliveries: 2, attempts: 1 });
    const left = await c.webhookDeliveries.find({ endpointId: "we_retention" }).toArray();
    expect(left.map((d) => d._id).sort()).toEqual(["dlv_newDelivered", "dlv_oldPending"]);
    expect(await c.webhookAttempts.countDocuments({ endpointId: "we_retention" })).toBe(1);
    expect(
      (
        await c.webhookEvents
          .find({ _id: { $in: ["evt_retOld", "evt_retDayBefore", "evt_retNew"] } })
          .toArray()
      )
        .map((e) => e._id)
        .sort(),
    ).toEqual(["evt_retDayBefore", "evt_retNew"]);
  });
});
