// Several server instances deliver each event once (README, "Webhooks": several
// instances — attempts taken by insert, leases).
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { startReceiver, verifies, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi, endpointsOf } from "./support.js";

type Me = components["schemas"]["Me"];

let t: TestDb;
let servers: TestServer[];
let admins: AdminClient[];
let ws: string;

beforeAll(async () => {
  t = await useTestDb();
  const env = { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" };
  servers = [await startTestServer(t.db, env), await startTestServer(t.db, env)];
  const [one, two] = servers.map((s) => new AdminClient(s.url));
  if (one === undefined || two === undefined) throw new Error("two servers");
  ws = (await one.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  two.cookie = one.cookie;
  admins = [one, two];
});

describe("happy: two instances, one database (README, Webhooks)", () => {
  it("36 events written through both instances, both delivering, reach a healthy receiver exactly once each on the wire, signed", async () => {
    const receiver = await startReceiver();
    const { secret } = await endpointsOf(t.db).create(
      ws,
      { url: receiver.url, events: ALL_EVENTS },
      null,
    );
    // 9 blogs, 4 events each, written at the same time through both instances (each blog through
    // one: on the embedded database only one process's writes of a blog are exact, README).
    await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const blog = blogApi(admins[i % 2] as AdminClient, ws);
        const id = await blog.create(`Instances ${i}`, true);
        await blog.edit(id, `Instances ${i}, edited`);
        await blog.unrelease(id);
        await blog.release(id);
      }),
    );
    const c = collections(t.db);
    await waitFor(
      "36 delivered deliveries",
      async () =>
        (await c.webhookDeliveries.countDocuments({ workspaceId: ws, state: "delivered" })) === 36,
      60_000,
    );
    expect(receiver.unique()).toHaveLength(36);
    expect(receiver.received).toHaveLength(36);
    expect(receiver.received.every((r) => verifies(secret, r))).toBe(true);
    // One attempt per delivery, whichever instance took it.
    expect(await c.webhookAttempts.countDocuments({})).toBe(36);
  }, 120_000);
});
