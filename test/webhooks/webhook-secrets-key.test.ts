// Signing secrets are sealed at rest with WEBHOOK_SECRETS_KEY, or a key kept in the
// database (README, "Configuration" and "Webhooks"). A secret sealed under another key than the
// server's cannot sign: the delivery log says so and what to do, and rotating the secret mends it.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { startReceiver, verifies, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi, endpointsOf, newWorkspace } from "./support.js";

type Me = components["schemas"]["Me"];
type WithSecret = components["schemas"]["WebhookEndpointWithSecret"];

let t: TestDb;
let server: TestServer;
let admin: AdminClient;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(
    t.db,
    {
      WEBHOOK_ALLOW_HTTP_LOOPBACK: "true",
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString("base64"),
    },
    { testHooks: { webhookRetryDelaysMs: Array.from({ length: 10 }, () => 100) } },
  );
  admin = new AdminClient(server.url);
  expect((await admin.post<Me>("/setup", OWNER)).status).toBe(201);
});

describe("error: a secret sealed under another WEBHOOK_SECRETS_KEY (README, Webhooks)", () => {
  it("is never sent unsigned: each attempt records why it cannot sign, and after a rotation the endpoint's deliveries are signed with the new secret", async () => {
    const ws = await newWorkspace(admin, "Sealed elsewhere");
    const receiver = await startReceiver();
    // Made without the server's key: sealed under the database's own key, as before the
    // operator set WEBHOOK_SECRETS_KEY.
    const { endpoint } = await endpointsOf(t.db).create(
      ws,
      { url: receiver.url, events: ALL_EVENTS },
      null,
    );
    const blog = blogApi(admin, ws);
    await blog.create("Before the rotation", true);
    const { webhookAttempts, webhookDeliveries } = collections(t.db);
    // The first attempt, once finished (retries follow every 100 ms here).
    const firstFinished = { endpointId: endpoint._id, number: 1, finishedAt: { $ne: null } };
    await waitFor(
      "a finished first attempt",
      async () => (await webhookAttempts.countDocuments(firstFinished)) > 0,
    );
    const attempt = await webhookAttempts.findOne(firstFinished);
    expect(attempt?.error).toBe(
      "cannot sign: the endpoint's secret was sealed under another WEBHOOK_SECRETS_KEY; rotate its secret",
    );
    expect(attempt?.statusCode).toBeNull();
    expect(receiver.received).toEqual([]);

    const rotated = await admin.post<WithSecret>(
      `/workspaces/${ws}/webhooks/${endpoint._id}/rotate-secret`,
    );
    expect(rotated.status).toBe(200);
    const id = await blog.create("After the rotation", true);
    await waitFor("the next event, delivered", async () =>
      receiver.received.some((r) => r.body.includes(id)),
    );
    const delivered = receiver.received.filter((r) => r.body.includes(id));
    // Signed with the new secret alone: the one before it cannot be opened, and is dropped.
    for (const r of delivered) {
      expect(verifies(rotated.body.secret, r)).toBe(true);
      expect(r.signature.split(" ")).toHaveLength(1);
    }
    // Settled once the answer is recorded, a moment after the receiver saw the request.
    await waitFor(
      "a delivered delivery",
      async () =>
        (await webhookDeliveries.countDocuments({
          endpointId: endpoint._id,
          state: "delivered",
        })) >= 1,
    );
  }, 60_000);
});
