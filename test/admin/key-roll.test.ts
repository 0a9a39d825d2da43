// Rolling a key (admin.yaml, rollKey; README, "API keys"): a successor with the same name and
// limit, the old key working for the grace period and refused after; a revoked, expired or
// already-rolled key is 409 with nothing changed; of two rolls at once exactly one succeeds and
// exactly one successor exists. The server's clock is moved forward instead of waiting.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { createStores } from "../../server/src/stores.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { get } from "../support/fixtures.js";
import { DAY, HOUR, offsetClock } from "../support/test-clock.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type ApiKey = components["schemas"]["ApiKey"];
type MintedKey = components["schemas"]["MintedKey"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;
const clock = offsetClock();

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, {}, { testHooks: { now: clock.now } });
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
});

const mint = (body: Record<string, unknown> = {}) =>
  owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Site", ...body });
const roll = (keyId: string, gracePeriodSeconds: unknown = 3600) =>
  owner.post<MintedKey>(`/workspaces/${ws}/keys/${keyId}/roll`, { gracePeriodSeconds });
const consumerStatus = async (key: string) =>
  (await get(`${server.url}/api/consumer/blogs`, { "x-api-key": key })).status;
const allKeys = async () =>
  (await owner.get<{ data: ApiKey[] }>(`/workspaces/${ws}/keys`)).body.data;
/** The keys without `lastUsedAt`, which consumer requests of earlier tests move on their own. */
const keysAsSet = async () => (await allKeys()).map(({ lastUsedAt: _, ...rest }) => rest);
const keyById = async (id: string) => (await allKeys()).find((k) => k.id === id);

describe("roll — happy path", () => {
  it("mints a successor with the same name and limit; both work in the grace period, then only the successor", async () => {
    const old = await mint({ name: "Mobile app" });
    await owner.patch(`/workspaces/${ws}/keys/${old.body.key.id}`, {
      rateLimit: { requests: 100, windowSeconds: 60 },
    });
    const rolledAt = clock.now();
    const res = await roll(old.body.key.id, 2 * 3600);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.secret).toMatch(/^cp_live_[A-Za-z0-9]{42}$/);
    expect(res.body.key).toMatchObject({
      name: "Mobile app",
      status: "Active",
      rolledFrom: old.body.key.id,
      rolledTo: null,
      expiresAt: null,
      rateLimit: { requests: 100, windowSeconds: 60 },
    });
    const before = await keyById(old.body.key.id);
    expect(before).toMatchObject({ status: "Active", rolledTo: res.body.key.id });
    const graceEnd = Date.parse(before?.expiresAt ?? "");
    expect(graceEnd - rolledAt).toBeGreaterThanOrEqual(2 * HOUR - 1000);
    expect(graceEnd - rolledAt).toBeLessThanOrEqual(2 * HOUR + 1000);

    expect(await consumerStatus(old.body.secret)).toBe(200);
    expect(await consumerStatus(res.body.secret)).toBe(200);
    clock.advance(2 * HOUR + 1000);
    expect(await consumerStatus(old.body.secret)).toBe(401);
    expect(await consumerStatus(res.body.secret)).toBe(200);
    expect((await keyById(old.body.key.id))?.status).toBe("Expired");
  });

  it("the successor of a key with an expiry lives as long, from now; the old key's expiry never moves later", async () => {
    const old = await mint({ expiresAt: new Date(clock.now() + 30 * DAY).toISOString() });
    const lifetime = Date.parse(old.body.key.expiresAt ?? "") - Date.parse(old.body.key.createdAt);
    clock.advance(10 * DAY);
    const res = await roll(old.body.key.id, 30 * 86_400);
    expect(res.status).toBe(201);
    const successor = res.body.key;
    expect(Date.parse(successor.expiresAt ?? "") - Date.parse(successor.createdAt)).toBe(lifetime);
    // 30 days of grace would end after the old key's own expiry (20 days away): it stays.
    expect((await keyById(old.body.key.id))?.expiresAt).toBe(old.body.key.expiresAt);
  });
});

describe("roll — keys stored before rolling existed", () => {
  it("a key with rolledTo stored as null, or not at all, rolls alike", async () => {
    const key = await mint({ name: "Stored with null" });
    await t.db
      .collection("apiKeys")
      .updateOne({ keyId: key.body.key.id }, { $set: { rolledTo: null } });
    expect((await roll(key.body.key.id)).status).toBe(201);
  });
});

describe("roll — errors: 409 or 400, nothing changed", () => {
  const unchanged = async (attempt: () => Promise<unknown>) => {
    const before = await keysAsSet();
    await attempt();
    expect(await keysAsSet()).toEqual(before);
  };

  it("a revoked key cannot be rolled", async () => {
    const key = await mint();
    await owner.post(`/workspaces/${ws}/keys/${key.body.key.id}/revoke`);
    await unchanged(async () => {
      expect(await roll(key.body.key.id)).toMatchObject({
        status: 409,
        body: { message: "A revoked key cannot be rolled." },
      });
    });
  });

  it("an expired key cannot be rolled", async () => {
    const key = await mint({ expiresAt: new Date(clock.now() + HOUR).toISOString() });
    clock.advance(HOUR + 1000);
    await unchanged(async () => {
      expect(await roll(key.body.key.id)).toMatchObject({
        status: 409,
        body: { message: "An expired key cannot be rolled; mint a new one." },
      });
    });
  });

  it("a key rolled already cannot be rolled again (its successor can)", async () => {
    const key = await mint();
    const first = await roll(key.body.key.id);
    expect(first.status).toBe(201);
    await unchanged(async () => {
      const again = await roll(key.body.key.id);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        message: `This key was rolled already (to ${first.body.key.id}); roll its successor instead.`,
      });
    });
    expect((await roll(first.body.key.id)).status).toBe(201);
  });

  it("a grace period outside 1 hour to 30 days, or not a whole number, is 400", async () => {
    const key = await mint();
    await unchanged(async () => {
      for (const grace of [3599, 2_592_001, 0, -3600, 7200.5, "3600", null]) {
        expect((await roll(key.body.key.id, grace)).status).toBe(400);
      }
      expect((await owner.post(`/workspaces/${ws}/keys/${key.body.key.id}/roll`, {})).status).toBe(
        400,
      );
    });
  });

  it("an unknown key, or another workspace's, is 404", async () => {
    expect((await roll("key_doesNotExist0000")).status).toBe(404);
    const other = await owner.post<{ id: string }>("/workspaces", { name: "Other" });
    const theirs = await owner.post<MintedKey>(`/workspaces/${other.body.id}/keys`, {
      name: "Theirs",
    });
    expect((await roll(theirs.body.key.id)).status).toBe(404);
  });
});

describe("roll — races: exactly one successor", () => {
  it("two rolls of one key at once: one 201, one 409, one successor", async () => {
    const key = await mint({ name: "Raced" });
    const answers = await Promise.all([roll(key.body.key.id), roll(key.body.key.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const successors = (await allKeys()).filter((k) => k.rolledFrom === key.body.key.id);
    expect(successors).toHaveLength(1);
    expect((await keyById(key.body.key.id))?.rolledTo).toBe(successors[0]?.id);
  });

  it("a roll that loses the compare-and-set to another instance deletes its successor and answers 409", async () => {
    const key = await mint({ name: "Two instances" });
    // Two store sets over one database, as two server instances: the first is held between its
    // successor's insert and its update of the old key while the second rolls the same key.
    const second = createStores(t.db);
    const first = createStores(t.db, {
      afterSuccessorInsert: async (keyId) => {
        await second.rollKey(ws, keyId, 3600);
      },
    });
    await expect(first.rollKey(ws, key.body.key.id, 3600)).rejects.toMatchObject({
      code: "conflict",
    });
    const successors = (await allKeys()).filter((k) => k.rolledFrom === key.body.key.id);
    expect(successors).toHaveLength(1);
    expect((await keyById(key.body.key.id))?.rolledTo).toBe(successors[0]?.id);
  });

  it("a roll and a revocation at once: the key ends revoked or rolled, never a successor of a revoked key", async () => {
    const key = await mint({ name: "Roll or revoke" });
    const [rolled, revoked] = await Promise.all([
      roll(key.body.key.id),
      owner.post(`/workspaces/${ws}/keys/${key.body.key.id}/revoke`),
    ]);
    expect(revoked.status).toBe(200);
    const successors = (await allKeys()).filter((k) => k.rolledFrom === key.body.key.id);
    expect(successors).toHaveLength(rolled.status === 201 ? 1 : 0);
    expect([201, 409]).toContain(rolled.status);
  });
});
