import { beforeAll, describe, expect, it } from "vitest";
import {
  get,
  type SeededWorkspace,
  seedWorkspace,
  withWrongChecksum,
} from "../support/fixtures.js";
import { setKeyRateLimit, setWorkspaceRateLimit } from "../support/rate-limits.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Limits are set by writing `rateLimit` on the key's or workspace's document (test/support/
// rate-limits.ts), as the admin API's settings do. A day-long window: no window ends mid-test
// (unless the run crosses midnight UTC).
const DAY = 86_400;
const POLICY = /^"default";q=(\d+);w=(\d+)$/;
const CURRENT = /^"default";r=(\d+);t=(\d+)$/;

let t: TestDb;
let server: TestServer;
const url = (path = "/blogs") => `${server.url}/api/consumer${path}`;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
});

const fresh = async (name: string): Promise<SeededWorkspace> => seedWorkspace(t.db, name, 1);

describe('rate limits (openapi.yaml, "Caching and limits")', () => {
  it("a key over its own limit gets 429 with Retry-After and {message}; every answer carries RateLimit-Policy and RateLimit", async () => {
    const w = await fresh("Limited");
    await setKeyRateLimit(t.db, w.keyId, { requests: 5, windowSeconds: DAY });
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await get(url(), { "x-api-key": w.key }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    for (const a of answers) {
      expect(a.headers.get("ratelimit-policy")).toBe(`"default";q=5;w=${DAY}`);
      expect(a.headers.get("ratelimit")).toMatch(CURRENT);
    }
    expect(answers.map((a) => Number(CURRENT.exec(a.headers.get("ratelimit") ?? "")?.[1]))).toEqual(
      [4, 3, 2, 1, 0, 0, 0],
    );
    const refused = answers[5];
    expect(refused?.body).toEqual({
      message: "Rate limit exceeded: too many requests with this API key.",
    });
    const retryAfter = Number(refused?.headers.get("retry-after"));
    const resetT = Number(CURRENT.exec(refused?.headers.get("ratelimit") ?? "")?.[2]);
    // Retry-After is the seconds to the window's end, as `t` says.
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(DAY);
    expect(Math.abs(retryAfter - resetT)).toBeLessThanOrEqual(1);
  });

  it("a 304, a 404 and a 400 count and carry the fields too; a refused request counts as well", async () => {
    const w = await fresh("Counted");
    await setKeyRateLimit(t.db, w.keyId, { requests: 4, windowSeconds: DAY });
    const first = await get(url(), { "x-api-key": w.key });
    const etag = first.headers.get("etag") ?? "";
    const notModified = await get(url(), { "x-api-key": w.key, "if-none-match": etag });
    const notFound = await get(url("/blogs/b_doesNotExist"), { "x-api-key": w.key });
    const bad = await get(url("/blogs?limit=0"), { "x-api-key": w.key });
    expect([first.status, notModified.status, notFound.status, bad.status]).toEqual([
      200, 304, 404, 400,
    ]);
    for (const a of [notModified, notFound, bad]) {
      expect(a.headers.get("ratelimit-policy")).toMatch(POLICY);
      expect(a.headers.get("ratelimit")).toMatch(CURRENT);
    }
    expect((await get(url(), { "x-api-key": w.key })).status).toBe(429);
  });

  it("requests refused with 401 are not counted and carry no rate-limit fields", async () => {
    const w = await fresh("Unknown");
    await setKeyRateLimit(t.db, w.keyId, { requests: 2, windowSeconds: DAY });
    for (let i = 0; i < 5; i++) {
      const refused = await get(url(), { "x-api-key": withWrongChecksum(w.key) });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("ratelimit")).toBeNull();
    }
    expect((await get(url(), { "x-api-key": w.key })).status).toBe(200);
    expect((await get(url(), { "x-api-key": w.key })).status).toBe(200);
  });

  it("a key without a limit of its own has its workspace's default; its own limit overrides it at once", async () => {
    const w = await fresh("Defaulted");
    await setWorkspaceRateLimit(t.db, w.workspaceId, { requests: 3, windowSeconds: DAY });
    const defaulted = await get(url(), { "x-api-key": w.key });
    expect(defaulted.headers.get("ratelimit-policy")).toBe(`"default";q=3;w=${DAY}`);
    await setKeyRateLimit(t.db, w.keyId, { requests: 50, windowSeconds: DAY });
    const own = await get(url(), { "x-api-key": w.key });
    expect(own.headers.get("ratelimit-policy")).toBe(`"default";q=50;w=${DAY}`);
  });

  it("a changed workspace default reaches a running instance within 5 seconds (its cache); a key's own limit at once", async () => {
    const w = await fresh("Cached");
    await setWorkspaceRateLimit(t.db, w.workspaceId, { requests: 30, windowSeconds: DAY });
    const policy = async () =>
      (await get(url(), { "x-api-key": w.key })).headers.get("ratelimit-policy");
    expect(await policy()).toBe(`"default";q=30;w=${DAY}`);
    await setWorkspaceRateLimit(t.db, w.workspaceId, { requests: 40, windowSeconds: DAY });
    const changed = Date.now();
    let seen = await policy();
    while (seen !== `"default";q=40;w=${DAY}` && Date.now() - changed < 8000) {
      await new Promise((r) => setTimeout(r, 250));
      seen = await policy();
    }
    expect(seen).toBe(`"default";q=40;w=${DAY}`);
    expect(Date.now() - changed).toBeLessThan(5000 + 1000);
  });

  it("with no limit set anywhere, the server's default applies: 1,200 requests per 60 seconds (README, CONSUMER_RATE_LIMIT)", async () => {
    const w = await fresh("ServerDefault");
    const a = await get(url(), { "x-api-key": w.key });
    expect(a.headers.get("ratelimit-policy")).toBe('"default";q=1200;w=60');
    expect(Number(CURRENT.exec(a.headers.get("ratelimit") ?? "")?.[2])).toBeLessThanOrEqual(60);
  });

  it("with the server's default off and no limit set, responses carry no rate-limit fields", async () => {
    const off = await startTestServer(t.db, { CONSUMER_RATE_LIMIT: "off" });
    const w = await fresh("Unlimited");
    const a = await get(`${off.url}/api/consumer/blogs`, { "x-api-key": w.key });
    expect(a.status).toBe(200);
    expect(a.headers.get("ratelimit-policy")).toBeNull();
    expect(a.headers.get("ratelimit")).toBeNull();
    // A limit set on the key still applies there.
    await setKeyRateLimit(t.db, w.keyId, { requests: 1, windowSeconds: DAY });
    expect((await get(`${off.url}/api/consumer/blogs`, { "x-api-key": w.key })).status).toBe(200);
    expect((await get(`${off.url}/api/consumer/blogs`, { "x-api-key": w.key })).status).toBe(429);
  });

  it("well under the limit, a request costs no database command beyond the key's lookup", async () => {
    const w = await fresh("NoRoundTrip");
    await setKeyRateLimit(t.db, w.keyId, { requests: 1000, windowSeconds: DAY });
    const blogId = w.released[0] ?? "";
    await get(url(`/blogs/${blogId}`), { "x-api-key": w.key });
    // The first count's flush (within 250 ms): its write, then its read.
    const counters = t.db.collection<{ _id: string; n: number }>("rateCounters");
    const end = Date.now() + 10_000;
    const ofKey = { _id: { $gt: `${w.keyId}/`, $lt: `${w.keyId}0` }, n: 1 };
    while ((await counters.countDocuments(ofKey)) === 0 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, 200));
    const before = t.commands.length;
    await get(url(`/blogs/${blogId}`), { "x-api-key": w.key });
    const sent = t.commands.slice(before).filter((c) => c.collection === "rateCounters");
    expect(sent).toEqual([]);
  });
});
