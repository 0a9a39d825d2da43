// Writes of any size (server/embedded-db/README.md, "Writes of any size"): every path of the app
// that deletes many documents in one statement does so beyond SQLite's 32,766 bound variables,
// the limit at which stock FerretDB's `deleteMany` failed whole ("too many SQL variables"). Each
// path runs as the server runs it (its store or job function, on the real database), over more
// matching documents than that limit, beside documents it must keep.
import { randomBytes } from "node:crypto";
import type { Collection, Document, OptionalUnlessRequiredId } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { changeLog } from "../../server/src/changes/change-log.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { purgeExpired } from "../../server/src/platform/db/ttl-sweeper.js";
import { secretBox } from "../../server/src/platform/secret-box.js";
import { sessionsStore } from "../../server/src/sessions/sessions-store.js";
import { endpointsStore } from "../../server/src/webhooks/endpoints-store.js";
import { purgeWebhookLog } from "../../server/src/webhooks/retention.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

/** Over SQLite's default SQLITE_MAX_VARIABLE_NUMBER (32,766), the old limit of one deleteMany. */
const OVER_LIMIT = 33_000;
const DAY = 86_400_000;
const NOW = Date.parse("2031-06-01T00:00:00Z");
const LONG_AGO = new Date(NOW - 400 * DAY);
const LATER = new Date(NOW + DAY);

let t: TestDb;
let c: ReturnType<typeof collections>;

beforeAll(async () => {
  t = await useTestDb();
  c = collections(t.db);
});

/** Inserts `n` documents made by `make`, in a few round trips. */
async function insert<T extends Document>(
  coll: Collection<T>,
  n: number,
  make: (i: number) => OptionalUnlessRequiredId<T>,
): Promise<void> {
  const STEP = 10_000;
  for (let from = 0; from < n; from += STEP) {
    const docs = Array.from({ length: Math.min(STEP, n - from) }, (_, k) => make(from + k));
    await coll.insertMany(docs, { ordered: false });
  }
}

const id = (prefix: string, i: number) => `${prefix}_${String(i).padStart(6, "0")}`;

// Each test writes and deletes 33,000 to 66,000 documents: 21-24 s on a quiet 2-core machine,
// past the suite's 30 s test timeout (vitest.config.ts) when other work shares the cores. The
// assertions are what each deletes; the time bound only stops a hang.
describe.sequential("a deleteMany of more than 32,766 documents succeeds whole", {
  timeout: 120_000,
}, () => {
  it("the sweeper deletes every expired document of each collection in one sweep", async () => {
    const expired = new Date(NOW - 60_000);
    await insert(c.sessions, OVER_LIMIT + 1, (i) => ({
      _id: id("s", i),
      userId: "u_sweep",
      createdAt: LONG_AGO,
      expiresAt: i === OVER_LIMIT ? LATER : expired,
    }));
    await insert(c.rateCounters, OVER_LIMIT + 1, (i) => ({
      _id: id("rc", i),
      n: 1,
      expiresAt: i === OVER_LIMIT ? LATER : expired,
    }));
    await insert(c.keyUsage, OVER_LIMIT + 1, (i) => ({
      _id: id("ku", i),
      start: LONG_AGO,
      expiresAt: i === OVER_LIMIT ? LATER : expired,
      ok: 1,
      notModified: 0,
      notFound: 0,
      rateLimited: 0,
      other: 0,
    }));
    await insert(c.signInFailures, OVER_LIMIT + 1, (i) => ({
      _id: id("sf", i),
      email: `e${i}@example.com`,
      address: "192.0.2.1",
      expiresAt: i === OVER_LIMIT ? LATER : expired,
    }));

    const purged = await purgeExpired(c, new Date(NOW));

    expect(purged).toMatchObject({
      sessions: OVER_LIMIT,
      rateCounters: OVER_LIMIT,
      keyUsage: OVER_LIMIT,
      signInFailures: OVER_LIMIT,
    });
    const left = await Promise.all([
      c.sessions.countDocuments({}),
      c.rateCounters.countDocuments({}),
      c.keyUsage.countDocuments({}),
      c.signInFailures.countDocuments({}),
    ]);
    expect(left).toEqual([1, 1, 1, 1]);
  });

  it("the changes log's purge deletes a busy month of one workspace's entries", async () => {
    const log = changeLog(c);
    await insert(c.changes, OVER_LIMIT + 10, (i) => ({
      _id: `ws_bulk/${String(i + 1).padStart(15, "0")}`,
      workspaceId: "ws_bulk",
      blogId: id("b", i % 500),
      at: i < OVER_LIMIT ? LONG_AGO : LATER,
    }));
    await insert(c.changes, 5, (i) => ({
      _id: `ws_other/${String(i + 1).padStart(15, "0")}`,
      workspaceId: "ws_other",
      blogId: "b_other",
      at: LONG_AGO,
    }));

    expect(await log.purgeBefore("ws_bulk", new Date(NOW))).toBe(OVER_LIMIT);

    expect(await c.changes.countDocuments({ workspaceId: "ws_bulk" })).toBe(10);
    expect(await c.changes.countDocuments({ workspaceId: "ws_other" })).toBe(5);
  });

  it("webhook retention deletes every settled delivery, attempt and event past the cutoff", async () => {
    await insert(c.webhookEvents, OVER_LIMIT + 1, (i) => ({
      _id: id("evt", i),
      workspaceId: "ws_bulk",
      type: "blog.released" as const,
      occurredAt: i === OVER_LIMIT ? LATER : LONG_AGO,
      blogId: "b_1",
      slug: "one",
      seq: i + 1,
      endpointId: null,
    }));
    const deliveries = 2_000;
    await insert(c.webhookDeliveries, deliveries, (i) => ({
      _id: id("dlv", i),
      eventId: id("evt", i),
      endpointId: "whe_retained",
      workspaceId: "ws_bulk",
      eventType: "blog.released" as const,
      blogId: "b_1",
      seq: i + 1,
      state: "delivered" as const,
      attempts: 1,
      nextAttemptAt: null,
      redeliveryOf: null,
      createdAt: LONG_AGO,
      settledAt: LONG_AGO,
    }));
    await insert(c.webhookAttempts, deliveries, (i) => ({
      _id: id("att", i),
      deliveryId: id("dlv", i),
      endpointId: "whe_retained",
      number: 1,
      instanceId: "i_test",
      startedAt: LONG_AGO,
      leaseUntil: LONG_AGO,
      finishedAt: LONG_AGO,
      latencyMs: 5,
      statusCode: 200,
      error: null,
      responseExcerpt: null,
    }));

    const purged = await purgeWebhookLog(c, new Date(NOW - 30 * DAY));

    expect(purged).toEqual({ deliveries, attempts: deliveries, events: OVER_LIMIT });
    expect(await c.webhookEvents.countDocuments({})).toBe(1);
    expect(await c.webhookDeliveries.countDocuments({ endpointId: "whe_retained" })).toBe(0);
    expect(await c.webhookAttempts.countDocuments({ endpointId: "whe_retained" })).toBe(0);
  });

  it("removing an endpoint deletes all of its deliveries and attempts", async () => {
    const box = secretBox(async () => Buffer.alloc(32, 7));
    const store = endpointsStore(c, box, { allowHttpLoopback: false }, () => NOW);
    await c.webhookEndpoints.insertOne({
      _id: "whe_busy",
      workspaceId: "ws_bulk",
      url: "https://hooks.example.com/in",
      description: "",
      events: ["blog.released"],
      enabled: true,
      disabledReason: null,
      secret: "sealed",
      previousSecret: null,
      previousSecretExpiresAt: null,
      secretRotatedAt: null,
      createdAt: LONG_AGO,
      updatedAt: LONG_AGO,
      createdBy: null,
    });
    for (const endpointId of ["whe_busy", "whe_kept"]) {
      const n = endpointId === "whe_busy" ? OVER_LIMIT : 3;
      await insert(c.webhookDeliveries, n, (i) => ({
        _id: id(`dlv_${endpointId}`, i),
        eventId: id("evt", i),
        endpointId,
        workspaceId: "ws_bulk",
        eventType: "blog.released" as const,
        blogId: "b_1",
        seq: i + 1,
        state: "failed" as const,
        attempts: 1,
        nextAttemptAt: null,
        redeliveryOf: null,
        createdAt: new Date(NOW),
        settledAt: new Date(NOW),
      }));
      await insert(c.webhookAttempts, n, (i) => ({
        _id: id(`att_${endpointId}`, i),
        deliveryId: id(`dlv_${endpointId}`, i),
        endpointId,
        number: 1,
        instanceId: "i_test",
        startedAt: new Date(NOW),
        leaseUntil: new Date(NOW),
        finishedAt: new Date(NOW),
        latencyMs: 30_000,
        statusCode: null,
        error: "timeout",
        responseExcerpt: null,
      }));
    }

    await store.remove("ws_bulk", "whe_busy");

    expect(await c.webhookDeliveries.countDocuments({ endpointId: "whe_busy" })).toBe(0);
    expect(await c.webhookAttempts.countDocuments({ endpointId: "whe_busy" })).toBe(0);
    expect(await c.webhookDeliveries.countDocuments({ endpointId: "whe_kept" })).toBe(3);
    expect(await c.webhookAttempts.countDocuments({ endpointId: "whe_kept" })).toBe(3);
  });

  it("a password change and signing out everywhere end every session of the user", async () => {
    const sessions = sessionsStore(c, DAY);
    const make = (userId: string) => () => ({
      _id: randomBytes(32).toString("hex"),
      userId,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + DAY),
    });
    await insert(c.sessions, OVER_LIMIT, make("u_many"));
    await insert(c.sessions, 2, make("u_other"));
    const kept = await sessions.create({ _id: "u_many", passwordGeneration: 0 });

    await sessions.endOthers("u_many", kept.token);
    expect(await c.sessions.countDocuments({ userId: "u_many" })).toBe(1);
    expect(await sessions.userOf(kept.token)).toBe("u_many");

    await insert(c.sessions, OVER_LIMIT, make("u_many"));
    await sessions.endAll("u_many");
    expect(await c.sessions.countDocuments({ userId: "u_many" })).toBe(0);
    expect(await c.sessions.countDocuments({ userId: "u_other" })).toBe(2);
  });
});
