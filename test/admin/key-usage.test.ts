import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { purgeExpired } from "../../server/src/platform/db/ttl-sweeper.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { get, stores } from "../support/fixtures.js";
import { setKeyRateLimit } from "../support/rate-limits.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type MintedKey = components["schemas"]["MintedKey"];
type KeyUsage = components["schemas"]["KeyUsage"];
type WorkspaceUsage = components["schemas"]["WorkspaceUsage"];
type Bucket = components["schemas"]["UsageBucket"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let member: AdminClient;
let outsider: AdminClient;
let ws: string;
let minted: MintedKey;

const HOUR = 3_600_000;
const DAY = 86_400_000;
const consumer = (path: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": minted.secret, ...headers });
const sum = (buckets: Bucket[]) =>
  buckets.reduce(
    (a, b) => ({
      ok: a.ok + b.ok,
      notModified: a.notModified + b.notModified,
      notFound: a.notFound + b.notFound,
      rateLimited: a.rateLimited + b.rateLimited,
      other: a.other + b.other,
    }),
    { ok: 0, notModified: 0, notFound: 0, rateLimited: 0, other: 0 },
  );

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "100" });
  owner = new AdminClient(server.url);
  ws = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  minted = (await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Site" })).body;
  const s = stores(t.db);
  await s.users.create({ email: "m@example.com", name: "Mem", password: "member's password" });
  await owner.post(`/workspaces/${ws}/members`, { email: "m@example.com" });
  member = new AdminClient(server.url);
  await member.post("/session", { email: "m@example.com", password: "member's password" });
  await s.users.create({ email: "o@example.com", name: "Out", password: "outsider password" });
  outsider = new AdminClient(server.url);
  await outsider.post("/session", { email: "o@example.com", password: "outsider password" });

  // 3 ok, 1 notModified, 1 notFound, 1 other (400), then over the limit: 2 rateLimited.
  await setKeyRateLimit(t.db, minted.key.id, { requests: 6, windowSeconds: 86_400 });
  const first = await consumer("/blogs");
  await consumer("/tags");
  await consumer("/changes");
  await consumer("/blogs", { "if-none-match": first.headers.get("etag") ?? "" });
  await consumer("/blogs/b_missing");
  await consumer("/blogs?limit=0");
  await consumer("/blogs");
  await consumer("/blogs");
  // Not counted: no key known.
  await get(`${server.url}/api/consumer/blogs`, { "x-api-key": "cp_live_nope" });
  // Counted in memory, written within LAST_USED_FLUSH_MS.
  const end = Date.now() + 5000;
  while (Date.now() < end) {
    if ((await t.db.collection("keyUsage").countDocuments()) >= 3) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300));
});

describe('usage per key (admin.yaml, "getKeyUsage", "getWorkspaceUsage")', () => {
  const expected = { ok: 3, notModified: 1, notFound: 1, rateLimited: 2, other: 1 };

  it("counts each response of the key by outcome, per day, zero-filled over the last 30 days by default", async () => {
    const res = await owner.get<KeyUsage>(`/workspaces/${ws}/keys/${minted.key.id}/usage`);
    expect(res.status).toBe(200);
    expect(res.body.granularity).toBe("day");
    expect(res.body.data).toHaveLength(30);
    const today = new Date(Math.floor(Date.now() / DAY) * DAY).toISOString();
    expect(res.body.data.at(-1)?.start).toBe(today);
    expect(sum(res.body.data)).toEqual(expected);
    expect(res.body.data.at(-1)).toMatchObject(expected);
  });

  it("per hour within the last 48 hours, zero-filled", async () => {
    const from = new Date(Date.now() - 5 * HOUR).toISOString();
    const res = await owner.get<KeyUsage>(
      `/workspaces/${ws}/keys/${minted.key.id}/usage?granularity=hour&from=${encodeURIComponent(from)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.granularity).toBe("hour");
    expect(res.body.data).toHaveLength(6);
    expect(sum(res.body.data)).toEqual(expected);
  });

  it("the workspace's total per day sums its keys", async () => {
    const res = await owner.get<WorkspaceUsage>(`/workspaces/${ws}/usage`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(30);
    expect(sum(res.body.data)).toEqual(expected);
  });

  it("members may read; non-members get 404, as for every workspace path", async () => {
    expect((await member.get(`/workspaces/${ws}/keys/${minted.key.id}/usage`)).status).toBe(200);
    expect((await member.get(`/workspaces/${ws}/usage`)).status).toBe(200);
    expect((await outsider.get(`/workspaces/${ws}/keys/${minted.key.id}/usage`)).status).toBe(404);
    expect((await outsider.get(`/workspaces/${ws}/usage`)).status).toBe(404);
  });

  it("an unknown key is 404", async () => {
    expect((await owner.get(`/workspaces/${ws}/keys/key_unknown/usage`)).status).toBe(404);
  });

  it("bad spans are 400: to before from, more than 90 days, hours older than 48 hours, not a date", async () => {
    const path = `/workspaces/${ws}/keys/${minted.key.id}/usage`;
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const now = Date.now();
    for (const query of [
      `from=${iso(now)}&to=${iso(now - DAY)}`,
      `from=${iso(now - 100 * DAY)}`,
      `granularity=hour&from=${iso(now - 50 * HOUR)}`,
      "from=yesterday",
      "granularity=week",
    ]) {
      const res = await owner.get<{ message: string }>(`${path}?${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.message).toBe("string");
    }
    expect((await owner.get(`/workspaces/${ws}/usage?from=${iso(now - 100 * DAY)}`)).status).toBe(
      400,
    );
  });

  it("closing the app writes the counts still in memory (as it does lastUsedAt)", async () => {
    // A flush window longer than the test: only closing can write these.
    const slow = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "3600000" });
    const other = (await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Closing" })).body;
    for (let i = 0; i < 3; i++) {
      await get(`${slow.url}/api/consumer/blogs`, { "x-api-key": other.secret });
    }
    const ofKey = { _id: { $gt: `${other.key.id}/`, $lt: `${other.key.id}0` } };
    expect(await t.db.collection<{ _id: string }>("keyUsage").countDocuments(ofKey)).toBe(0);
    await slow.stop();
    const day = await t.db
      .collection<{ _id: string; ok: number }>("keyUsage")
      .findOne({ _id: { $gt: `${other.key.id}/d/`, $lt: `${other.key.id}/d0` } });
    expect(day?.ok).toBe(3);
  });

  it("the sweeper deletes expired buckets and rate-limit counters (the embedded database has no TTL)", async () => {
    const c = collections(t.db);
    const past = new Date(Date.now() - 1000);
    await c.keyUsage.insertOne({
      _id: `${minted.key.id}/h/2000-01-01T00:00:00.000Z`,
      start: new Date(0),
      ok: 1,
      notModified: 0,
      notFound: 0,
      rateLimited: 0,
      other: 0,
      expiresAt: past,
    });
    await c.rateCounters.insertOne({ _id: `${minted.key.id}/0/gone`, n: 3, expiresAt: past });
    const purged = await purgeExpired(c, new Date());
    expect(purged.keyUsage).toBe(1);
    expect(purged.rateCounters).toBe(1);
    // The live buckets stay.
    expect(await c.keyUsage.countDocuments()).toBeGreaterThanOrEqual(3);
  });

  it("the buckets expire: hours after 48 hours, days after 90 (TTL on MongoDB, the sweeper on the embedded database)", async () => {
    const docs = await t.db
      .collection<{ _id: string; start: Date; expiresAt: Date }>("keyUsage")
      .find({})
      .toArray();
    for (const doc of docs) {
      const kept = doc.expiresAt.getTime() - doc.start.getTime();
      expect(kept).toBe(doc._id.includes("/h/") ? 49 * HOUR : 91 * DAY);
    }
  });
});
