// Test events and redeliveries are limited (README, "Webhooks": fair share and limits;
// admin.yaml, sendTestWebhook and redeliverWebhook, 429): at most WEBHOOK_MANUAL_RATE_LIMIT per
// workspace (default 10 per 60 s) and WEBHOOK_MANUAL_PENDING_MAX waiting per endpoint (default 20).
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer } from "../support/test-server.js";
import { startReceiver } from "../support/webhook-receiver.js";
import { newWorkspace } from "./support.js";

type Delivery = components["schemas"]["WebhookDelivery"];
type Created = components["schemas"]["WebhookEndpointWithSecret"];
type ErrorBody = components["schemas"]["Error"];

let t: TestDb;
beforeAll(async () => {
  t = await useTestDb();
});

/** Windows are aligned to the epoch: start the burst early in a minute so it stays in one. */
async function earlyInAMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
}

async function endpointIn(admin: AdminClient, ws: string, url: string): Promise<string> {
  const res = await admin.post<Created>(`/workspaces/${ws}/webhooks`, {
    url,
    events: ["blog.released"],
  });
  expect(res.status).toBe(201);
  return res.body.endpoint.id;
}

describe("unhappy: test events and redeliveries beyond the limits get 429 (README, Webhooks; admin.yaml)", () => {
  it("the 11th test event of a workspace within a minute gets 429 with Retry-After and a message naming the limit; a redelivery counts too; another workspace is not affected", async () => {
    const server = await startTestServer(t.db, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" });
    const admin = new AdminClient(server.url);
    expect((await admin.post("/setup", OWNER)).status).toBe(201);
    const receiver = await startReceiver();
    const ws = await newWorkspace(admin, "Manual limits");
    const other = await newWorkspace(admin, "Manual limits, other");
    const endpointId = await endpointIn(admin, ws, receiver.url);
    const otherEndpoint = await endpointIn(admin, other, receiver.url);
    const test = `/workspaces/${ws}/webhooks/${endpointId}/test`;

    await earlyInAMinute();
    const first = await admin.post<Delivery>(test);
    expect(first.status).toBe(202);
    for (let i = 2; i <= 10; i++) expect((await admin.post(test)).status).toBe(202);
    const eleventh = await admin.post<ErrorBody>(test);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({
      message: expect.stringMatching(
        /^Too many test events and redeliveries in this workspace: at most 10 per 60 seconds\. Try again in \d+ seconds\.$/,
      ),
    });
    const retryAfter = Number(eleventh.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const redeliver = await admin.post<ErrorBody>(
      `/workspaces/${ws}/webhooks/${endpointId}/deliveries/${first.body.id}/redeliver`,
    );
    expect(redeliver.status).toBe(429);
    expect(redeliver.headers.get("retry-after")).not.toBeNull();
    // Nothing was queued by the refused ones.
    expect(
      await collections(t.db).webhookDeliveries.countDocuments({ endpointId, manual: true }),
    ).toBe(10);
    // The limit is the workspace's own.
    expect((await admin.post(`/workspaces/${other}/webhooks/${otherEndpoint}/test`)).status).toBe(
      202,
    );
  }, 120_000);

  it("with WEBHOOK_MANUAL_PENDING_MAX=3, a 4th test event while three wait for a failing receiver gets 429 naming the cap", async () => {
    const server = await startTestServer(
      t.db,
      {
        WEBHOOK_ALLOW_HTTP_LOOPBACK: "true",
        WEBHOOK_MANUAL_PENDING_MAX: "3",
        WEBHOOK_MANUAL_RATE_LIMIT: "100/60",
      },
      // A failed attempt waits a minute: the three stay pending.
      { testHooks: { webhookRetryDelaysMs: Array.from({ length: 10 }, () => 60_000) } },
    );
    const admin = new AdminClient(server.url);
    const signIn = await admin.post("/session", { email: OWNER.email, password: OWNER.password });
    if (signIn.status !== 200) expect((await admin.post("/setup", OWNER)).status).toBe(201);
    const failing = await startReceiver(() => 503);
    const ws = await newWorkspace(admin, "Pending cap");
    const endpointId = await endpointIn(admin, ws, failing.url);
    const test = `/workspaces/${ws}/webhooks/${endpointId}/test`;
    for (let i = 1; i <= 3; i++) expect((await admin.post(test)).status).toBe(202);
    const fourth = await admin.post<ErrorBody>(test);
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("retry-after")).toBe("60");
    expect(fourth.body.message).toBe(
      "This endpoint already has 3 test events and redeliveries waiting to be sent (the most it may have); wait until they are delivered or given up.",
    );
  }, 60_000);
});
