// No event is lost across a server kill (README, "Webhooks": how an event survives a
// crash). Real `pressroom start` processes on the test's database, killed with SIGKILL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { type Received, startReceiver, verifies, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi, endpointsOf, newWorkspace } from "./support.js";

type Me = components["schemas"]["Me"];

type Started = ServerProcess;

let t: TestDb;
const running: Started[] = [];

/** `pressroom start` as its own process, on the test's database. */
async function startServer(env: Record<string, string>): Promise<Started> {
  const started = await startServerProcess(
    {
      MONGODB_URI: t.uri,
      MONGODB_DB: t.name,
      LOG_LEVEL: "info",
      WEBHOOK_ALLOW_HTTP_LOOPBACK: "true",
      ...env,
    },
    60_000,
  );
  running.push(started);
  return started;
}

const kill = async (s: Started) => {
  s.child.kill("SIGKILL");
  await s.exit;
};

beforeAll(async () => {
  t = await useTestDb();
});
afterAll(async () => {
  for (const s of running) s.child.kill("SIGKILL");
});

/** Signs the owner in: first-run setup on the fresh database, else a sign-in. */
const ownerOf = async (admin: AdminClient) => {
  if ((await admin.post<Me>("/setup", OWNER)).status === 201) return;
  const signIn = await admin.post("/session", { email: OWNER.email, password: OWNER.password });
  expect(signIn.status).toBeLessThan(300);
};

const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;

describe("happy: an event survives a kill between the blog write and its delivery (README, Webhooks)", () => {
  it("writes made by a server killed before delivering reach the endpoint exactly once each after de-duplication, sent by the next server", async () => {
    const receiver = await startReceiver();
    // Delivery off: nothing relays or sends; the events can only wait in the blogs' outboxes.
    const first = await startServer({ WEBHOOK_DELIVERY: "off" });
    const admin = new AdminClient(first.url);
    await ownerOf(admin);
    const ws = await newWorkspace(admin, "Crash");
    const { secret } = await endpointsOf(t.db).create(
      ws,
      { url: receiver.url, events: ALL_EVENTS },
      null,
    );
    const blog = blogApi(admin, ws);
    const a = await blog.create("Crash A", true);
    await blog.edit(a, "Crash A, edited");
    const b = await blog.create("Crash B", true);
    await blog.unrelease(a);
    await blog.remove(b);
    await kill(first);

    const c = collections(t.db);
    expect(await c.webhookDeliveries.countDocuments({ workspaceId: ws })).toBe(0);
    expect(await c.blogs.countDocuments({ workspaceId: ws, webhookPending: true })).toBe(2);

    const second = await startServer({});
    await waitFor(
      "five delivered deliveries",
      async () =>
        (await c.webhookDeliveries.countDocuments({ workspaceId: ws, state: "delivered" })) === 5,
      60_000,
    );
    const unique = receiver.unique();
    expect(unique).toHaveLength(5);
    const ofBlog = (id: string) =>
      unique.filter((r) => (JSON.parse(r.body) as { data: { blogId: string } }).data.blogId === id);
    expect(ofBlog(a).map(typeOf)).toEqual(["blog.released", "blog.updated", "blog.unreleased"]);
    expect(ofBlog(b).map(typeOf)).toEqual(["blog.released", "blog.removed"]);
    expect(receiver.received.every((r) => verifies(secret, r))).toBe(true);
    // The writer is gone: the next server relays and empties its outboxes.
    await waitFor(
      "the outboxes emptied",
      async () => (await c.blogs.countDocuments({ workspaceId: ws, webhookPending: true })) === 0,
      30_000,
    );
    expect(receiver.unique()).toHaveLength(5);
    await kill(second);
  }, 180_000);

  it("an attempt cut short by a kill is taken over by the next server once its lease has passed, with the same webhook-id", async () => {
    let hold = true;
    const receiver = await startReceiver(() => (hold ? "hold" : 204));
    // Shortest timeout (1 s), so the lease of the killed attempt ends 31 s after it started.
    const env = { WEBHOOK_TIMEOUT_MS: "1000" };
    const first = await startServer(env);
    const admin = new AdminClient(first.url);
    await ownerOf(admin);
    const ws = await newWorkspace(admin, "Lease");
    await endpointsOf(t.db).create(ws, { url: receiver.url, events: ALL_EVENTS }, null);
    await blogApi(admin, ws).create("Held", true);
    await waitFor("the held attempt", () => receiver.received.length === 1, 30_000);
    await kill(first);
    hold = false;

    const c = collections(t.db);
    await startServer(env);
    await waitFor(
      "the delivery delivered",
      async () =>
        (await c.webhookDeliveries.countDocuments({ workspaceId: ws, state: "delivered" })) === 1,
      90_000,
    );
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    const delivery = await c.webhookDeliveries.findOne({ workspaceId: ws });
    const attempts = await c.webhookAttempts
      .find({ deliveryId: delivery?._id ?? "" })
      .sort({ _id: 1 })
      .toArray();
    expect(attempts.map((x) => [x.number, x.error])).toEqual([
      [1, "lost: the instance sending it stopped"],
      [2, null],
    ]);
    expect(delivery?.attempts).toBe(2);
  }, 180_000);
});
