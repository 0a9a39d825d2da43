import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { hashKey } from "../../server/src/keys/key-format.js";
import { ensureIndexes } from "../../server/src/platform/db/indexes.js";
import { connectMongo } from "../../server/src/platform/db/mongo.js";
import {
  type EmbeddedDb,
  startEmbeddedDb,
} from "../../server/src/platform/embedded-db/launcher.js";
import { get, seedWorkspace, stores } from "../support/fixtures.js";
import { unthrottle } from "../support/rate-limits.js";
import { recordDatabase } from "../support/secret-scan.js";
import { startTestServer } from "../support/test-server.js";

// This file restarts a database process, so it starts one of its own: the run-wide database is
// shared by every test file. With MONGODB_URI there is no embedded database to restart.
const external = (process.env.MONGODB_URI ?? "") !== "";
const SKIP_REASON =
  "MONGODB_URI is set: the suite runs against that database, and this test needs an embedded " +
  "database process of its own to restart";

const DB_TIMEOUT_MS = 1000;
const RESTARTS = 2;
/** From the database accepting connections again to the server answering 200 again. */
const RECOVERY_BOUND_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the embedded database on `dataDir` and `port` (0: a free one). Coming back on the same
 * port, another process may hold it for a moment: retried for up to 10 s.
 */
async function startDb(dataDir: string, port: number): Promise<EmbeddedDb> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await startEmbeddedDb({ dataDir, port, onProgress: () => {} });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(250);
    }
  }
}

interface Answer {
  startedAt: number;
  tookMs: number;
  status: number;
  body: unknown;
}

/** `loops` clients each requesting in a loop until `stop()`: every answer, in order. */
function steadyTraffic(url: string, key: string, loops: number) {
  const answers: Answer[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      const startedAt = Date.now();
      const res = await get(url, { "x-api-key": key });
      answers.push({
        startedAt,
        tookMs: Date.now() - startedAt,
        status: res.status,
        body: res.body,
      });
      await sleep(20);
    }
  };
  const all = Promise.all(Array.from({ length: loops }, loop));
  return {
    answers,
    lastOkSince: (since: number) =>
      answers.findLast((a) => a.status === 200 && a.startedAt >= since),
    stop: async () => {
      running = false;
      await all;
    },
  };
}

describe("the embedded database process restarts", () => {
  it("under steady consumer traffic the server recovers on its own: 500s while it is down, 200s again within 10 s of it being back, no crash, no lastUsedAt lost, data kept", async ({
    skip,
    onTestFinished,
  }) => {
    skip(external, SKIP_REASON);

    const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-restart-db-"));
    let db = await startDb(dataDir, 0);
    const port = Number(new URL(db.uri).port);
    const monitorResets: string[] = [];
    // The production client, with its timeouts and its recovery.
    const client = await connectMongo(db.uri, DB_TIMEOUT_MS, (m) => monitorResets.push(m));
    const database = client.db("pressroom_restart");
    await ensureIndexes(database);
    const seeded = await seedWorkspace(database, "Restart");
    // Three loops send some 100 requests a second with one key, over the default limit
    // (README, "Rate limits"): this test is about the outage, not limits.
    await unthrottle(database, seeded.keyId);
    const server = await startTestServer(database, {
      DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
      LAST_USED_FLUSH_MS: "100",
    });
    const traffic = steadyTraffic(`${server.url}/api/consumer/blogs`, seeded.key, 3);
    onTestFinished(async () => {
      await traffic.stop();
      await server.stop();
      const docs: string[] = [];
      for (const { name } of await database.listCollections().toArray()) {
        for (const doc of await database.collection(name).find({}).toArray()) {
          docs.push(JSON.stringify(doc));
        }
      }
      recordDatabase(docs);
      await client.close();
      await db.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    /** Polls the key's lastUsedAt (with a client of its own) until it is `atLeast` or later. */
    const lastUsedAtReaches = async (atLeast: number): Promise<boolean> => {
      const reader = await MongoClient.connect(db.uri, { serverSelectionTimeoutMS: 10_000 });
      try {
        const keys = stores(reader.db("pressroom_restart")).apiKeys;
        const deadline = Date.now() + 5000;
        for (;;) {
          const doc = await keys.findOne({ _id: hashKey(seeded.key) });
          if ((doc?.lastUsedAt?.getTime() ?? 0) >= atLeast) return true;
          if (Date.now() > deadline) return false;
          await sleep(100);
        }
      } finally {
        await reader.close();
      }
    };

    const serving = Date.now();
    while (traffic.lastOkSince(serving) === undefined) await sleep(20);
    for (let restart = 1; restart <= RESTARTS; restart++) {
      await sleep(300);
      // The key's lastUsedAt must end up at the start of this request or later.
      const lastOkBefore = traffic.lastOkSince(0);
      await db.stop();
      await sleep(1500);
      db = await startDb(dataDir, port);
      expect(db.uri).toBe(`mongodb://127.0.0.1:${port}/`);
      const back = Date.now();
      while (traffic.lastOkSince(back) === undefined && Date.now() - back < RECOVERY_BOUND_MS) {
        await sleep(50);
      }
      const recovered = traffic.lastOkSince(back);
      expect(recovered, `restart ${restart}: no 200 within ${RECOVERY_BOUND_MS} ms`).toBeDefined();

      // Written to the restarted database, by the retried flush.
      expect(await lastUsedAtReaches(lastOkBefore?.startedAt ?? 0)).toBe(true);
    }
    await sleep(300);
    await traffic.stop();

    const statuses = traffic.answers.map((a) => a.status);
    expect(statuses).toContain(500);
    expect(statuses.every((s) => s === 200 || s === 500)).toBe(true);
    for (const a of traffic.answers) {
      if (a.status === 500) expect(a.body).toEqual({ message: "Internal server error." });
    }
    // Bounded by DB_TIMEOUT_MS (server selection, then 2× for a socket): never a hang.
    expect(Math.max(...traffic.answers.map((a) => a.tookMs))).toBeLessThan(8 * DB_TIMEOUT_MS);
    // The same process still serves, from the data written before the restarts.
    const last = traffic.answers.at(-1);
    expect(last?.status).toBe(200);
    const page = last?.body as { data: { id: string }[] } | undefined;
    expect(page?.data.map((b) => b.id)).toEqual(seeded.released);
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
    expect((await get(`${server.url}/readyz`)).status).toBe(200);
    // Requests after the restarts are recorded too.
    expect(await lastUsedAtReaches(traffic.lastOkSince(0)?.startedAt ?? Infinity)).toBe(true);
    // For the record: how often the driver's monitor had to be unstuck (see mongo.ts).
    if (monitorResets.length > 0) console.log(monitorResets.join("\n"));
  }, 120_000);
});
