// Personal access tokens (admin.yaml, createAccessToken and the AccessToken scheme; README,
// "Access tokens"): a user's credential for scripts, sent as `Authorization: Bearer pr_pat_…`,
// shown once and stored as a hash; it does only what its scopes name, on operations that take
// tokens, and only what its user's role allows at each request; no cookie and no Origin with it;
// revoked or expired, it stops at once.
import { beforeAll, describe, expect, it } from "vitest";
import { tokenScopesOf } from "../../server/src/admin/token-scopes.js";
import { hashKey } from "../../server/src/keys/key-format.js";
import { readSpec } from "../../server/src/platform/http/validator-warm-up.js";
import { ADMIN_SPEC_PATH } from "../../server/src/platform/paths.js";
import { MAX_TOKENS_PER_USER } from "../../server/src/tokens/access-tokens-store.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;

interface Created {
  token: { id: string; prefix: string; scopes: string[]; lastUsedAt: string | null };
  secret: string;
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "20" });
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function mint(
  client: AdminClient,
  scopes: string[],
  expiresAt = inDays(30),
  name = "CI job",
): Promise<Created> {
  const res = await client.post<Created>("/me/tokens", { name, scopes, expiresAt });
  expect(res.status).toBe(201);
  return res.body;
}

/** A script's request: the token in Authorization, no cookie, no Origin. */
async function asScript(
  secret: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/api/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === "" ? undefined : JSON.parse(text)) as unknown };
}

let n = 0;
/** A member of the owner's workspace, signed in, with `role`. */
async function teammate(role: "owner" | "member") {
  n += 1;
  const email = `teammate${n}@example.com`;
  const password = `teammate passphrase ${n}`;
  const user = await stores(t.db).users.create({ email, name: `Teammate ${n}`, password });
  expect((await owner.post(`/workspaces/${ws}/members`, { email })).status).toBe(202);
  if (role === "owner") {
    expect((await owner.patch(`/workspaces/${ws}/members/${user._id}`, { role })).status).toBe(200);
  }
  const c = new AdminClient(server.url);
  expect((await c.post("/session", { email, password })).status).toBe(200);
  return { id: user._id, client: c };
}

describe("access tokens: made, shown once, listed", () => {
  it("the secret is in the create answer only; the list shows the prefix and scopes; only the hash is stored", async () => {
    const created = await mint(owner, ["blogs:read"]);
    expect(created.secret).toMatch(/^pr_pat_[0-9A-Za-z]{42}$/);
    expect(created.token.prefix).toBe(created.secret.slice(0, 11));
    const list = await owner.get<{ data: Created["token"][] }>("/me/tokens");
    const listed = list.body.data.find((d) => d.id === created.token.id);
    expect(listed).toMatchObject({
      prefix: created.token.prefix,
      scopes: ["blogs:read"],
      lastUsedAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    const stored = await t.db.collection("accessTokens").find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect(stored.some((d) => String(d._id) === hashKey(created.secret))).toBe(true);
  });

  it("an expiry under a day or over 366 days ahead is 400, and nothing is stored", async () => {
    const before = await t.db.collection("accessTokens").countDocuments();
    for (const expiresAt of [inDays(0.5), inDays(367), "2000-01-01T00:00:00Z"]) {
      const res = await owner.post("/me/tokens", { name: "x", scopes: ["blogs:read"], expiresAt });
      expect(res.status).toBe(400);
    }
    expect(await t.db.collection("accessTokens").countDocuments()).toBe(before);
  });

  it(`at most ${MAX_TOKENS_PER_USER} tokens a user, even made at once: the rest are 409`, async () => {
    const { client } = await teammate("member");
    const answers = await Promise.all(
      Array.from({ length: MAX_TOKENS_PER_USER + 5 }, () =>
        client.post("/me/tokens", { name: "many", scopes: ["blogs:read"], expiresAt: inDays(2) }),
      ),
    );
    expect(answers.filter((a) => a.status === 201).length).toBeLessThanOrEqual(MAX_TOKENS_PER_USER);
    expect(answers.filter((a) => a.status === 409).length).toBeGreaterThanOrEqual(5);
    const list = await client.get<{ data: unknown[] }>("/me/tokens");
    expect(list.body.data.length).toBeLessThanOrEqual(MAX_TOKENS_PER_USER);
  });
});

describe("access tokens: what a token may do", () => {
  it("blogs:read reads blogs; a write needs blogs:write (403 naming it); blogs:write holds blogs:read", async () => {
    const reader = await mint(owner, ["blogs:read"]);
    expect((await asScript(reader.secret, "GET", "/workspaces")).status).toBe(200);
    expect((await asScript(reader.secret, "GET", `/workspaces/${ws}/blogs`)).status).toBe(200);
    const refused = await asScript(reader.secret, "POST", `/workspaces/${ws}/blogs`, {
      title: "From a script",
      bodyMarkdown: "Hello.",
    });
    expect(refused).toEqual({
      status: 403,
      body: { message: "This access token does not have the scope blogs:write." },
    });
    const writer = await mint(owner, ["blogs:write"]);
    const made = await asScript(writer.secret, "POST", `/workspaces/${ws}/blogs`, {
      title: "From a script",
      bodyMarkdown: "Hello.",
    });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    expect((await asScript(writer.secret, "GET", `/workspaces/${ws}/blogs/${id}`)).status).toBe(
      200,
    );
    const released = await asScript(
      writer.secret,
      "POST",
      `/workspaces/${ws}/blogs/${id}/release`,
      undefined,
      ANY_VERSION,
    );
    expect(released.status).toBe(200);
    expect((await asScript(writer.secret, "GET", `/workspaces/${ws}/keys`)).status).toBe(403);
  });

  it("operations that take no token answer 403, whatever its scopes: tokens, password, sign-out, new workspaces", async () => {
    const all = await mint(owner, [
      "blogs:read",
      "blogs:write",
      "keys:manage",
      "webhooks:manage",
      "members:manage",
    ]);
    for (const [method, path, body] of [
      ["GET", "/me/tokens", undefined],
      ["POST", "/me/tokens", { name: "more", scopes: ["blogs:read"], expiresAt: inDays(5) }],
      ["DELETE", `/me/tokens/${all.token.id}`, undefined],
      [
        "POST",
        "/me/password",
        { currentPassword: OWNER.password, newPassword: "a new passphrase" },
      ],
      ["DELETE", "/session", undefined],
      ["DELETE", "/me/sessions", undefined],
      ["POST", "/workspaces", { name: "By a token" }],
      ["PATCH", "/me", { name: "Renamed by a token" }],
      ["GET", `/workspaces/${ws}/audit`, undefined],
    ] as const) {
      const res = await asScript(all.secret, method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect((await owner.get("/me")).status).toBe(200);
  });

  it("no Origin is needed with a token, and its cookie is ignored: a bad token beside a good cookie is 401", async () => {
    const writer = await mint(owner, ["blogs:write"]);
    const made = await asScript(writer.secret, "POST", `/workspaces/${ws}/blogs`, {
      title: "No origin",
      bodyMarkdown: "x",
    });
    expect(made.status).toBe(201);
    const res = await fetch(`${server.url}/api/admin/workspaces`, {
      headers: { authorization: `Bearer pr_pat_${"A".repeat(42)}`, cookie: owner.cookie ?? "" },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Invalid, expired or revoked access token." });
  });

  it("a proxy's Basic credentials are not a token: the session cookie works, and a write still needs its Origin", async () => {
    const basic = { authorization: `Basic ${Buffer.from("proxy:pass").toString("base64")}` };
    const read = await fetch(`${server.url}/api/admin/me`, {
      headers: { ...basic, cookie: owner.cookie ?? "" },
    });
    expect(read.status).toBe(200);
    const write = await fetch(`${server.url}/api/admin/workspaces/${ws}/blogs`, {
      method: "POST",
      headers: { ...basic, cookie: owner.cookie ?? "", "content-type": "application/json" },
      body: JSON.stringify({ title: "Cross-site", bodyMarkdown: "x" }),
    });
    expect(write.status).toBe(403);
  });

  it("bound to the role at each request: a demoted owner's token loses owner operations, a removed member's gets 404", async () => {
    const mate = await teammate("owner");
    const token = await mint(mate.client, ["members:manage", "blogs:read"]);
    const invite = () =>
      asScript(token.secret, "POST", `/workspaces/${ws}/invitations`, {
        email: `invited${n}@example.com`,
        role: "member",
      });
    expect((await invite()).status).toBe(201);
    expect(
      (await owner.patch(`/workspaces/${ws}/members/${mate.id}`, { role: "member" })).status,
    ).toBe(200);
    expect((await invite()).status).toBe(403);
    expect((await asScript(token.secret, "GET", `/workspaces/${ws}/blogs`)).status).toBe(200);
    expect((await owner.delete(`/workspaces/${ws}/members/${mate.id}`)).status).toBe(204);
    expect((await asScript(token.secret, "GET", `/workspaces/${ws}/blogs`)).status).toBe(404);
  });
});

describe("access tokens: revoked, expired, forged", () => {
  it("revoked, the token's next request is 401; another user cannot revoke it (404)", async () => {
    const token = await mint(owner, ["blogs:read"]);
    const mate = await teammate("member");
    expect((await mate.client.delete(`/me/tokens/${token.token.id}`)).status).toBe(404);
    expect((await asScript(token.secret, "GET", "/workspaces")).status).toBe(200);
    expect((await owner.delete(`/me/tokens/${token.token.id}`)).status).toBe(204);
    expect((await asScript(token.secret, "GET", "/workspaces")).status).toBe(401);
    expect((await owner.delete(`/me/tokens/${token.token.id}`)).status).toBe(404);
  });

  it("past its expiry the token is 401", async () => {
    const token = await mint(owner, ["blogs:read"]);
    await t.db
      .collection<{ _id: string }>("accessTokens")
      .updateOne({ _id: hashKey(token.secret) }, { $set: { expiresAt: new Date(Date.now() - 1) } });
    expect((await asScript(token.secret, "GET", "/workspaces")).status).toBe(401);
  });

  it("a token in the query string is no credential: refused (400) before any lookup, and no log line holds it", async () => {
    const token = await mint(owner, ["blogs:read"]);
    for (const query of [`access_token=${token.secret}`, `token=${token.secret}`]) {
      const res = await fetch(`${server.url}/api/admin/workspaces?${query}`);
      expect(res.status).toBe(400);
    }
    expect(server.logLines.some((l) => l.includes(token.secret))).toBe(false);
  });

  it("malformed, mistyped (checksum) and other schemes' tokens are 401", async () => {
    const token = await mint(owner, ["blogs:read"]);
    const mistyped = token.secret.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    for (const value of [
      `Bearer ${mistyped}`,
      `Bearer ${token.secret.slice(0, 20)}`,
      "Bearer",
      `Bearer ${token.secret.replace("pr_pat_", "cp_live_")}`,
    ]) {
      const res = await fetch(`${server.url}/api/admin/workspaces`, {
        headers: { authorization: value },
      });
      expect([value.slice(0, 12), res.status]).toEqual([value.slice(0, 12), 401]);
    }
  });

  it("each use is recorded as lastUsedAt (in batches)", async () => {
    const token = await mint(owner, ["blogs:read"]);
    expect((await asScript(token.secret, "GET", "/workspaces")).status).toBe(200);
    await expect
      .poll(async () => {
        const list = await owner.get<{ data: Created["token"][] }>("/me/tokens");
        return list.body.data.find((d) => d.id === token.token.id)?.lastUsedAt ?? null;
      })
      .not.toBeNull();
  });
});

describe("access tokens: the scopes in admin.yaml", () => {
  it("every operation a token may use names known scopes; a spec naming an unknown one is refused at start", () => {
    const spec = readSpec(ADMIN_SPEC_PATH);
    const scopes = tokenScopesOf(spec);
    expect(scopes.get("createBlog")).toEqual(["blogs:write"]);
    expect(scopes.get("listAdminBlogs")).toEqual(["blogs:read"]);
    expect(scopes.get("listWorkspaces")).toEqual([]);
    expect(scopes.has("createAccessToken")).toBe(false);
    expect(scopes.has("changePassword")).toBe(false);
    const doctored = JSON.parse(JSON.stringify(spec.document)) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    const op = doctored.paths["/workspaces/{workspaceId}/blogs"]?.post;
    if (op === undefined) throw new Error("no createBlog");
    op.security = [{ SessionCookie: [] }, { AccessToken: ["blogs:publish"] }];
    expect(() => tokenScopesOf({ path: "doctored", document: doctored })).toThrow(
      /unknown scopes blogs:publish/,
    );
    op.security = [{ Cookie: [] }];
    expect(() => tokenScopesOf({ path: "doctored", document: doctored })).toThrow(
      /no scheme Cookie/,
    );
  });
});
