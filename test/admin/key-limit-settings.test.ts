// Rate-limit settings (admin.yaml, updateKey, getWorkspaceRateLimit, setWorkspaceRateLimit;
// README, "API keys"): a key's own limit and the workspace's default, set by the workspace's
// owner only (members get 403 and may read them), within the RateLimit schema's bounds (else
// 400, nothing changed); the answer shows the server's default (CONSUMER_RATE_LIMIT) beside.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type ApiKey = components["schemas"]["ApiKey"];
type MintedKey = components["schemas"]["MintedKey"];
type WorkspaceRateLimit = components["schemas"]["WorkspaceRateLimit"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let member: AdminClient;
let ws: string;
let keyId: string;
const MEMBER = { email: "max@example.com", name: "Max Member", password: "max's long password" };

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
  await stores(t.db).users.create(MEMBER);
  await owner.post(`/workspaces/${ws}/members`, { email: MEMBER.email });
  member = new AdminClient(server.url);
  expect(
    (await member.post("/session", { email: MEMBER.email, password: MEMBER.password })).status,
  ).toBe(200);
  keyId = (await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Site" })).body.key.id;
});

const key = async (client = owner) =>
  (await client.get<{ data: ApiKey[] }>(`/workspaces/${ws}/keys`)).body.data.find(
    (k) => k.id === keyId,
  );
const setKeyLimit = (rateLimit: unknown, client = owner) =>
  client.patch<ApiKey>(`/workspaces/${ws}/keys/${keyId}`, { rateLimit });
const setDefault = (rateLimit: unknown, client = owner) =>
  client.call<WorkspaceRateLimit>("PUT", `/workspaces/${ws}/rate-limit`, { rateLimit });

describe("limit settings — happy path (owner)", () => {
  it("the workspace default starts as the server's: null beside serverDefault 1200/60", async () => {
    expect(await owner.get(`/workspaces/${ws}/rate-limit`)).toMatchObject({
      status: 200,
      body: { rateLimit: null, serverDefault: { requests: 1200, windowSeconds: 60 } },
    });
  });

  it("the owner sets a key's own limit, and null returns it to the default", async () => {
    const set = await setKeyLimit({ requests: 100, windowSeconds: 60 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: keyId, rateLimit: { requests: 100, windowSeconds: 60 } });
    expect((await key())?.rateLimit).toEqual({ requests: 100, windowSeconds: 60 });
    expect((await setKeyLimit(null)).body.rateLimit).toBeNull();
    expect((await key())?.rateLimit).toBeNull();
  });

  it("the owner sets the workspace's default, and null returns to the server's", async () => {
    const set = await setDefault({ requests: 600, windowSeconds: 3600 });
    expect(set).toMatchObject({
      status: 200,
      body: {
        rateLimit: { requests: 600, windowSeconds: 3600 },
        serverDefault: { requests: 1200, windowSeconds: 60 },
      },
    });
    expect((await member.get(`/workspaces/${ws}/rate-limit`)).body).toEqual(set.body);
    expect((await setDefault(null)).body).toMatchObject({ rateLimit: null });
  });

  it("the bounds themselves are accepted: 1 to 1,000,000 requests per 1 to 86,400 seconds", async () => {
    for (const limit of [
      { requests: 1, windowSeconds: 1 },
      { requests: 1_000_000, windowSeconds: 86_400 },
    ]) {
      expect((await setKeyLimit(limit)).status).toBe(200);
      expect((await setDefault(limit)).status).toBe(200);
    }
    await setKeyLimit(null);
    await setDefault(null);
  });
});

describe("limit settings — errors: values outside RateLimit are 400, nothing changed", () => {
  const bad: unknown[] = [
    { requests: 0, windowSeconds: 60 },
    { requests: -5, windowSeconds: 60 },
    { requests: 1_000_001, windowSeconds: 60 },
    { requests: 1.5, windowSeconds: 60 },
    { requests: 10, windowSeconds: 0 },
    { requests: 10, windowSeconds: 86_401 },
    { requests: "10", windowSeconds: 60 },
    { requests: 10 },
    { requests: 10, windowSeconds: 60, burst: 5 },
    5,
    "100/60",
  ];
  it.each(bad.map((v) => [JSON.stringify(v), v]))("%s", async (_label, value) => {
    const keyBefore = await key();
    const defaultBefore = (await owner.get(`/workspaces/${ws}/rate-limit`)).body;
    expect((await setKeyLimit(value)).status).toBe(400);
    expect((await setDefault(value)).status).toBe(400);
    expect(await key()).toEqual(keyBefore);
    expect((await owner.get(`/workspaces/${ws}/rate-limit`)).body).toEqual(defaultBefore);
  });

  it("a missing body field, an unknown key or a revoked key's limit", async () => {
    expect((await owner.patch(`/workspaces/${ws}/keys/${keyId}`, {})).status).toBe(400);
    expect(
      (
        await owner.patch(`/workspaces/${ws}/keys/key_doesNotExist0000`, {
          rateLimit: null,
        })
      ).status,
    ).toBe(404);
    const revoked = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Old" });
    await owner.post(`/workspaces/${ws}/keys/${revoked.body.key.id}/revoke`);
    expect(
      await owner.patch(`/workspaces/${ws}/keys/${revoked.body.key.id}`, { rateLimit: null }),
    ).toMatchObject({ status: 409, body: { message: "A revoked key's limit cannot be changed." } });
  });
});

describe("limit settings — security: owner only, tested by role", () => {
  it("a member gets 403 on both writes and nothing changes; a member may read both", async () => {
    const keyBefore = await key();
    const defaultBefore = (await owner.get(`/workspaces/${ws}/rate-limit`)).body;
    const limit = { requests: 5, windowSeconds: 60 };
    for (const res of [await setKeyLimit(limit, member), await setDefault(limit, member)]) {
      expect(res).toMatchObject({
        status: 403,
        body: { message: "Only the workspace owner can do this." },
      });
    }
    expect(await key()).toEqual(keyBefore);
    expect(await key(member)).toEqual(keyBefore);
    expect((await member.get(`/workspaces/${ws}/rate-limit`)).body).toEqual(defaultBefore);
  });

  it("a user of another workspace gets 404, and one signed out 401", async () => {
    const outsider = new AdminClient(server.url);
    await stores(t.db).users.create({
      email: "out@example.com",
      name: "Out",
      password: "outsider password",
    });
    await outsider.post("/session", { email: "out@example.com", password: "outsider password" });
    expect((await setDefault(null, outsider)).status).toBe(404);
    expect((await outsider.get(`/workspaces/${ws}/rate-limit`)).status).toBe(404);
    expect((await setKeyLimit(null, new AdminClient(server.url))).status).toBe(401);
  });
});
