import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "50" });
  a = await seedWorkspace(t.db, "Alpha");
});

/** The secret part of a key: everything after the 12-character display prefix. */
const secretOf = (key: string) => key.slice(12);

describe('security: a raw key never reaches a log, the database or a response (openapi.yaml, "Authentication"; README, "Production")', () => {
  it("after minting, using, misusing and revoking keys, no raw key appears in any log line, stored document or response body", async () => {
    const s = stores(t.db);
    const extra = await s.keys.mint(a.workspaceId, "second");
    const revoked = await s.keys.mint(a.workspaceId, "revoked");
    const keys = [a.key, extra.key, revoked.key];
    const bodies: string[] = [];
    const call = async (path: string, headers: Record<string, string>) => {
      const res = await get(`${server.url}${path}`, headers);
      bodies.push(res.text, JSON.stringify([...res.headers]));
      return res;
    };
    await call("/api/consumer/blogs", { "x-api-key": a.key });
    await call("/api/consumer/blogs", { authorization: `Bearer ${extra.key}` });
    await call(`/api/consumer/blogs/${a.released[0]}`, {
      "x-api-key": a.key,
      authorization: `Bearer ${extra.key}`,
    });
    await s.keys.revoke(a.workspaceId, revoked.id);
    await call("/api/consumer/blogs", { "x-api-key": revoked.key });
    // Misuse: keys where they do not belong — in the query string and in the path.
    await call(`/api/consumer/blogs?api_key=${a.key}`, { "x-api-key": a.key });
    await call(`/api/consumer/blogs/${a.key}`, { "x-api-key": a.key });
    await call(`/nope/${extra.key}`, {});
    await call("/api/consumer/blogs", { "x-api-key": `${a.key}x` });
    await new Promise((r) => setTimeout(r, 200));

    const stored: string[] = [];
    for (const info of await t.db.listCollections().toArray()) {
      for (const doc of await t.db.collection(info.name).find({}).toArray())
        stored.push(JSON.stringify(doc));
    }
    const logs = server.logLines.join("\n");
    expect(server.logLines.length).toBeGreaterThanOrEqual(8);
    for (const key of keys) {
      for (const [where, text] of [
        ["logs", logs],
        ["database", stored.join("\n")],
        ["responses", bodies.join("\n")],
      ] as const) {
        expect(text.includes(secretOf(key)), `${where} hold a raw key`).toBe(false);
      }
    }
    // The access log does identify keys, by prefix only.
    expect(logs).toContain(a.key.slice(0, 12));
    expect(logs.toLowerCase()).not.toContain("authorization");
  });
});

describe("access log", () => {
  it("writes one line per request with id, route, status, duration and key prefix (and a start line at debug)", async () => {
    const res = await get(`${server.url}/api/consumer/blogs/${a.released[0]}`, {
      "x-api-key": a.key,
    });
    const id = res.headers.get("x-request-id") ?? "";
    const lines = server.logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.reqId === id);
    // The test server logs at debug: "request started" (debug), then the access line (info).
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [20, "request started"],
      [30, "request"],
    ]);
    expect(lines[0]).toMatchObject({ method: "GET", path: `/api/consumer/blogs/${a.released[0]}` });
    expect(lines[1]).toMatchObject({
      msg: "request",
      method: "GET",
      path: `/api/consumer/blogs/${a.released[0]}`,
      route: "/api/consumer/blogs/:blogId",
      status: 200,
      keyPrefix: a.key.slice(0, 12),
      durationMs: expect.any(Number),
    });
  });
});

describe('security: invitation tokens and passwords never reach a log, the database or another response (admin.yaml, "createInvitation", "changePassword")', () => {
  it("after inviting, looking up, accepting, reusing a link and changing a password, the token shows only in its create response, and no password anywhere", async () => {
    const owner = new AdminClient(server.url);
    const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
    const ws = setup.body.workspaces[0]?.id ?? "";
    const created = await owner.post<{ link: string }>(`/workspaces/${ws}/invitations`, {
      email: "secret-invitee@example.com",
      role: "member",
    });
    const token = created.body.link.split("#/join/")[1] ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const invitee = new AdminClient(server.url);
    const inviteePassword = "invitee's secret passphrase";
    const answers = [
      await invitee.post("/invitations/lookup", { token }),
      await invitee.post("/invitations/accept", {
        token,
        name: "Invitee",
        password: inviteePassword,
      }),
      await new AdminClient(server.url).post("/invitations/accept", {
        token,
        name: "Again",
        password: inviteePassword,
      }),
      await owner.get(`/workspaces/${ws}/invitations`),
      await invitee.post("/me/password", {
        currentPassword: inviteePassword,
        newPassword: "invitee's next passphrase",
      }),
      await invitee.post("/me/password", {
        currentPassword: "a wrong guess at it",
        newPassword: "invitee's third passphrase",
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 201, 410, 200, 204, 403]);
    const stored: string[] = [];
    for (const info of await t.db.listCollections().toArray()) {
      for (const doc of await t.db.collection(info.name).find({}).toArray())
        stored.push(JSON.stringify(doc));
    }
    const secrets = [
      token,
      inviteePassword,
      "invitee's next passphrase",
      "a wrong guess at it",
      OWNER.password,
    ];
    for (const secret of secrets) {
      for (const [where, text] of [
        ["logs", server.logLines.join("\n")],
        ["database", stored.join("\n")],
        ["responses", answers.map((r) => JSON.stringify([r.body, [...r.headers]])).join("\n")],
      ] as const) {
        expect(text.includes(secret), `${where} hold a secret`).toBe(false);
      }
    }
  });
});
