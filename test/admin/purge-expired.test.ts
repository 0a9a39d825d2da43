// Bounded collections (README, "Production": expired sessions and sign-in records): expired sessions and sign-in records
// are deleted — by TTL indexes where the server has them (MongoDB) and by the server's sweeper
// everywhere (FerretDB 1.24 has no TTL) — and what one client address can store is bounded.
// Store and sweeper functions are driven directly, with injected clocks, instead of waiting.
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import type { Db } from "mongodb";
import { MongoServerError } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { ensureIndexes } from "../../server/src/platform/db/indexes.js";
import { purgeExpired, startSweeper } from "../../server/src/platform/db/ttl-sweeper.js";
import { DomainError } from "../../server/src/platform/domain-error.js";
import { createLogger } from "../../server/src/platform/logger.js";
import {
  MAX_FAILURES,
  MAX_FAILURES_PER_ADDRESS,
  signInThrottle,
  WINDOW_MS,
} from "../../server/src/sessions/sign-in-throttle.js";
import { accessTokensStore } from "../../server/src/tokens/access-tokens-store.js";
import {
  EMAIL_CHANGE_TTL_MS,
  emailChangeLinks,
  hashEmailChangeToken,
} from "../../server/src/users/email-change-links.js";
import {
  hashResetToken,
  passwordResetLinks,
  RESET_LINK_TTL_MS,
} from "../../server/src/users/password-reset-links.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
let c: ReturnType<typeof collections>;

beforeAll(async () => {
  t = await useTestDb();
  c = collections(t.db);
});

const HOUR = 3_600_000;
const T0 = Date.parse("2030-01-01T00:00:00Z");

const session = (expiresAt: number) => ({
  _id: randomBytes(16).toString("hex"),
  userId: "u_test",
  createdAt: new Date(expiresAt - HOUR),
  expiresAt: new Date(expiresAt),
});

/** Whether an attempt got through to the password check (true) or was throttled (429). */
async function letThrough(attempt: Promise<unknown>): Promise<boolean> {
  try {
    await attempt;
    return true;
  } catch (err) {
    if (err instanceof DomainError && err.code === "throttled") return false;
    throw err;
  }
}

async function isFerretDb(db: Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === "string";
}

async function indexesOf(db: Db): Promise<string> {
  const all: Record<string, unknown> = {};
  for (const name of ["sessions", "signInFailures", "users", "blogs", "apiKeys", "memberships"]) {
    all[name] = (await db.collection(name).indexes())
      .map(({ name: n, key, unique, expireAfterSeconds }) => ({
        n,
        key,
        unique,
        expireAfterSeconds,
      }))
      .sort((a, b) => String(a.n).localeCompare(String(b.n)));
  }
  return JSON.stringify(all);
}

describe("purge: happy path", () => {
  it("purgeExpired deletes the sessions that have expired and keeps the live ones", async () => {
    const expired = [session(T0 - HOUR), session(T0)];
    const live = [session(T0 + 1), session(T0 + 24 * HOUR)];
    await c.sessions.insertMany([...expired, ...live]);
    const purged = await purgeExpired(c, new Date(T0));
    expect(purged.sessions).toBe(2);
    const left = await c.sessions.find({ _id: { $in: [...expired, ...live].map((s) => s._id) } });
    expect((await left.toArray()).map((s) => s._id).sort()).toEqual(live.map((s) => s._id).sort());
  });

  it("purgeExpired deletes password-reset links past their 30 minutes, used or not, and keeps live ones (users/password-reset-links.ts)", async () => {
    let now = T0;
    const links = passwordResetLinks(c, () => now);
    const user = { _id: "usr_purge" };
    await links.issue(user);
    const used = await links.issue(user);
    await links.claim(used.token, new Date(now));
    now = T0 + RESET_LINK_TTL_MS;
    const live = await links.issue(user);
    const purged = await purgeExpired(c, new Date(now));
    expect(purged.passwordResets).toBe(2);
    expect(
      (await c.passwordResets.find({ userId: "usr_purge" }).toArray()).map((d) => d._id),
    ).toEqual([hashResetToken(live.token)]);
  });

  it("purgeExpired deletes email changes past their 24 hours, confirmed or not, and keeps live ones (users/email-change-links.ts)", async () => {
    let now = T0;
    const links = emailChangeLinks(c, () => now);
    const account = (id: string) => ({ _id: id, email: `${id}@example.com` });
    await links.issue(account("usr_ec_waiting"), "w@example.com");
    const used = await links.issue(account("usr_ec_used"), "u@example.com");
    await links.claim(used.token, new Date(now));
    now = T0 + EMAIL_CHANGE_TTL_MS;
    const live = await links.issue(account("usr_ec_live"), "l@example.com");
    const purged = await purgeExpired(c, new Date(now));
    expect(purged.emailChanges).toBe(2);
    expect((await c.emailChanges.find({}).toArray()).map((d) => d.tokenHash)).toEqual([
      hashEmailChangeToken(live.token),
    ]);
  });

  it("purgeExpired deletes access tokens past their expiry and keeps live ones (tokens/access-tokens-store.ts)", async () => {
    let now = T0;
    const tokens = accessTokensStore(c, () => now);
    const soon = await tokens.create("usr_purge", {
      name: "soon",
      scopes: ["blogs:read"],
      expiresAt: new Date(T0 + 2 * 86_400_000),
    });
    const later = await tokens.create("usr_purge", {
      name: "later",
      scopes: ["blogs:read"],
      expiresAt: new Date(T0 + 30 * 86_400_000),
    });
    now = T0 + 2 * 86_400_000;
    expect(await tokens.authenticate(soon.secret)).toBeNull();
    const purged = await purgeExpired(c, new Date(now));
    expect(purged.accessTokens).toBe(1);
    expect((await tokens.list("usr_purge")).map((d) => d.tokenId)).toEqual([later.doc.tokenId]);
  });

  it("a failure stops counting after WINDOW_MS and is deleted by the next purge", async () => {
    let now = T0;
    const throttle = signInThrottle(c, { now: () => now });
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect(await letThrough(throttle.begin("window@example.com", "192.0.2.1"))).toBe(true);
    }
    expect(await letThrough(throttle.begin("window@example.com", "192.0.2.1"))).toBe(false);
    now = T0 + WINDOW_MS + 1;
    expect(await letThrough(throttle.begin("window@example.com", "192.0.2.1"))).toBe(true);
    const purged = await purgeExpired(c, new Date(now));
    expect(purged.signInFailures).toBeGreaterThanOrEqual(MAX_FAILURES);
    expect(await c.signInFailures.countDocuments({ email: "window@example.com" })).toBe(1);
  });

  it("purgeExpired deletes the per-email counters stored before records had expiresAt", async () => {
    const legacy = t.db.collection<{ _id: string; failures: number; windowStart: Date }>(
      "signInFailures",
    );
    await legacy.insertOne({ _id: "old@example.com", failures: 3, windowStart: new Date(T0) });
    await purgeExpired(c, new Date(T0));
    expect(await legacy.countDocuments({ _id: "old@example.com" })).toBe(0);
  });

  it("the sweeper runs purgeExpired on its timer, and no more once closed", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    });
    const sweeper = startSweeper(c, createLogger("debug", sink), {
      firstDelayMs: 10,
      intervalMs: 20,
      now: () => T0 + 10 * 24 * HOUR,
    });
    // Closed whatever happens: left running, its clock (10 days on) would delete the records of
    // the tests after this one.
    try {
      const first = session(T0 + 24 * HOUR);
      await c.sessions.insertOne(first);
      // The session goes first; the log line follows once the sign-in records are deleted too.
      const swept = async () =>
        (await c.sessions.countDocuments({ _id: first._id })) === 0 &&
        lines.join("").includes("expired sessions and sign-in records deleted");
      const deadline = Date.now() + 20_000;
      while (!(await swept()) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await c.sessions.countDocuments({ _id: first._id })).toBe(0);
      expect(lines.join("")).toContain("expired sessions and sign-in records deleted");
    } finally {
      await sweeper.close();
    }
    const second = session(T0 + 24 * HOUR);
    await c.sessions.insertOne(second);
    await new Promise((r) => setTimeout(r, 300));
    await sweeper.sweep(); // a no-op once closed
    expect(await c.sessions.countDocuments({ _id: second._id })).toBe(1);
    await c.sessions.deleteOne({ _id: second._id });
  });
});

describe("purge: errors", () => {
  it("a failed sweep is logged as a warning and never thrown", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    });
    const broken = {
      ...c,
      sessions: {
        deleteMany: () => Promise.reject(new Error("database unreachable")),
      },
    } as unknown as typeof c;
    const sweeper = startSweeper(broken, createLogger("debug", sink), { firstDelayMs: 3_600_000 });
    await expect(sweeper.sweep()).resolves.toBeUndefined();
    await sweeper.close();
    expect(lines.join("")).toContain("deleting expired sessions and sign-in records failed");
  });
});

describe("purge: indexes", () => {
  it("ensureIndexes is idempotent: running it again (as every start does) changes nothing", async () => {
    const fresh = t.client.db(`${t.name}_fresh`);
    try {
      const first = await ensureIndexes(fresh);
      const before = await indexesOf(fresh);
      expect(await ensureIndexes(fresh)).toEqual(first);
      expect(await ensureIndexes(fresh)).toEqual(first);
      expect(await indexesOf(fresh)).toBe(before);
      // And on a database in use (the test database has had its indexes since it was made).
      const inUse = await indexesOf(t.db);
      await ensureIndexes(t.db);
      expect(await indexesOf(t.db)).toBe(inUse);
      // The connection survived all of it (FerretDB drops it on some createIndexes commands).
      expect(await fresh.command({ ping: 1 })).toMatchObject({ ok: 1 });
    } finally {
      await fresh.dropDatabase();
    }
  });

  it("TTL indexes on expiresAt where the server has them; FerretDB refuses them, so the sweeper does it", async () => {
    const { ttlIndexes } = await ensureIndexes(t.db);
    const ttl = async (name: string) =>
      (await t.db.collection(name).indexes()).filter((i) => i.expireAfterSeconds !== undefined);
    if (await isFerretDb(t.db)) {
      expect(ttlIndexes).toBe(false);
      for (const name of ["sessions", "signInFailures", "passwordResets", "accessTokens"]) {
        expect(await ttl(name)).toEqual([]);
        // The sweeper's deleteMany({expiresAt: {$lte}}) reads an index, not the collection.
        const plain = (await t.db.collection(name).indexes()).filter(
          (i) => JSON.stringify(i.key) === '{"expiresAt":1}',
        );
        expect(plain).toHaveLength(1);
      }
      // Checked for real: FerretDB 1.24 answers NotImplemented to any TTL index.
      const probe = t.db.collection("ttlProbe");
      const refused = await probe
        .createIndex({ at: 1 }, { expireAfterSeconds: 1 })
        .then(() => null)
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(MongoServerError);
      expect((refused as MongoServerError).code).toBe(238);
    } else {
      expect(ttlIndexes).toBe(true);
      for (const name of ["sessions", "signInFailures", "passwordResets", "accessTokens"]) {
        expect(await ttl(name)).toMatchObject([{ key: { expiresAt: 1 }, expireAfterSeconds: 0 }]);
      }
    }
  });
});

describe("purge: security", () => {
  it("200 parallel attempts on one email let at most MAX_FAILURES through, and keep no more records", async () => {
    const throttle = signInThrottle(c);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        letThrough(throttle.begin("race@example.com", `10.9.${i >> 8}.${i & 255}`)),
      ),
    );
    const through = results.filter(Boolean).length;
    console.log(`200 parallel begin(): ${through} let through`);
    expect(through).toBeLessThanOrEqual(MAX_FAILURES);
    expect(await c.signInFailures.countDocuments({ email: "race@example.com" })).toBe(through);
  });

  it("one address keeps at most MAX_FAILURES_PER_ADDRESS records, however many emails it tries", async () => {
    const throttle = signInThrottle(c);
    let through = 0;
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS * 3; i++) {
      if (await letThrough(throttle.begin(`many-${i}@example.com`, "192.0.2.77"))) through++;
    }
    expect(through).toBe(MAX_FAILURES_PER_ADDRESS);
    expect(await c.signInFailures.countDocuments({ address: "192.0.2.77" })).toBe(
      MAX_FAILURES_PER_ADDRESS,
    );
  });
});
