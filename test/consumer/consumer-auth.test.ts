import { beforeAll, describe, expect, it } from "vitest";
import { hashKey } from "../../server/src/keys/key-format.js";
import {
  get,
  type SeededWorkspace,
  seedWorkspace,
  stores,
  withWrongChecksum,
} from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const INVALID = { message: "Invalid or missing API key." };
let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
const list = (headers: Record<string, string>) => get(`${server.url}/api/consumer/blogs`, headers);
const keyDoc = (key: string) => stores(t.db).apiKeys.findOne({ _id: hashKey(key) });
const waitFor = async (check: () => Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "200" });
  a = await seedWorkspace(t.db, "Alpha");
  b = await seedWorkspace(t.db, "Beta");
});

describe('authentication (openapi.yaml, "Authentication") — happy paths', () => {
  it("accepts the key in the x-api-key header", async () => {
    expect((await list({ "x-api-key": a.key })).status).toBe(200);
  });

  it("accepts the key as Authorization: Bearer", async () => {
    expect((await list({ authorization: `Bearer ${a.key}` })).status).toBe(200);
  });

  it("accepts the Bearer scheme name in any case (RFC 7235)", async () => {
    expect((await list({ authorization: `bearer ${a.key}` })).status).toBe(200);
  });

  it("x-api-key takes precedence over Authorization when both are sent", async () => {
    const validApiKey = await list({ "x-api-key": a.key, authorization: "Bearer nonsense" });
    expect(validApiKey.status).toBe(200);
    const invalidApiKey = await list({
      "x-api-key": "cp_live_nope",
      authorization: `Bearer ${a.key}`,
    });
    expect(invalidApiKey.status).toBe(401);
    const otherWorkspace = await list({ "x-api-key": b.key, authorization: `Bearer ${a.key}` });
    const ids = (otherWorkspace.body as { data: { id: string }[] }).data.map((x) => x.id);
    expect(ids).toEqual(b.released);
  });

  it("the key determines the workspace: each key sees only its own workspace's blogs", async () => {
    const seenByA = (await list({ "x-api-key": a.key })).body as { data: { id: string }[] };
    const seenByB = (await list({ "x-api-key": b.key })).body as { data: { id: string }[] };
    expect(seenByA.data.map((x) => x.id)).toEqual(a.released);
    expect(seenByB.data.map((x) => x.id)).toEqual(b.released);
    const foreign = await get(`${server.url}/api/consumer/blogs/${b.released[0]}`, {
      "x-api-key": a.key,
    });
    expect(foreign.status).toBe(404);
  });
});

describe('a missing, malformed, unknown or revoked key gets 401 (openapi.yaml, "Authentication")', () => {
  const cases: [string, () => Record<string, string>][] = [
    ["no key header at all", () => ({})],
    ["an empty x-api-key", () => ({ "x-api-key": "" })],
    ["Authorization without the Bearer scheme", () => ({ authorization: a.key })],
    [
      "Basic authorization",
      () => ({ authorization: `Basic ${Buffer.from(`u:${a.key}`).toString("base64")}` }),
    ],
    ["Bearer with no token", () => ({ authorization: "Bearer " })],
    ["a key with the wrong prefix", () => ({ "x-api-key": a.key.replace("cp_live_", "cp_test_") })],
    ["a key with a broken checksum", () => ({ "x-api-key": withWrongChecksum(a.key) })],
    ["a truncated key", () => ({ "x-api-key": a.key.slice(0, -3) })],
    ["the prefix alone", () => ({ "x-api-key": "cp_live_" })],
  ];
  for (const [name, headers] of cases) {
    it(`${name} → 401 {"message":"Invalid or missing API key."}`, async () => {
      const res = await list(headers());
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    });
  }

  it("a malformed key is refused without any database read", async () => {
    const before = t.commands.length;
    const res = await list({
      "x-api-key": withWrongChecksum(a.key),
    });
    expect(res.status).toBe(401);
    // Reads only: a lastUsedAt flush of earlier requests' keys (an `update`) may land meanwhile.
    const reads = t.commands
      .slice(before)
      .filter((c) => c.collection === "apiKeys" && c.name !== "update");
    expect(reads).toEqual([]);
  });

  it("a well-formed key that never existed → 401 (typo, other environment)", async () => {
    const { generateKey } = await import("../../server/src/keys/key-format.js");
    const res = await list({ "x-api-key": generateKey().raw });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });
});

describe('key lifecycle: minted in the dashboard, revoked for good (README, "First run"; admin.yaml, mintKey and revokeKey)', () => {
  it("a revoked key gets 401 on the very next request (revocation is immediate)", async () => {
    const s = stores(t.db);
    const minted = await s.keys.mint(a.workspaceId, "to revoke");
    expect((await list({ "x-api-key": minted.key })).status).toBe(200);
    await s.keys.revoke(a.workspaceId, minted.id);
    const res = await list({ "x-api-key": minted.key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    expect((await list({ authorization: `Bearer ${minted.key}` })).status).toBe(401);
  });

  it("a revoked key cannot be reactivated", async () => {
    const s = stores(t.db);
    const minted = await s.keys.mint(a.workspaceId, "revoked twice");
    await s.keys.revoke(a.workspaceId, minted.id);
    await expect(s.keys.revoke(a.workspaceId, minted.id)).rejects.toMatchObject({
      code: "conflict",
      message: "Key is already revoked.",
    });
    expect((await keyDoc(minted.key))?.status).toBe("Revoked");
    expect((await list({ "x-api-key": minted.key })).status).toBe(401);
  });

  it("a key of one workspace cannot be revoked through another workspace", async () => {
    await expect(stores(t.db).keys.revoke(b.workspaceId, a.keyId)).rejects.toMatchObject({
      code: "not_found",
      message: "Key not found.",
    });
    expect((await list({ "x-api-key": a.key })).status).toBe(200);
  });

  it("lastUsedAt moves on each successful request", async () => {
    const minted = await stores(t.db).keys.mint(a.workspaceId, "usage");
    expect((await keyDoc(minted.key))?.lastUsedAt).toBeNull();
    await list({ "x-api-key": minted.key });
    await waitFor(async () => (await keyDoc(minted.key))?.lastUsedAt != null);
    const first = (await keyDoc(minted.key))?.lastUsedAt as Date;
    await new Promise((r) => setTimeout(r, 20));
    expect(
      (await get(`${server.url}/api/consumer/blogs/${a.released[0]}`, { "x-api-key": minted.key }))
        .status,
    ).toBe(200);
    await waitFor(async () => ((await keyDoc(minted.key))?.lastUsedAt as Date) > first);
  });

  it("a 401 never touches lastUsedAt (revoked key)", async () => {
    const s = stores(t.db);
    const minted = await s.keys.mint(a.workspaceId, "never used");
    await s.keys.revoke(a.workspaceId, minted.id);
    for (let i = 0; i < 3; i++) expect((await list({ "x-api-key": minted.key })).status).toBe(401);
    await new Promise((r) => setTimeout(r, 500));
    expect((await keyDoc(minted.key))?.lastUsedAt).toBeNull();
  });

  it("lastUsedAt writes are coalesced: one write per key per window, however many requests", async () => {
    const slow = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "1000" });
    const minted = await stores(t.db).keys.mint(a.workspaceId, "busy");
    const hash = hashKey(minted.key);
    const before = t.commands.length;
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        get(`${slow.url}/api/consumer/blogs`, { "x-api-key": minted.key }),
      ),
    );
    const elapsed = Date.now() - started;
    expect(results.every((r) => r.status === 200)).toBe(true);
    await waitFor(async () => (await keyDoc(minted.key))?.lastUsedAt != null, 3000);
    const writesForKey = t.commands
      .slice(before)
      .filter((c) => c.name === "update" && c.collection === "apiKeys")
      .filter((c) => JSON.stringify(c.command.updates).includes(hash));
    // 40 requests inside about one window: one write (two if they straddled a window edge).
    expect(writesForKey.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 1);
    expect(writesForKey.length).toBeGreaterThanOrEqual(1);
    await slow.stop();
  });

  it("rotation without downtime: mint, deploy, confirm through lastUsedAt, revoke the old key", async () => {
    const s = stores(t.db);
    const oldKey = await s.keys.mint(a.workspaceId, "site v1");
    const newKey = await s.keys.mint(a.workspaceId, "site v2");
    expect((await list({ "x-api-key": oldKey.key })).status).toBe(200);
    expect((await list({ "x-api-key": newKey.key })).status).toBe(200);
    await waitFor(async () => (await keyDoc(newKey.key))?.lastUsedAt != null);
    await s.keys.revoke(a.workspaceId, oldKey.id);
    expect((await list({ "x-api-key": oldKey.key })).status).toBe(401);
    expect((await list({ "x-api-key": newKey.key })).status).toBe(200);
  });
});

describe('only the prefix and SHA-256 hash of a key are stored (openapi.yaml, "Authentication")', () => {
  it("the stored record holds the hash as its id and a 12-character prefix, never the raw key", async () => {
    const minted = await stores(t.db).keys.mint(a.workspaceId, "stored");
    const doc = await keyDoc(minted.key);
    expect(doc?._id).toBe(hashKey(minted.key));
    expect(doc?._id).toMatch(/^[0-9a-f]{64}$/);
    expect(doc?.prefix).toBe(minted.key.slice(0, 12));
    expect(doc?.status).toBe("Active");
    expect(JSON.stringify(doc)).not.toContain(minted.key);
    expect(JSON.stringify(doc)).not.toContain(minted.key.slice(12));
  });

  it("minted keys are cp_live_ + 42 base62 characters, all different", async () => {
    const s = stores(t.db);
    const keys = await Promise.all(
      Array.from({ length: 5 }, () => s.keys.mint(a.workspaceId, "shape")),
    );
    for (const k of keys) expect(k.key).toMatch(/^cp_live_[0-9A-Za-z]{42}$/);
    expect(new Set(keys.map((k) => k.key)).size).toBe(5);
  });
});
