// The audit log (admin.yaml, listAudit; README, "API keys"): mint, roll, revoke, expiry and
// limit changes each leave one entry naming who did it (null for the CLI and the server),
// newest first in keyset pages every member may read; `key.expired` is written by a sweep at
// the key's expiresAt, once however often and by however many instances it runs.
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { logExpiredKeys, startExpirySweeper } from "../../server/src/keys/expiry-sweeper.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { createLogger } from "../../server/src/platform/logger.js";
import { createStores } from "../../server/src/stores.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { HOUR, offsetClock } from "../support/test-clock.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type AuditEntry = components["schemas"]["AuditEntry"];
type MintedKey = components["schemas"]["MintedKey"];
type AuditPage = { data: AuditEntry[]; nextCursor: string | null };

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let member: AdminClient;
let ws: string;
let ownerId: string;
const clock = offsetClock();
const MEMBER = { email: "mia@example.com", name: "Mia Member", password: "mia's long password" };

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, {}, { testHooks: { now: clock.now } });
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ user: { id: string }; workspaces: { id: string }[] }>(
    "/setup",
    OWNER,
  );
  ws = setup.body.workspaces[0]?.id ?? "";
  ownerId = setup.body.user.id;
  await stores(t.db).users.create(MEMBER);
  await owner.post(`/workspaces/${ws}/members`, { email: MEMBER.email });
  member = new AdminClient(server.url);
  await member.post("/session", { email: MEMBER.email, password: MEMBER.password });
});

const audit = async (query = "", client = owner) =>
  (await client.get<AuditPage>(`/workspaces/${ws}/audit${query}`)).body;
const newest = async () => (await audit("?limit=1")).data[0];

describe("audit log — happy path: one entry per action, with who did it", () => {
  it("mint, limit change, roll, revoke and the workspace default each write theirs", async () => {
    const ownerActor = { id: ownerId, name: OWNER.name };
    const expiresAt = new Date(clock.now() + 2 * HOUR).toISOString();
    const minted = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, {
      name: "Site",
      expiresAt,
    });
    const keyId = minted.body.key.id;
    expect(await newest()).toMatchObject({
      action: "key.minted",
      actor: ownerActor,
      keyId,
      details: { expiresAt },
    });

    const limit = { requests: 50, windowSeconds: 10 };
    await owner.patch(`/workspaces/${ws}/keys/${keyId}`, { rateLimit: limit });
    expect(await newest()).toMatchObject({
      action: "key.limit_changed",
      actor: ownerActor,
      keyId,
      details: { from: null, to: limit },
    });

    const rolled = await member.post<MintedKey>(`/workspaces/${ws}/keys/${keyId}/roll`, {
      gracePeriodSeconds: 3600,
    });
    expect(await newest()).toMatchObject({
      action: "key.rolled",
      actor: { id: expect.stringMatching(/^usr_/), name: MEMBER.name },
      keyId,
      details: { successor: rolled.body.key.id, gracePeriodSeconds: 3600 },
    });

    await owner.post(`/workspaces/${ws}/keys/${rolled.body.key.id}/revoke`);
    expect(await newest()).toMatchObject({
      action: "key.revoked",
      actor: ownerActor,
      keyId: rolled.body.key.id,
    });

    await owner.call("PUT", `/workspaces/${ws}/rate-limit`, { rateLimit: limit });
    expect(await newest()).toMatchObject({
      action: "workspace.limit_changed",
      actor: ownerActor,
      keyId: null,
      details: { from: null, to: limit },
    });
  });

  it("webhook endpoint changes and rotations each write theirs (webhook.created, .updated, .deleted, .secret_rotated) with the endpoint's id, never its URL or a secret", async () => {
    const ownerActor = { id: ownerId, name: OWNER.name };
    const hooks = `/workspaces/${ws}/webhooks`;
    const created = await owner.post<{ endpoint: { id: string }; secret: string }>(hooks, {
      url: "https://example.com/hook?token=audit-s3cret",
      events: ["blog.released"],
    });
    expect(created.status).toBe(201);
    const endpointId = created.body.endpoint.id;
    expect(await newest()).toMatchObject({
      action: "webhook.created",
      actor: ownerActor,
      keyId: null,
      details: { endpointId },
    });
    const patched = await owner.patch(`${hooks}/${endpointId}`, {
      url: "https://example.com/hook?token=audit-s3cret-2",
      enabled: false,
    });
    expect(patched.status).toBe(200);
    expect(await newest()).toMatchObject({
      action: "webhook.updated",
      actor: ownerActor,
      details: { endpointId, changed: ["url", "enabled"] },
    });
    const kept = await owner.post<{ secret: string }>(`${hooks}/${endpointId}/rotate-secret`);
    expect(kept.status).toBe(200);
    expect(await newest()).toMatchObject({
      action: "webhook.secret_rotated",
      actor: ownerActor,
      details: { endpointId, previousSecretDropped: false },
    });
    const dropped = await owner.post<{ secret: string }>(`${hooks}/${endpointId}/rotate-secret`, {
      dropPrevious: true,
    });
    expect(dropped.status).toBe(200);
    expect(await newest()).toMatchObject({
      action: "webhook.secret_rotated",
      details: { endpointId, previousSecretDropped: true },
    });
    expect((await owner.delete(`${hooks}/${endpointId}`)).status).toBe(204);
    expect(await newest()).toMatchObject({
      action: "webhook.deleted",
      actor: ownerActor,
      details: { endpointId },
    });
    const text = JSON.stringify((await audit("?limit=100", member)).data);
    for (const secret of [created.body.secret, kept.body.secret, dropped.body.secret]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/audit-s3cret|example\.com/);
  });

  it("an action made with an access token names the token beside its user; with a session, none", async () => {
    const expiresAt = new Date(clock.now() + 7 * 86_400_000).toISOString();
    const made = await owner.post<{ secret: string; token: { id: string } }>("/me/tokens", {
      name: "Deploy bot",
      scopes: ["keys:manage", "blogs:write"],
      expiresAt,
    });
    expect(made.status).toBe(201);
    const res = await fetch(`${server.url}/api/admin/workspaces/${ws}/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${made.body.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Minted by a script" }),
    });
    expect(res.status).toBe(201);
    const { key } = (await res.json()) as MintedKey;
    expect(await newest()).toMatchObject({
      action: "key.minted",
      actor: { id: ownerId },
      keyId: key.id,
      accessToken: { id: made.body.token.id, name: "Deploy bot" },
    });
    // A blog scheduled with the same token: on a route whose body is read between two session
    // checks (admin-router.ts), the entry still names the token after the read.
    const blog = await owner.post<{ id: string }>(`/workspaces/${ws}/blogs`, { title: "Timed" });
    const schedule = await fetch(
      `${server.url}/api/admin/workspaces/${ws}/blogs/${blog.body.id}/schedule`,
      {
        method: "PUT",
        headers: {
          authorization: `Bearer ${made.body.secret}`,
          "content-type": "application/json",
          "if-match": "*",
        },
        body: JSON.stringify({ publishAt: new Date(clock.now() + 3 * HOUR).toISOString() }),
      },
    );
    expect(schedule.status).toBe(200);
    expect(await newest()).toMatchObject({
      action: "blog.scheduled",
      accessToken: { id: made.body.token.id, name: "Deploy bot" },
    });
    await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Minted in the dashboard" });
    expect(await newest()).toMatchObject({ action: "key.minted", accessToken: null });
  });

  it("the operator's CLI is recorded with no actor", async () => {
    const cli = createStores(t.db);
    const { id } = await cli.keys.mint(ws, "From the CLI");
    expect(await newest()).toMatchObject({ action: "key.minted", actor: null, keyId: id });
  });

  it("pages are newest first and follow nextCursor to the end without repeats; members read them", async () => {
    const all: AuditEntry[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditPage = await audit(
        `?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`,
        member,
      );
      all.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor !== null);
    const full = (await audit("?limit=100")).data;
    expect(all.map((e) => e.id)).toEqual(full.map((e) => e.id));
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const times = all.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe("audit log — key.expired, written by the sweep", () => {
  it("is written at the key's expiresAt with no actor, once however often and by however many sweeps", async () => {
    const expiresAt = new Date(clock.now() + HOUR).toISOString();
    const minted = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, {
      name: "Short-lived",
      expiresAt,
    });
    const c = collections(t.db);
    const auditStore = createStores(t.db).audit;
    // Not yet due.
    expect(await logExpiredKeys(c, auditStore, new Date(clock.now()))).toBe(0);
    clock.advance(HOUR + 1000);
    const now = new Date(clock.now());
    // Two instances' sweeps at once, then again: one entry.
    const marked = await Promise.all([
      logExpiredKeys(c, auditStore, now),
      logExpiredKeys(c, auditStore, now),
    ]);
    expect(marked.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await logExpiredKeys(c, auditStore, now)).toBe(0);
    const expired = (await audit("?limit=100")).data.filter(
      (e) => e.action === "key.expired" && e.keyId === minted.body.key.id,
    );
    expect(expired).toEqual([
      {
        id: `${minted.body.key.id}:expired`,
        at: expiresAt,
        actor: null,
        action: "key.expired",
        keyId: minted.body.key.id,
        accessToken: null,
        details: {},
      },
    ]);
  });

  it("the sweeper's timer runs it, and a revoked key is never logged as expired", async () => {
    const revokedFirst = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, {
      name: "Revoked before expiry",
      expiresAt: new Date(clock.now() + HOUR).toISOString(),
    });
    await owner.post(`/workspaces/${ws}/keys/${revokedFirst.body.key.id}/revoke`);
    const due = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, {
      name: "Due",
      expiresAt: new Date(clock.now() + HOUR).toISOString(),
    });
    clock.advance(HOUR + 1000);
    const quiet = createLogger(
      "silent",
      new Writable({ write: (_c, _e, done: () => void) => done() }),
    );
    const sweeper = startExpirySweeper(collections(t.db), createStores(t.db).audit, quiet, {
      firstDelayMs: 0,
      now: clock.now,
    });
    await new Promise((r) => setTimeout(r, 50));
    await sweeper.sweep();
    await sweeper.close();
    const expired = (await audit("?limit=100")).data
      .filter((e) => e.action === "key.expired")
      .map((e) => e.keyId);
    expect(expired).toContain(due.body.key.id);
    expect(expired).not.toContain(revokedFirst.body.key.id);
  });
});

describe("audit log — errors and security", () => {
  it("a cursor this server did not make, or a bad limit, is 400", async () => {
    for (const query of ["?cursor=nope", "?cursor=WzEsIng_Il0", "?limit=0", "?limit=101"]) {
      expect((await owner.get(`/workspaces/${ws}/audit${query}`)).status).toBe(400);
    }
  });

  it("outsiders get 404 and signed-out users 401", async () => {
    expect((await new AdminClient(server.url).get(`/workspaces/${ws}/audit`)).status).toBe(401);
    expect((await owner.get(`/workspaces/ws_doesNotExist0000/audit`)).status).toBe(404);
  });

  it("no entry carries a raw key", async () => {
    const text = JSON.stringify((await audit("?limit=100")).data);
    expect(text).not.toMatch(/cp_live_[A-Za-z0-9]{42}/);
  });
});
