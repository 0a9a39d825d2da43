// Webhook endpoints in the admin API (admin.yaml, tag Webhooks: listWebhookEndpoints,
// createWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint,
// rotateWebhookSecret, sendTestWebhook, listWebhookDeliveries, redeliverWebhook): the spec's
// shapes, every member reads, only owners change; the signing secret is shown once (create,
// rotate) and never in a list, a log line or raw in the database; test events and
// redeliveries are pending delivery documents the delivery worker sends; the delivery log pages
// newest first with each delivery's attempts. The worker is not part of these tests: attempts
// are inserted directly, as it would write them (collections.ts, WebhookAttemptDoc).
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import type {
  WebhookAttemptDoc,
  WebhookDeliveryDoc,
} from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Endpoint = components["schemas"]["WebhookEndpoint"];
type WithSecret = components["schemas"]["WebhookEndpointWithSecret"];
type Delivery = components["schemas"]["WebhookDelivery"];
type DeliveryPage = { data: Delivery[]; nextCursor: string | null };

const ALL_EVENTS = ["blog.released", "blog.updated", "blog.unreleased", "blog.removed"];
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let member: AdminClient;
let ws: string;
const secretsShown: string[] = [];

beforeAll(async () => {
  t = await useTestDb();
  // No delivery worker here: the attempts the log shows are inserted by the tests themselves.
  // These tests queue more test events than the default limit of 10 a minute per workspace
  // (test/webhooks/webhook-manual-limits.test.ts holds that limit): a higher one here.
  server = await startTestServer(t.db, {
    WEBHOOK_DELIVERY: "off",
    WEBHOOK_MANUAL_RATE_LIMIT: "1000/60",
  });
  owner = new AdminClient(server.url);
  ws = (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]
    ?.id as string;
  await stores(t.db).users.create({
    email: "mia@example.com",
    name: "Mia Member",
    password: "mia's long password",
  });
  await owner.post(`/workspaces/${ws}/members`, { email: "mia@example.com" });
  member = new AdminClient(server.url);
  await member.post("/session", { email: "mia@example.com", password: "mia's long password" });
});

const base = () => `/workspaces/${ws}/webhooks`;
async function create(body: Record<string, unknown> = {}) {
  const res = await owner.post<WithSecret>(base(), {
    url: "https://example.com/hooks/pressroom",
    description: "Rebuild the site",
    events: ALL_EVENTS,
    ...body,
  });
  if (res.status === 201) secretsShown.push(res.body.secret);
  return res;
}
const list = async () => (await owner.get<{ data: Endpoint[] }>(base())).body.data;
const deliveries = (endpointId: string, query = "") =>
  owner.get<DeliveryPage>(`${base()}/${endpointId}/deliveries${query}`);

describe("happy: endpoints (admin.yaml, createWebhookEndpoint … deleteWebhookEndpoint)", () => {
  it("an owner adds an endpoint: 201 with the spec's shape and a whsec_ secret of 32 bytes, not cached", async () => {
    const res = await create();
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.secret).toMatch(SECRET);
    expect(Buffer.from(res.body.secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(res.body.endpoint).toEqual({
      id: expect.stringMatching(/^we_[A-Za-z0-9]+$/),
      url: "https://example.com/hooks/pressroom",
      description: "Rebuild the site",
      events: ALL_EVENTS,
      enabled: true,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secretRotatedAt: null,
      previousSecretExpiresAt: null,
      lastSuccessAt: null,
      failingSince: null,
    });
  });

  it("list and get show the endpoint (oldest first) with its health, and never a secret", async () => {
    const second = await create({ url: "https://example.org/b", events: ["blog.removed"] });
    const id = second.body.endpoint.id;
    const at = new Date("2026-01-02T03:04:05.000Z");
    await stores(t.db).webhookHealth.insertOne({ _id: id, lastSuccessAt: at, failingSince: null });
    const all = await list();
    expect(all.at(-1)).toEqual({ ...second.body.endpoint, lastSuccessAt: at.toISOString() });
    const one = await owner.get<Endpoint>(`${base()}/${id}`);
    expect(one.body).toEqual(all.at(-1));
    for (const text of [JSON.stringify(all), JSON.stringify(one.body)]) {
      expect(text).not.toMatch(/whsec_|secret"/);
    }
    // Members read too.
    expect((await member.get<{ data: Endpoint[] }>(base())).body.data).toEqual(all);
    expect((await member.get(`${base()}/${id}`)).status).toBe(200);
  });

  it("update changes only the fields sent; enabled: true clears the server's disabledReason", async () => {
    const { id } = (await create()).body.endpoint;
    const changed = await owner.patch<Endpoint>(`${base()}/${id}`, {
      description: "Purge the CDN",
      events: ["blog.updated"],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      description: "Purge the CDN",
      events: ["blog.updated"],
      url: "https://example.com/hooks/pressroom",
      enabled: true,
    });
    await stores(t.db).webhookEndpoints.updateOne(
      { _id: id },
      { $set: { enabled: false, disabledReason: "Every delivery failed for 24 hours." } },
    );
    expect((await owner.get<Endpoint>(`${base()}/${id}`)).body).toMatchObject({
      enabled: false,
      disabledReason: "Every delivery failed for 24 hours.",
    });
    const on = await owner.patch<Endpoint>(`${base()}/${id}`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it("turning an endpoint back on, after a person turned it off, starts its failures from nothing (README, Webhooks: failing endpoints)", async () => {
    const { id } = (await create()).body.endpoint;
    const off = await owner.patch<Endpoint>(`${base()}/${id}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: null });
    const longAgo = new Date(Date.now() - 3 * 86_400_000);
    await stores(t.db).webhookHealth.insertOne({
      _id: id,
      lastSuccessAt: null,
      failingSince: longAgo,
    });
    expect((await owner.get<Endpoint>(`${base()}/${id}`)).body.failingSince).toBe(
      longAgo.toISOString(),
    );
    const on = await owner.patch<Endpoint>(`${base()}/${id}`, { enabled: true });
    expect(on.status).toBe(200);
    expect((await owner.get<Endpoint>(`${base()}/${id}`)).body).toMatchObject({
      enabled: true,
      failingSince: null,
    });
  });

  it("rotate gives a new secret once and keeps the previous one signing for about 24 hours", async () => {
    const created = await create();
    const { id } = created.body.endpoint;
    const before = Date.now();
    const res = await owner.post<WithSecret>(`${base()}/${id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    secretsShown.push(res.body.secret);
    expect(res.body.secret).toMatch(SECRET);
    expect(res.body.secret).not.toBe(created.body.secret);
    const expires = Date.parse(res.body.endpoint.previousSecretExpiresAt ?? "");
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 60_000);
    expect(expires - before).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    expect(res.body.endpoint.secretRotatedAt).not.toBeNull();
  });

  it("rotate with dropPrevious: true gives a new secret and keeps no previous one signing (admin.yaml, rotateWebhookSecret)", async () => {
    const created = await create();
    const { id } = created.body.endpoint;
    // A rotation with the grace period first: the drop ends that one's previous secret too.
    const first = await owner.post<WithSecret>(`${base()}/${id}/rotate-secret`, {
      dropPrevious: false,
    });
    expect(first.status).toBe(200);
    secretsShown.push(first.body.secret);
    expect(first.body.endpoint.previousSecretExpiresAt).not.toBeNull();
    const res = await owner.post<WithSecret>(`${base()}/${id}/rotate-secret`, {
      dropPrevious: true,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    secretsShown.push(res.body.secret);
    expect(res.body.secret).toMatch(SECRET);
    expect(res.body.secret).not.toBe(first.body.secret);
    expect(res.body.endpoint.previousSecretExpiresAt).toBeNull();
    expect(res.body.endpoint.secretRotatedAt).not.toBeNull();
    expect((await owner.get<Endpoint>(`${base()}/${id}`)).body.previousSecretExpiresAt).toBeNull();
    const stored = await stores(t.db).webhookEndpoints.findOne({ _id: id });
    expect(stored).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
    // A body that is not the spec's is refused, and nothing rotates.
    const bad = await owner.post(`${base()}/${id}/rotate-secret`, { dropPrevious: "yes" });
    expect(bad.status).toBe(400);
    expect((await stores(t.db).webhookEndpoints.findOne({ _id: id }))?.secret).toBe(stored?.secret);
  });

  it("members read an endpoint's URL with its query values and user info masked; owners read it whole (admin.yaml, WebhookEndpoint.url)", async () => {
    const url = "https://example.com/hooks/pressroom?token=s3cr3t-t0ken&v=2&bare-t0ken&empty=";
    const { id } = (await create({ url })).body.endpoint;
    const masked = "https://example.com/hooks/pressroom?token=…&v=…&…&empty=";
    expect((await owner.get<Endpoint>(`${base()}/${id}`)).body.url).toBe(url);
    expect((await list()).find((e) => e.id === id)?.url).toBe(url);
    const one = await member.get<Endpoint>(`${base()}/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.url).toBe(masked);
    const all = await member.get<{ data: Endpoint[] }>(base());
    expect(all.status).toBe(200);
    expect(all.body.data.find((e) => e.id === id)?.url).toBe(masked);
    expect(JSON.stringify(all.body)).not.toMatch(/s3cr3t|bare-t0ken/);
    // A URL without a query reads the same for everyone.
    const plain = (await create()).body.endpoint;
    expect((await member.get<Endpoint>(`${base()}/${plain.id}`)).body.url).toBe(plain.url);
    // User info (refused when saving now; masked should an old endpoint hold it).
    await stores(t.db).webhookEndpoints.updateOne(
      { _id: id },
      { $set: { url: "https://user:pa55word@example.com/hook?k=v" } },
    );
    expect((await member.get<Endpoint>(`${base()}/${id}`)).body.url).toBe(
      "https://…@example.com/hook?k=…",
    );
  });

  it("delete removes the endpoint and its delivery log", async () => {
    const { id } = (await create()).body.endpoint;
    const queued = await owner.post<Delivery>(`${base()}/${id}/test`);
    await insertAttempt(queued.body.id, id, 1);
    expect((await owner.delete(`${base()}/${id}`)).status).toBe(204);
    expect((await owner.get(`${base()}/${id}`)).status).toBe(404);
    const s = stores(t.db);
    expect(await s.webhookDeliveries.countDocuments({ endpointId: id })).toBe(0);
    expect(await s.webhookAttempts.countDocuments({ endpointId: id })).toBe(0);
  });
});

async function insertAttempt(
  deliveryId: string,
  endpointId: string,
  number: number,
  extra: Partial<WebhookAttemptDoc> = {},
) {
  const startedAt = new Date(Date.now() + number * 1000);
  await stores(t.db).webhookAttempts.insertOne({
    _id: `${deliveryId}#${String(number).padStart(2, "0")}`,
    deliveryId,
    endpointId,
    number,
    instanceId: "test",
    startedAt,
    leaseUntil: new Date(startedAt.getTime() + 30_000),
    finishedAt: startedAt,
    latencyMs: 40 + number,
    statusCode: 500,
    error: null,
    responseExcerpt: `<b>failure ${number}</b>`,
    ...extra,
  });
}

describe("happy: test events, redelivery and the delivery log (admin.yaml, sendTestWebhook, redeliverWebhook, listWebhookDeliveries)", () => {
  it("a test event is a webhook.test event for this endpoint and a pending delivery due now", async () => {
    const { id } = (await create()).body.endpoint;
    const res = await owner.post<Delivery>(`${base()}/${id}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      eventType: "webhook.test",
      blogId: null,
      state: "pending",
      redeliveryOf: null,
      attempts: [],
    });
    const s = stores(t.db);
    const doc = await s.webhookDeliveries.findOne({ _id: res.body.id });
    expect(doc).toMatchObject({
      endpointId: id,
      workspaceId: ws,
      eventId: res.body.eventId,
      state: "pending",
      attempts: 0,
      seq: 0,
      blogId: null,
      redeliveryOf: null,
      settledAt: null,
    });
    expect(doc?.nextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await s.webhookEvents.findOne({ _id: res.body.eventId })).toMatchObject({
      type: "webhook.test",
      workspaceId: ws,
      endpointId: id,
      blogId: null,
      slug: null,
      seq: 0,
    });
  });

  it("redeliver queues a new pending delivery of the same event, naming the one it repeats", async () => {
    const { id } = (await create()).body.endpoint;
    const first = (await owner.post<Delivery>(`${base()}/${id}/test`)).body;
    const res = await owner.post<Delivery>(`${base()}/${id}/deliveries/${first.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.id).not.toBe(first.id);
    expect(res.body).toMatchObject({
      eventId: first.eventId,
      eventType: "webhook.test",
      state: "pending",
      redeliveryOf: first.id,
    });
    const doc = await stores(t.db).webhookDeliveries.findOne({ _id: res.body.id });
    expect(doc).toMatchObject({ state: "pending", attempts: 0, redeliveryOf: first.id });
  });

  it("the log pages newest first with a cursor, each delivery with its attempts newest first", async () => {
    const { id } = (await create()).body.endpoint;
    const queued: string[] = [];
    for (let i = 0; i < 5; i++) {
      queued.unshift((await owner.post<Delivery>(`${base()}/${id}/test`)).body.id);
      await new Promise((r) => setTimeout(r, 2));
    }
    // Two share a createdAt: the _id breaks the tie, and no page repeats or skips one.
    const s = stores(t.db);
    const tied = new Date();
    await s.webhookDeliveries.updateMany(
      { _id: { $in: queued.slice(1, 3) } },
      { $set: { createdAt: tied } },
    );
    const newest = queued[0] as string;
    await insertAttempt(newest, id, 1);
    await insertAttempt(newest, id, 2, {
      statusCode: null,
      error: "Timed out after 10 s.",
      responseExcerpt: null,
    });
    await insertAttempt(queued[1] as string, id, 1, { statusCode: 204 });
    const seen: Delivery[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof deliveries>> = await deliveries(
        id,
        `?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    const expected = await s.webhookDeliveries
      .find({ endpointId: id })
      .sort({ createdAt: -1, _id: -1 })
      .toArray();
    expect(seen.map((d) => d.id)).toEqual(expected.map((d: WebhookDeliveryDoc) => d._id));
    const top = seen.find((d) => d.id === newest);
    expect(top?.attempts).toEqual([
      {
        number: 2,
        startedAt: expect.any(String),
        latencyMs: 42,
        statusCode: null,
        error: "Timed out after 10 s.",
        responseExcerpt: null,
      },
      {
        number: 1,
        startedAt: expect.any(String),
        latencyMs: 41,
        statusCode: 500,
        error: null,
        responseExcerpt: "<b>failure 1</b>",
      },
    ]);
    expect(seen.find((d) => d.id === queued[1])?.attempts.map((a) => a.statusCode)).toEqual([204]);
    // Members read the log too.
    expect((await member.get(`${base()}/${id}/deliveries`)).status).toBe(200);
  });
});

describe("error: what the spec refuses (admin.yaml, Webhooks)", () => {
  it("a plain http URL is 400 with the reason", async () => {
    const res = await create({ url: "http://example.com/hook" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "The webhook URL must start with https://." });
  });

  it("the 21st endpoint of a workspace is 409", async () => {
    const have = (await list()).length;
    for (let i = have; i < 20; i++) expect((await create()).status).toBe(201);
    const res = await create();
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "A workspace can have at most 20 webhook endpoints." });
    // Make room again for the tests after this one.
    for (const e of (await list()).slice(0, 10)) await owner.delete(`${base()}/${e.id}`);
  });

  it("a disabled endpoint gets no test event nor redelivery (409), and nothing is queued", async () => {
    const { id } = (await create()).body.endpoint;
    const first = (await owner.post<Delivery>(`${base()}/${id}/test`)).body;
    await owner.patch(`${base()}/${id}`, { enabled: false });
    const count = () => stores(t.db).webhookDeliveries.countDocuments({ endpointId: id });
    const before = await count();
    const test = await owner.post(`${base()}/${id}/test`);
    expect(test.status).toBe(409);
    expect(test.body).toEqual({ message: "This endpoint is disabled; enable it first." });
    const again = await owner.post(`${base()}/${id}/deliveries/${first.id}/redeliver`);
    expect(again.status).toBe(409);
    expect(await count()).toBe(before);
  });

  it("a cursor this server never made is 400", async () => {
    const { id } = (await create()).body.endpoint;
    expect((await deliveries(id, "?cursor=bm9wZQ")).status).toBe(400);
  });
});

describe("security: roles, other endpoints' deliveries, the secret (admin.yaml, Webhooks; README, secrets)", () => {
  it("a member gets 403 on every owner-only operation, and nothing changes", async () => {
    const { id } = (await create()).body.endpoint;
    const dlv = (await owner.post<Delivery>(`${base()}/${id}/test`)).body.id;
    const before = JSON.stringify(await owner.get(`${base()}/${id}`).then((r) => r.body));
    const count = () => stores(t.db).webhookDeliveries.countDocuments({ endpointId: id });
    const queued = await count();
    const calls: [string, string, unknown?][] = [
      ["POST", base(), { url: "https://example.com/m", events: ALL_EVENTS }],
      ["PATCH", `${base()}/${id}`, { enabled: false }],
      ["DELETE", `${base()}/${id}`],
      ["POST", `${base()}/${id}/rotate-secret`],
      ["POST", `${base()}/${id}/test`],
      ["POST", `${base()}/${id}/deliveries/${dlv}/redeliver`],
    ];
    for (const [method, path, body] of calls) {
      const res = await member.call(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect(JSON.stringify((await owner.get(`${base()}/${id}`)).body)).toBe(before);
    expect(await count()).toBe(queued);
  });

  it("another endpoint's delivery cannot be redelivered through this one (404)", async () => {
    const a = (await create()).body.endpoint.id;
    const b = (await create()).body.endpoint.id;
    const ofA = (await owner.post<Delivery>(`${base()}/${a}/test`)).body.id;
    const res = await owner.post(`${base()}/${b}/deliveries/${ofA}/redeliver`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Webhook delivery not found." });
    expect(await stores(t.db).webhookDeliveries.countDocuments({ redeliveryOf: ofA })).toBe(0);
  });

  it("an endpoint is found only through its own workspace: another workspace's path gets 404 on every operation", async () => {
    const { id } = (await create()).body.endpoint;
    const dlv = (await owner.post<Delivery>(`${base()}/${id}/test`)).body.id;
    const other = (await owner.post<{ id: string }>("/workspaces", { name: "Second desk" })).body
      .id;
    const there = `/workspaces/${other}/webhooks/${id}`;
    const calls: [string, string, unknown?][] = [
      ["GET", there],
      ["PATCH", there, { enabled: false }],
      ["POST", `${there}/rotate-secret`],
      ["POST", `${there}/test`],
      ["GET", `${there}/deliveries`],
      ["POST", `${there}/deliveries/${dlv}/redeliver`],
      ["DELETE", there],
    ];
    for (const [method, path, body] of calls) {
      const res = await owner.call(method, path, body);
      expect([method, path, res.status, res.body]).toEqual([
        method,
        path,
        404,
        { message: "Webhook endpoint not found." },
      ]);
    }
    expect((await owner.get<Endpoint>(`${base()}/${id}`)).body.enabled).toBe(true);
  });

  it("a secret shown once is in no later answer, no log line, and not raw in the database", async () => {
    expect(secretsShown.length).toBeGreaterThan(3);
    const answers = [
      JSON.stringify((await owner.get(base())).body),
      ...(await Promise.all(
        (
          await list()
        ).map(async (e) =>
          JSON.stringify([
            (await owner.get(`${base()}/${e.id}`)).body,
            (await deliveries(e.id)).body,
          ]),
        ),
      )),
    ].join("\n");
    const logs = server.logLines.join("\n");
    const s = stores(t.db);
    const stored: string[] = [];
    for (const c of [s.webhookEndpoints, s.webhookEvents, s.webhookDeliveries, s.webhookHealth]) {
      for (const doc of await c.find({}).toArray()) stored.push(JSON.stringify(doc));
    }
    const db = stored.join("\n");
    expect(db).toContain("we_"); // the scan saw the endpoints
    for (const secret of secretsShown) {
      const bytes = Buffer.from(secret.slice("whsec_".length), "base64");
      for (const spelling of [secret, bytes.toString("base64"), bytes.toString("hex")]) {
        expect(answers).not.toContain(spelling);
        expect(logs).not.toContain(spelling);
        expect(db).not.toContain(spelling);
      }
    }
    expect(logs).not.toContain("whsec_");
  });
});
