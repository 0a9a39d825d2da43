import type { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashKey } from "../../server/src/keys/key-format.js";
import { ensureIndexes } from "../../server/src/platform/db/indexes.js";
import { connectMongo } from "../../server/src/platform/db/mongo.js";
import { get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { firstHost, proxiedUri, TcpProxy } from "../support/tcp-proxy.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let proxy: TcpProxy;
let client: MongoClient;
let server: TestServer;
let a: SeededWorkspace;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await useTestDb();
  a = await seedWorkspace(t.db, "Faults");
  const { host, port } = firstHost(t.uri);
  proxy = new TcpProxy(host, port);
  await proxy.start();
  // The production client, with its timeouts: what bounds a request when the database fails.
  client = await connectMongo(proxiedUri(t.uri, proxy.port), 1000);
  const db = client.db(t.name);
  await ensureIndexes(db);
  server = await startTestServer(db, { DB_TIMEOUT_MS: "1000", LAST_USED_FLUSH_MS: "100" });
});
afterAll(async () => {
  await server.stop();
  await client.close();
  await proxy.stop();
});

/** Requests in a loop until `stop()`: every status and the slowest answer. */
function steadyTraffic(key: string) {
  const statuses: number[] = [];
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const res = await get(`${server.url}/api/consumer/blogs?limit=5`, { "x-api-key": key });
      slowest = Math.max(slowest, Date.now() - started);
      statuses.push(res.status);
      if (res.status !== 200) expect(res.body).toEqual({ message: "Internal server error." });
      await sleep(20);
    }
  })();
  return {
    statuses,
    slowest: () => slowest,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

describe("faults", () => {
  it("the database stops during steady traffic: prompt 500s, the process stays up, recovery within 5 s, no lastUsedAt lost", async () => {
    const minted = await stores(t.db).keys.mint(a.workspaceId, "through the outage");
    const traffic = steadyTraffic(minted.key);
    await sleep(300);
    // The last success before the outage is what lastUsedAt must end up at (or later).
    const lastBefore = new Date();
    await proxy.stop();
    await sleep(1500);
    await proxy.start();
    const back = Date.now();
    while (traffic.statuses.at(-1) !== 200 && Date.now() - back < 10_000) await sleep(50);
    const recoveredIn = Date.now() - back;
    await sleep(300);
    await traffic.stop();

    expect(traffic.statuses).toContain(500);
    expect(traffic.statuses.at(-1)).toBe(200);
    expect(recoveredIn).toBeLessThan(5000);
    // Bounded by DB_TIMEOUT_MS (server selection, then 2× for a socket): never a hang.
    expect(traffic.slowest()).toBeLessThan(8000);
    expect(traffic.statuses.every((s) => s === 200 || s === 500)).toBe(true);
    const doc = await stores(t.db).apiKeys.findOne({ _id: hashKey(minted.key) });
    expect(doc?.lastUsedAt?.getTime()).toBeGreaterThanOrEqual(lastBefore.getTime() - 1000);
  });

  it("a pending lastUsedAt survives a failed flush and is written once the database is back", async () => {
    const minted = await stores(t.db).keys.mint(a.workspaceId, "flush retry");
    expect(
      (await get(`${server.url}/api/consumer/blogs`, { "x-api-key": minted.key })).status,
    ).toBe(200);
    const usedAt = Date.now();
    await proxy.stop(); // the flush 100 ms later fails
    await sleep(1500);
    expect(
      (await stores(t.db).apiKeys.findOne({ _id: hashKey(minted.key) }))?.lastUsedAt,
    ).toBeNull();
    await proxy.start();
    const deadline = Date.now() + 5000;
    let lastUsedAt: Date | null | undefined = null;
    while (lastUsedAt === null && Date.now() < deadline) {
      await sleep(100);
      lastUsedAt = (await stores(t.db).apiKeys.findOne({ _id: hashKey(minted.key) }))?.lastUsedAt;
    }
    expect(lastUsedAt?.getTime()).toBeGreaterThanOrEqual(usedAt - 1000);
    expect(server.logLines.some((l) => l.includes("lastUsedAt flush failed; will retry"))).toBe(
      true,
    );
  });

  it("a stalled database does not pile up work: requests end with 500 within the bound, memory stays bounded", async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    proxy.hold();
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        get(`${server.url}/api/consumer/blogs`, { "x-api-key": a.key }),
      ),
    );
    const took = Date.now() - started;
    proxy.release();
    expect(results.every((r) => r.status === 500)).toBe(true);
    expect(took).toBeLessThan(10_000);
    const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    expect(heapGrowthMb).toBeLessThan(100);
    // And it serves again once the database answers.
    let status = 0;
    const deadline = Date.now() + 5000;
    while (status !== 200 && Date.now() < deadline) {
      status = (await get(`${server.url}/api/consumer/blogs`, { "x-api-key": a.key })).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
  });
});
