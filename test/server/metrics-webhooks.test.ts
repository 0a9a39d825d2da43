import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { startReceiver } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi, endpointsOf, newWorkspace } from "../webhooks/support.js";

// README, "Metrics": pressroom_webhook_attempts_total counts this instance's recorded webhook
// attempts by outcome (delivered: a 2xx answer; failed: anything else).

let t: TestDb;
let server: TestServer;
let admin: AdminClient;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(
    t.db,
    { METRICS_PORT: "0", WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" },
    // One retry after 100 ms, then the delivery fails for good.
    { testHooks: { webhookRetryDelaysMs: [100] } },
  );
  admin = new AdminClient(server.url);
  expect((await admin.post("/setup", OWNER)).status).toBe(201);
});

async function attempts(): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  const family = parsePrometheusTextFormat(text).find(
    (f) => f.name === "pressroom_webhook_attempts_total",
  );
  return Object.fromEntries(
    (family?.metrics ?? []).map((m) => [m.labels?.outcome ?? "", Number(m.value)]),
  );
}

describe("happy: webhook attempts are counted by outcome (README, Metrics)", () => {
  it("a 2xx answer counts as delivered, each non-2xx attempt as failed", async () => {
    expect(await attempts()).toEqual({ delivered: 0, failed: 0 });
    const ws = await newWorkspace(admin, "Metered hooks");
    const ok = await startReceiver(() => 204);
    const broken = await startReceiver(() => 500);
    const endpoints = endpointsOf(t.db);
    await endpoints.create(ws, { url: ok.url, events: ALL_EVENTS }, null);
    await endpoints.create(ws, { url: broken.url, events: ALL_EVENTS }, null);
    await blogApi(admin, ws).create("Counted", true);
    const deadline = Date.now() + 20_000;
    // One event: one delivered attempt, and the broken endpoint's first attempt plus its retry.
    while (broken.received.length < 2 || ok.received.length < 1) {
      if (Date.now() > deadline) throw new Error("the deliveries did not arrive");
      await new Promise((r) => setTimeout(r, 50));
    }
    let counted: Record<string, number> = {};
    while (Date.now() < deadline) {
      counted = await attempts();
      if (counted.delivered === 1 && counted.failed === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(counted).toEqual({ delivered: 1, failed: 2 });
    expect(broken.received).toHaveLength(2);
  });
});
