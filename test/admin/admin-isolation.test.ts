import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type MintedKey = components["schemas"]["MintedKey"];

let t: TestDb;
let server: TestServer;
let alice: AdminClient;
let bob: AdminClient;
let wsA: string;
let wsB: string;
let blogA: string;
let keyA: string;
let hookA: string;
let deliveryA: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  alice = new AdminClient(server.url);
  wsA = (await alice.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  await stores(t.db).users.create({
    email: "bob@example.com",
    name: "Bob",
    password: "bob's long password",
  });
  bob = new AdminClient(server.url);
  await bob.post("/session", { email: "bob@example.com", password: "bob's long password" });
  wsB = (await bob.post<{ id: string }>("/workspaces", { name: "Bob's" })).body.id;
  blogA = (await alice.post<{ id: string }>(`/workspaces/${wsA}/blogs`, { title: "Alice's post" }))
    .body.id;
  keyA = (await alice.post<MintedKey>(`/workspaces/${wsA}/keys`, { name: "A" })).body.key.id;
  hookA = (
    await alice.post<{ endpoint: { id: string } }>(`/workspaces/${wsA}/webhooks`, {
      url: "https://example.com/hooks/a",
      events: ["blog.released"],
    })
  ).body.endpoint.id;
  deliveryA = (await alice.post<{ id: string }>(`/workspaces/${wsA}/webhooks/${hookA}/test`)).body
    .id;
});

type Route = [method: string, path: string, body?: unknown, headers?: Record<string, string>];

/**
 * Every workspace route of the admin API, with a valid body where one is needed, and the
 * If-Match a blog write needs.
 */
const routes = (ws: string): Route[] => [
  ["PATCH", `/workspaces/${ws}`, { name: "Taken over" }],
  ["GET", `/workspaces/${ws}/members`],
  ["POST", `/workspaces/${ws}/members`, { email: "bob@example.com" }],
  ["DELETE", `/workspaces/${ws}/members/usr_nobody`],
  ["GET", `/workspaces/${ws}/keys`],
  ["POST", `/workspaces/${ws}/keys`, { name: "stolen" }],
  ["POST", `/workspaces/${ws}/keys/${keyA}/revoke`],
  ["PATCH", `/workspaces/${ws}/keys/${keyA}`, { rateLimit: { requests: 1, windowSeconds: 60 } }],
  ["POST", `/workspaces/${ws}/keys/${keyA}/roll`, { gracePeriodSeconds: 3600 }],
  ["GET", `/workspaces/${ws}/keys/${keyA}/usage`],
  ["GET", `/workspaces/${ws}/usage`],
  ["GET", `/workspaces/${ws}/rate-limit`],
  ["PUT", `/workspaces/${ws}/rate-limit`, { rateLimit: { requests: 1, windowSeconds: 60 } }],
  ["GET", `/workspaces/${ws}/audit`],
  ["PATCH", `/workspaces/${ws}/members/usr_nobody`, { role: "owner" }],
  ["GET", `/workspaces/${ws}/invitations`],
  ["POST", `/workspaces/${ws}/invitations`, { email: "eve@example.com", role: "owner" }],
  ["DELETE", `/workspaces/${ws}/invitations/inv_nobody`],
  ["GET", `/workspaces/${ws}/blogs`],
  ["POST", `/workspaces/${ws}/blogs`, { title: "injected" }],
  ["POST", `/workspaces/${ws}/blogs/preview`, { bodyMarkdown: "rendered for free" }],
  ["GET", `/workspaces/${ws}/blogs/${blogA}`],
  ["PATCH", `/workspaces/${ws}/blogs/${blogA}`, { title: "defaced" }, ANY_VERSION],
  ["DELETE", `/workspaces/${ws}/blogs/${blogA}`, undefined, ANY_VERSION],
  ["POST", `/workspaces/${ws}/blogs/${blogA}/release`, undefined, ANY_VERSION],
  ["POST", `/workspaces/${ws}/blogs/${blogA}/unrelease`, undefined, ANY_VERSION],
  ["GET", `/workspaces/${ws}/webhooks`],
  [
    "POST",
    `/workspaces/${ws}/webhooks`,
    { url: "https://evil.example/", events: ["blog.released"] },
  ],
  ["GET", `/workspaces/${ws}/webhooks/${hookA}`],
  ["PATCH", `/workspaces/${ws}/webhooks/${hookA}`, { url: "https://evil.example/" }],
  ["DELETE", `/workspaces/${ws}/webhooks/${hookA}`],
  ["POST", `/workspaces/${ws}/webhooks/${hookA}/rotate-secret`],
  ["POST", `/workspaces/${ws}/webhooks/${hookA}/test`],
  ["GET", `/workspaces/${ws}/webhooks/${hookA}/deliveries`],
  ["POST", `/workspaces/${ws}/webhooks/${hookA}/deliveries/${deliveryA}/redeliver`],
];

describe("membership isolation between two workspaces", () => {
  it("a non-member gets the same 404 on every workspace route as for a workspace that does not exist", async () => {
    for (const [method, path, body, headers] of routes(wsA)) {
      const foreign = await bob.call(method, path, body, headers);
      const missing = await bob.call(
        method,
        path.replace(wsA, "ws_doesNotExist0000"),
        body,
        headers,
      );
      expect([method, path, foreign.status], "foreign").toEqual([method, path, 404]);
      expect(foreign.body).toEqual({ message: "Workspace not found." });
      expect(missing.body).toEqual(foreign.body);
    }
    // Nothing changed in Alice's workspace.
    const blog = await alice.get<{ title: string }>(`/workspaces/${wsA}/blogs/${blogA}`);
    expect(blog.body.title).toBe("Alice's post");
    const keys = await alice.get<{ data: { status: string; rateLimit: unknown }[] }>(
      `/workspaces/${wsA}/keys`,
    );
    expect(keys.body.data.map((k) => [k.status, k.rateLimit])).toEqual([["Active", null]]);
    expect((await alice.get<unknown[]>(`/workspaces/${wsA}/invitations`)).body).toMatchObject({
      data: [],
    });
    const hooks = await alice.get<{ data: { id: string; url: string; secretRotatedAt: null }[] }>(
      `/workspaces/${wsA}/webhooks`,
    );
    expect(hooks.body.data).toMatchObject([
      { id: hookA, url: "https://example.com/hooks/a", secretRotatedAt: null },
    ]);
    const log = await alice.get<{ data: { id: string }[] }>(
      `/workspaces/${wsA}/webhooks/${hookA}/deliveries`,
    );
    expect(log.body.data.map((d) => d.id)).toEqual([deliveryA]);
    expect((await bob.get<Me>("/me")).body.workspaces.map((w) => w.id)).toEqual([wsB]);
  });

  it("without a session every route answers 401", async () => {
    const anonymous = new AdminClient(server.url);
    for (const [method, path, body, headers] of [
      ...routes(wsA),
      ["GET", "/me"],
      ["GET", "/workspaces"],
    ] as Route[]) {
      const res = await anonymous.call(method, path, body, headers);
      expect([method, path, res.status]).toEqual([method, path, 401]);
    }
  });

  it("a member can work in the workspace but only the owner renames it and manages members", async () => {
    expect(
      (await alice.post(`/workspaces/${wsA}/members`, { email: "bob@example.com" })).status,
    ).toBe(202);
    expect((await bob.get(`/workspaces/${wsA}/keys`)).status).toBe(200);
    expect((await bob.post(`/workspaces/${wsA}/blogs`, { title: "Bob writes" })).status).toBe(201);
    expect((await bob.patch(`/workspaces/${wsA}`, { name: "Bob's now" })).status).toBe(403);
    const owner = (await alice.get<Me>("/me")).body.user.id;
    expect((await bob.delete(`/workspaces/${wsA}/members/${owner}`)).status).toBe(403);
    expect((await alice.delete(`/workspaces/${wsA}/members/${owner}`)).status).toBe(409);
    expect((await alice.patch(`/workspaces/${wsA}`, { name: "Renamed" })).body).toMatchObject({
      name: "Renamed",
    });
    const bobId = (await bob.get<Me>("/me")).body.user.id;
    expect((await alice.delete(`/workspaces/${wsA}/members/${bobId}`)).status).toBe(204);
    expect((await bob.get(`/workspaces/${wsA}/keys`)).status).toBe(404);
  });
});

describe("the two APIs never judge each other's requests", () => {
  it("a consumer key opens nothing in the admin API, and a session cookie opens nothing in the consumer API", async () => {
    const { key } = await seedWorkspace(t.db, "Consumer side");
    const withKey = await fetch(`${server.url}/api/admin/me`, {
      headers: { "x-api-key": key, authorization: `Bearer ${key}` },
    });
    expect(withKey.status).toBe(401);
    // As a Bearer token, a consumer key is no access token (admin.yaml, the AccessToken scheme).
    expect(await withKey.json()).toEqual({ message: "Invalid, expired or revoked access token." });
    const withCookie = await get(`${server.url}/api/consumer/blogs`, {
      cookie: alice.cookie ?? "",
    });
    expect(withCookie.status).toBe(401);
    expect(withCookie.body).toEqual({ message: "Invalid or missing API key." });
    // A consumer request with both still works on the key alone, with no Origin needed.
    const both = await get(`${server.url}/api/consumer/blogs`, {
      "x-api-key": key,
      cookie: alice.cookie ?? "",
    });
    expect(both.status).toBe(200);
  });
});
