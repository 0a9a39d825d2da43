// Webhook deliveries from the blog's outbox to a real receiver (README, "Webhooks";
// openapi/openapi.yaml, "Webhooks").
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { type Received, startReceiver, verifies, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi, endpointsOf, expectBlogEventShape, newWorkspace } from "./support.js";

type Me = components["schemas"]["Me"];
type MintedKey = components["schemas"]["MintedKey"];

let t: TestDb;
let server: TestServer;
let admin: AdminClient;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(
    t.db,
    { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" },
    // Short waits between attempts (production: 10 s, 30 s, …; never shortened there).
    { testHooks: { webhookRetryDelaysMs: Array.from({ length: 10 }, () => 150) } },
  );
  admin = new AdminClient(server.url);
  expect((await admin.post<Me>("/setup", OWNER)).status).toBe(201);
});

const bodyOf = (r: Received) => JSON.parse(r.body) as { type: string; data: { blogId: string } };

describe("happy: a blog's changes reach its workspace's endpoints (README, Webhooks)", () => {
  it("release, edit, unrelease, release, edit, remove arrive as exactly those 6 events, in order, each signed and shaped as the spec's BlogEvent", async () => {
    const ws = await newWorkspace(admin, "Sequence");
    const receiver = await startReceiver();
    const { secret } = await endpointsOf(t.db).create(
      ws,
      { url: receiver.url, events: ALL_EVENTS },
      null,
    );
    const blog = blogApi(admin, ws);
    const id = await blog.create("Sequence");
    await blog.edit(id, "Sequence, a draft edited"); // drafts make no event
    await blog.release(id);
    await blog.edit(id, "Sequence, edited");
    await blog.unrelease(id);
    await blog.edit(id, "Sequence, edited as a draft"); // none either
    await blog.release(id);
    await blog.edit(id, "Sequence, edited again");
    await blog.remove(id);

    const expected = [
      "blog.released",
      "blog.updated",
      "blog.unreleased",
      "blog.released",
      "blog.updated",
      "blog.removed",
    ];
    const deliveries = collections(t.db).webhookDeliveries;
    await waitFor(
      "six delivered deliveries",
      async () => (await deliveries.countDocuments({ workspaceId: ws, state: "delivered" })) === 6,
    );
    const unique = receiver.unique();
    expect(unique.map((r) => bodyOf(r).type)).toEqual(expected);
    for (const r of receiver.received) {
      expect(verifies(secret, r)).toBe(true);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["user-agent"]).toBe("Pressroom-Webhooks/1");
      const body: unknown = JSON.parse(r.body);
      expectBlogEventShape(body);
      expect(body.id).toBe(r.id);
      expect(body.workspaceId).toBe(ws);
      expect(body.data.blogId).toBe(id);
    }
    expect(await deliveries.countDocuments({ workspaceId: ws })).toBe(6);
    expect(unique.map((r) => (JSON.parse(r.body) as { data: { slug: string } }).data.slug)).toEqual(
      Array.from({ length: 6 }, () => "sequence"),
    );
  });

  it("a receiver failing the first attempts with 503 gets the event again with the same webhook-id until it answers 2xx; the blog's next event waits for it, another blog's does not", async () => {
    const ws = await newWorkspace(admin, "Retries");
    const blog = blogApi(admin, ws);
    const slow = await blog.create("Slow blog");
    const other = await blog.create("Other blog");
    let failures = 0;
    // The slow blog's first event fails at least twice, and until the other blog's event has
    // arrived: that one cannot be held up behind it.
    const receiver = await startReceiver((r) => {
      const { type, data } = bodyOf(r);
      if (data.blogId !== slow || type !== "blog.released") return 204;
      const otherArrived = receiver.received.some((x) => bodyOf(x).data.blogId === other);
      if (failures < 2 || !otherArrived) {
        failures++;
        return 503;
      }
      return 204;
    });
    await endpointsOf(t.db).create(ws, { url: receiver.url, events: ALL_EVENTS }, null);
    await blog.release(slow);
    await blog.edit(slow, "Slow blog, edited");
    await waitFor("two failed attempts", () => failures >= 2);
    await blog.release(other);

    const c = collections(t.db);
    await waitFor(
      "three delivered deliveries",
      async () =>
        (await c.webhookDeliveries.countDocuments({ workspaceId: ws, state: "delivered" })) === 3,
    );
    const slowOnes = receiver.received.filter((r) => bodyOf(r).data.blogId === slow);
    const released = slowOnes.filter((r) => bodyOf(r).type === "blog.released");
    expect(released.length).toBeGreaterThanOrEqual(3);
    expect(new Set(released.map((r) => r.id)).size).toBe(1);
    // Order per blog: the edit went out only after the release was delivered (its last attempt).
    const lastRelease = receiver.received.lastIndexOf(released.at(-1) as Received);
    const update = receiver.received.findIndex((r) => bodyOf(r).type === "blog.updated");
    expect(update).toBeGreaterThan(lastRelease);
    // The other blog was delivered before the slow blog's release was.
    const otherAt = receiver.received.findIndex((r) => bodyOf(r).data.blogId === other);
    expect(otherAt).toBeLessThan(lastRelease);

    const delivery = await c.webhookDeliveries.findOne({
      workspaceId: ws,
      blogId: slow,
      eventType: "blog.released",
    });
    expect(delivery?.state).toBe("delivered");
    expect(delivery?.attempts).toBe(released.length);
    const attempts = await c.webhookAttempts
      .find({ deliveryId: delivery?._id ?? "" })
      .sort({ _id: 1 })
      .toArray();
    expect(attempts.map((a) => a.number)).toEqual(released.map((_, i) => i + 1));
    expect(attempts.map((a) => a.statusCode)).toEqual([...released.slice(1).map(() => 503), 204]);
    expect(attempts.every((a) => a.finishedAt !== null && a.latencyMs !== null)).toBe(true);
  });

  it("after rotateSecret, deliveries carry two signatures: the old secret and the new one each verify (openapi.yaml, webhook-signature)", async () => {
    const ws = await newWorkspace(admin, "Rotation");
    const receiver = await startReceiver();
    const endpoints = endpointsOf(t.db);
    const created = await endpoints.create(ws, { url: receiver.url, events: ALL_EVENTS }, null);
    const rotated = await endpoints.rotateSecret(ws, created.endpoint._id);
    const blog = blogApi(admin, ws);
    await blog.create("Rotated", true);
    await waitFor("a delivery", () => receiver.received.length > 0);
    const [r] = receiver.received;
    if (r === undefined) throw new Error("nothing received");
    expect(r.signature.split(" ")).toHaveLength(2);
    expect(verifies(created.secret, r)).toBe(true);
    expect(verifies(rotated.secret, r)).toBe(true);
    expect(verifies(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, r)).toBe(false);
  });

  it("after a rotation with dropPrevious: true, deliveries carry only the new signature; the old secret verifies none (admin.yaml, rotateWebhookSecret)", async () => {
    const ws = await newWorkspace(admin, "Rotation, dropped");
    const receiver = await startReceiver();
    const endpoints = endpointsOf(t.db);
    const created = await endpoints.create(ws, { url: receiver.url, events: ALL_EVENTS }, null);
    const rotated = await admin.post<components["schemas"]["WebhookEndpointWithSecret"]>(
      `/workspaces/${ws}/webhooks/${created.endpoint._id}/rotate-secret`,
      { dropPrevious: true },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.endpoint.previousSecretExpiresAt).toBeNull();
    await blogApi(admin, ws).create("Dropped at once", true);
    await waitFor("a delivery", () => receiver.received.length > 0);
    const [r] = receiver.received;
    if (r === undefined) throw new Error("nothing received");
    expect(r.signature.split(" ")).toHaveLength(1);
    expect(verifies(rotated.body.secret, r)).toBe(true);
    expect(verifies(created.secret, r)).toBe(false);
  });

  it("a day after the rotation the previous secret signs no more and is forgotten (admin.yaml, rotateWebhookSecret)", async () => {
    const ws = await newWorkspace(admin, "Rotation over");
    const receiver = await startReceiver();
    const endpoints = endpointsOf(t.db);
    const created = await endpoints.create(ws, { url: receiver.url, events: ALL_EVENTS }, null);
    const rotated = await endpoints.rotateSecret(ws, created.endpoint._id);
    const c = collections(t.db);
    // The day has passed (its end moved back rather than the clock forward).
    await c.webhookEndpoints.updateOne(
      { _id: created.endpoint._id },
      { $set: { previousSecretExpiresAt: new Date(Date.now() - 1000) } },
    );
    const shown = await admin.get<components["schemas"]["WebhookEndpoint"]>(
      `/workspaces/${ws}/webhooks/${created.endpoint._id}`,
    );
    expect(shown.body.previousSecretExpiresAt).toBeNull();
    await blogApi(admin, ws).create("After the day", true);
    await waitFor("a delivery", () => receiver.received.length > 0);
    const [r] = receiver.received;
    if (r === undefined) throw new Error("nothing received");
    expect(r.signature.split(" ")).toHaveLength(1);
    expect(verifies(rotated.secret, r)).toBe(true);
    expect(verifies(created.secret, r)).toBe(false);
    const stored = await c.webhookEndpoints.findOne({ _id: created.endpoint._id });
    expect(stored).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
  });
});

describe("security: the outbox stays inside the server", () => {
  it("the blog's webhook fields (webhookOutbox, webhookPending, eventSeq) appear in no consumer or admin response", async () => {
    // A database of its own, served with delivery off: the events stay in the blog's outbox
    // while the responses are read (no relay anywhere empties it).
    const own = await useTestDb();
    const quiet = await startTestServer(own.db, { WEBHOOK_DELIVERY: "off" });
    const owner = new AdminClient(quiet.url);
    const ws = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
    const blog = blogApi(owner, ws);
    const id = await blog.create("Quiet", true);
    await blog.edit(id, "Quiet, edited");
    const stored = await collections(own.db).blogs.findOne({ _id: id });
    expect(stored?.webhookPending).toBe(true);
    expect(stored?.webhookOutbox).toHaveLength(2);
    expect(stored?.eventSeq).toBe(2);

    const key = (await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "k" })).body.secret;
    const consumer = { "x-api-key": key };
    const texts = [
      JSON.stringify((await owner.get(`/workspaces/${ws}/blogs/${id}`)).body),
      JSON.stringify((await owner.get(`/workspaces/${ws}/blogs`)).body),
      JSON.stringify(
        (await owner.patch(`/workspaces/${ws}/blogs/${id}`, { title: "Q" }, ANY_VERSION)).body,
      ),
      (await get(`${quiet.url}/api/consumer/blogs/${id}`, consumer)).text,
      (await get(`${quiet.url}/api/consumer/blogs`, consumer)).text,
      (await get(`${quiet.url}/api/consumer/blogs/by-slug/quiet`, consumer)).text,
      (await get(`${quiet.url}/api/consumer/changes`, consumer)).text,
    ];
    for (const text of texts) {
      expect(text).toContain(id);
      expect(text).not.toMatch(/webhook|eventSeq|evt_/i);
    }
    await quiet.stop();
  });
});
