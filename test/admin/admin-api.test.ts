import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { hashKey } from "../../server/src/keys/key-format.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get, stores } from "../support/fixtures.js";
import { fill } from "../support/pathological-markdown.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type ApiKey = components["schemas"]["ApiKey"];
type MintedKey = components["schemas"]["MintedKey"];
type AdminBlog = components["schemas"]["AdminBlog"];
type SessionStatus = components["schemas"]["SessionStatus"];
type BodyPreview = components["schemas"]["BodyPreview"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "50" });
  owner = new AdminClient(server.url);
});

describe("first-run setup", () => {
  it("is needed while no user exists, creates the owner and first workspace, and signs in", async () => {
    expect((await owner.get("/setup")).body).toEqual({ needed: true });
    expect(await owner.get("/session")).toMatchObject({
      status: 200,
      body: { signedIn: false, setupNeeded: true, passwordResetByMail: false },
    });
    const res = await owner.post<Me>("/setup", OWNER);
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ name: OWNER.name, email: OWNER.email });
    expect(res.body.workspaces).toMatchObject([{ name: OWNER.workspaceName, role: "owner" }]);
    ws = res.body.workspaces[0]?.id ?? "";
    expect(owner.cookie).toBeDefined();
    expect((await owner.get<Me>("/me")).body.user.email).toBe(OWNER.email);
    expect((await owner.get("/setup")).body).toEqual({ needed: false });
  });

  it("answers 409 afterwards, for everyone, signed in or not", async () => {
    expect((await owner.post("/setup", { ...OWNER, email: "again@example.com" })).status).toBe(409);
    const stranger = new AdminClient(server.url);
    const res = await stranger.post("/setup", { ...OWNER, email: "x@example.com" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Pressroom is set up already." });
  });

  it("rejects an invalid setup body with 400 naming the field", async () => {
    const fresh = await startTestServer((await useTestDb()).db);
    const res = await new AdminClient(fresh.url).post("/setup", { ...OWNER, password: "short" });
    expect(res.status).toBe(400);
    expect(String(res.body.message)).toContain("password");
    const blankName = await new AdminClient(fresh.url).post("/setup", { ...OWNER, name: "   " });
    expect(blankName.status).toBe(400);
    expect(String(blankName.body.message)).toContain("name");
  });
});

describe("sessions", () => {
  it("sign-in sets an httpOnly, SameSite=Strict session cookie with an expiry", async () => {
    const c = new AdminClient(server.url);
    const res = await c.post("/session", { email: OWNER.email, password: OWNER.password });
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^pressroom_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Expires=/i);
    expect(cookie).not.toMatch(/Secure/i);
    const token = /pressroom_session=([^;]+)/.exec(cookie)?.[1] ?? "";
    const stored = JSON.stringify(await stores(t.db).sessions.find({}).toArray());
    expect(stored).not.toContain(token);
  });

  it("the cookie is Secure when the server is configured for HTTPS", async () => {
    const https = await startTestServer(t.db, { PUBLIC_URL: "https://press.example.com" });
    const c = new AdminClient(https.url, "https://press.example.com");
    const res = await c.post("/session", { email: OWNER.email, password: OWNER.password });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/; Secure/i);
  });

  it("sign-out deletes the session: the old cookie no longer works", async () => {
    const c = new AdminClient(server.url);
    await c.post("/session", { email: OWNER.email, password: OWNER.password });
    const cookie = c.cookie;
    expect((await c.delete("/session")).status).toBe(204);
    c.cookie = cookie;
    const res = await c.get("/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Sign in first." });
  });

  it("the session probe answers 200 signed in or not: not being signed in is no error (admin.yaml, getSession)", async () => {
    const anonymous = await new AdminClient(server.url).get<SessionStatus>("/session");
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({
      signedIn: false,
      setupNeeded: false,
      passwordResetByMail: false,
    });
    expect(anonymous.headers.get("set-cookie")).toBeNull();

    const signedIn = await owner.get<SessionStatus>("/session");
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ signedIn: true, me: (await owner.get<Me>("/me")).body });
    expect(signedIn.headers.get("set-cookie")).toBeNull();

    // A cookie that names no live session (signed out, or never issued) is "not signed in" here,
    // and the answer removes it from the browser; every operation that needs a session still
    // answers 401 to it.
    const c = new AdminClient(server.url);
    await c.post("/session", { email: OWNER.email, password: OWNER.password });
    const cookie = c.cookie;
    await c.delete("/session");
    for (const stale of [cookie, `pressroom_session=${"A".repeat(43)}`, "pressroom_session=x"]) {
      c.cookie = stale;
      const probe = await c.get("/session");
      expect(probe.body, stale).toEqual({
        signedIn: false,
        setupNeeded: false,
        passwordResetByMail: false,
      });
      expect(probe.headers.get("set-cookie"), stale).toMatch(
        /^pressroom_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/,
      );
      c.cookie = stale;
      expect((await c.get("/me")).status, stale).toBe(401);
    }
  });

  it("a wrong password and an unknown email get the same 401", async () => {
    const c = new AdminClient(server.url);
    const wrong = await c.post("/session", { email: OWNER.email, password: "not the password" });
    const unknown = await c.post("/session", {
      email: "nobody@example.com",
      password: "whatever1234",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it("repeated failed sign-ins are throttled with 429 and Retry-After, even with the right password", async () => {
    const s = stores(t.db);
    await s.users.create({
      email: "target@example.com",
      name: "Target",
      password: "the right password",
    });
    const c = new AdminClient(server.url);
    for (let i = 0; i < 5; i++) {
      expect(
        (await c.post("/session", { email: "target@example.com", password: `guess ${i}` })).status,
      ).toBe(401);
    }
    const blocked = await c.post("/session", {
      email: "target@example.com",
      password: "the right password",
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.body).toEqual({ message: "Too many failed sign-ins. Try again later." });
    await s.signInFailures.deleteMany({});
    expect(
      (await c.post("/session", { email: "target@example.com", password: "the right password" }))
        .status,
    ).toBe(200);
  });

  it("state-changing requests without the server's Origin get 403", async () => {
    const noOrigin = new AdminClient(server.url, null);
    noOrigin.cookie = owner.cookie;
    expect((await noOrigin.post("/workspaces", { name: "x" })).status).toBe(403);
    const evil = new AdminClient(server.url, "https://evil.example");
    evil.cookie = owner.cookie;
    const res = await evil.post("/workspaces", { name: "x" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Cross-origin request refused." });
  });
});

describe("API keys in the dashboard", () => {
  it("mint shows the raw key once; the list never does; revoke is immediate and final", async () => {
    const minted = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Website" });
    expect(minted.status).toBe(201);
    expect(minted.headers.get("cache-control")).toBe("no-store");
    expect(minted.body.secret).toMatch(/^cp_live_[0-9A-Za-z]{42}$/);
    expect(minted.body.key).toMatchObject({
      name: "Website",
      status: "Active",
      prefix: minted.body.secret.slice(0, 12),
      lastUsedAt: null,
      revokedAt: null,
      revokedBy: null,
      createdBy: { name: OWNER.name },
    });

    const consumer = { "x-api-key": minted.body.secret };
    expect((await get(`${server.url}/api/consumer/blogs`, consumer)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const list = await owner.get<{ data: ApiKey[] }>(`/workspaces/${ws}/keys`);
    expect(JSON.stringify(list.body)).not.toContain(minted.body.secret);
    expect(list.body.data.find((k) => k.id === minted.body.key.id)?.lastUsedAt).toEqual(
      expect.any(String),
    );

    const revoked = await owner.post<ApiKey>(`/workspaces/${ws}/keys/${minted.body.key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      status: "Revoked",
      revokedBy: { name: OWNER.name },
      revokedAt: expect.any(String),
    });
    expect((await get(`${server.url}/api/consumer/blogs`, consumer)).status).toBe(401);
    expect((await owner.post(`/workspaces/${ws}/keys/${minted.body.key.id}/revoke`)).status).toBe(
      409,
    );
    const after = await owner.get<{ data: ApiKey[] }>(`/workspaces/${ws}/keys`);
    expect(after.body.data.find((k) => k.id === minted.body.key.id)?.status).toBe("Revoked");
  });

  it("a key minted in the dashboard is stored as hash and prefix only, and never logged", async () => {
    const minted = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Scan" });
    const doc = await stores(t.db).apiKeys.findOne({ _id: hashKey(minted.body.secret) });
    expect(doc?.keyId).toBe(minted.body.key.id);
    const everything = JSON.stringify(await stores(t.db).apiKeys.find({}).toArray());
    const secretPart = minted.body.secret.slice(12);
    expect(everything).not.toContain(secretPart);
    expect(server.logLines.join("\n")).not.toContain(secretPart);
  });
});

describe("blogs in the dashboard, and what consumers see", () => {
  it("a draft is invisible to consumers until released; a published edit shows at once; unrelease and remove hide it", async () => {
    const { secret } = (await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Reader" }))
      .body;
    const read = (id: string) =>
      get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": secret });

    const created = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
      title: "Launch day",
      bodyMarkdown: "We *launched*.",
      tags: ["news"],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "draft", slug: "launch-day", releasedAt: null });
    const id = created.body.id;
    expect((await read(id)).status).toBe(404);

    const released = await owner.post<AdminBlog>(
      `/workspaces/${ws}/blogs/${id}/release`,
      undefined,
      ANY_VERSION,
    );
    expect(released.body.status).toBe("released");
    const first = await read(id);
    expect(first.status).toBe(200);
    expect((first.body as { bodyHtml: string }).bodyHtml).toBe("<p>We <em>launched</em>.</p>");

    const edited = await owner.patch<AdminBlog>(
      `/workspaces/${ws}/blogs/${id}`,
      { bodyMarkdown: "We **launched**." },
      ANY_VERSION,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.pendingChanges).toBe(true);
    // Staged until published (admin.yaml, "Staged changes"): consumers still read the first.
    expect((await read(id)).headers.get("etag")).toBe(first.headers.get("etag"));
    const published = await owner.post<AdminBlog>(
      `/workspaces/${ws}/blogs/${id}/publish`,
      undefined,
      ANY_VERSION,
    );
    expect(published.body.updatedAt > created.body.updatedAt).toBe(true);
    const second = await read(id);
    expect((second.body as { bodyHtml: string }).bodyHtml).toBe(
      "<p>We <strong>launched</strong>.</p>",
    );
    expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));

    await owner.post(`/workspaces/${ws}/blogs/${id}/unrelease`, undefined, ANY_VERSION);
    expect((await read(id)).status).toBe(404);
    await owner.post(`/workspaces/${ws}/blogs/${id}/release`, undefined, ANY_VERSION);
    expect((await read(id)).status).toBe(200);
    expect((await owner.delete(`/workspaces/${ws}/blogs/${id}`, ANY_VERSION)).status).toBe(204);
    expect((await read(id)).status).toBe(404);
    expect((await owner.get(`/workspaces/${ws}/blogs/${id}`)).status).toBe(404);
  });

  it("lists with a status filter and pagination", async () => {
    for (let i = 0; i < 5; i++) {
      const b = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, { title: `Paged ${i}` });
      if (i % 2 === 0)
        await owner.post(`/workspaces/${ws}/blogs/${b.body.id}/release`, undefined, ANY_VERSION);
    }
    const seen: AdminBlog[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor === null ? "?limit=2" : `?limit=2&cursor=${cursor}`;
      const page = await owner.get<{ data: AdminBlog[]; nextCursor: string | null }>(
        `/workspaces/${ws}/blogs${q}`,
      );
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(new Set(seen.map((b) => b.id)).size).toBe(seen.length);
    expect(seen.filter((b) => b.title.startsWith("Paged"))).toHaveLength(5);
    const drafts = await owner.get<{ data: AdminBlog[] }>(
      `/workspaces/${ws}/blogs?status=draft&limit=100`,
    );
    expect(drafts.body.data.every((b) => b.status === "draft")).toBe(true);
    expect(drafts.body.data.filter((b) => b.title.startsWith("Paged"))).toHaveLength(2);
    expect((await owner.get(`/workspaces/${ws}/blogs?status=removed`)).status).toBe(400);
  });

  it("an excerpt emptied in an edit is derived from the body again", async () => {
    const created = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
      title: "Excerpts",
      bodyMarkdown: "The *first* paragraph.\n\nThe second.",
      excerpt: "Hand-written.",
    });
    expect(created.body.excerpt).toBe("Hand-written.");
    const path = `/workspaces/${ws}/blogs/${created.body.id}`;
    expect(
      (await owner.patch<AdminBlog>(path, { title: "Renamed" }, ANY_VERSION)).body.excerpt,
    ).toBe("Hand-written.");
    for (const blank of ["", "   "]) {
      await owner.patch(path, { excerpt: "Again by hand." }, ANY_VERSION);
      const cleared = await owner.patch<AdminBlog>(path, { excerpt: blank }, ANY_VERSION);
      expect(cleared.body.excerpt).toBe("The first paragraph.");
      expect((await owner.get<AdminBlog>(path)).body.excerpt).toBe("The first paragraph.");
    }
  });

  it("a slug already used in the workspace gets 409", async () => {
    await owner.post(`/workspaces/${ws}/blogs`, { title: "One", slug: "same-slug" });
    const res = await owner.post(`/workspaces/${ws}/blogs`, { title: "Two", slug: "same-slug" });
    expect(res.status).toBe(409);
  });

  it("blogs of one title each get a slug of their own, however many (admin.yaml: the slug defaults to one made from the title)", async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, { title: "Untitled" });
      expect(res.status).toBe(201);
      slugs.push(res.body.slug);
    }
    expect(new Set(slugs).size).toBe(60);
    expect(slugs.slice(0, 3)).toEqual(["untitled", "untitled-2", "untitled-3"]);
    for (const slug of slugs) expect(slug).toMatch(/^untitled(-[a-z0-9]+)?$/);
  });
});

describe("the editor's preview: the server's own rendering, nothing saved (admin.yaml, previewBlogBody)", () => {
  const preview = () => `/workspaces/${ws}/blogs/preview`;
  const blogCount = () => t.db.collection("blogs").countDocuments();
  const BODIES = [
    "We *launched*.",
    '## What changed\n\nThe reader is **faster**. Read [the notes](https://example.com/notes).\n\n- [x] offline\n- [ ] dark\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n<script>alert(1)</script>\n\n<p style="color:red" id="x" onclick="alert(2)">raw</p>',
    "> quoted\n\n```js\nif (a < b) {}\n```\n\n![cover](https://img.example/c.png) ![bad](javascript:alert(1))\n\n[rel](/relative) [mail](mailto:a@example.com)",
    "",
  ];

  it("answers the bodyHtml and excerpt a save of the same Markdown stores, and stores nothing", async () => {
    for (const bodyMarkdown of BODIES) {
      const before = await blogCount();
      const previewed = await owner.post<BodyPreview>(preview(), { bodyMarkdown });
      expect(previewed.status, bodyMarkdown).toBe(200);
      expect(await blogCount()).toBe(before);
      const saved = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
        title: "Previewed",
        bodyMarkdown,
      });
      expect(saved.status).toBe(201);
      expect(previewed.body).toEqual({
        bodyHtml: saved.body.bodyHtml,
        excerpt: saved.body.excerpt,
      });
    }
  });

  it("is sanitised as a save is: no script, no event handler, no style or id, rel on every link", async () => {
    const { status, body } = await owner.post<BodyPreview>(preview(), {
      bodyMarkdown: `${BODIES[1]}\n\n${BODIES[2]}`,
    });
    expect(status).toBe(200);
    expect(body.bodyHtml).not.toMatch(/<script|alert\(|onclick|style=|id=|javascript:/i);
    expect(body.bodyHtml).toContain(
      '<a href="https://example.com/notes" rel="noopener noreferrer nofollow">the notes</a>',
    );
    expect(body.bodyHtml).toContain('<a rel="noopener noreferrer nofollow">rel</a>');
    expect(body.bodyHtml).toContain("<h2>What changed</h2>");
    expect(body.excerpt).toBe("The reader is faster. Read the notes.");
  });

  it("refuses a body longer than a blog's (400), and a missing or non-text one", async () => {
    const longest = await owner.post<BodyPreview>(preview(), { bodyMarkdown: "a".repeat(200_000) });
    expect(longest.status).toBe(200);
    for (const body of [{ bodyMarkdown: "a".repeat(200_001) }, {}, { bodyMarkdown: 5 }]) {
      const res = await owner.post(preview(), body);
      expect(res.status).toBe(400);
      expect(String(res.body.message)).toContain("bodyMarkdown");
    }
    expect((await owner.post(preview(), { bodyMarkdown: "x", title: "x" })).status).toBe(400);
  });

  it("refuses what a save refuses, with 422: nesting past 32 levels, and a render past the time limit", async () => {
    const before = await blogCount();
    const deep = await owner.post(preview(), { bodyMarkdown: `Intro\n\n${"> ".repeat(33)}deep` });
    expect(deep.status).toBe(422);
    // The refusal alone: there is no save to speak of.
    expect(deep.body).toEqual({
      message: "bodyMarkdown nests blockquotes or lists more than 32 levels deep (line 3).",
    });
    const slow = await owner.post(preview(), { bodyMarkdown: fill("_a") });
    expect(slow.status).toBe(422);
    expect(slow.body).toEqual({
      message: `bodyMarkdown could not be rendered within ${server.config.renderTimeoutMs} ms.`,
    });
    expect(await blogCount()).toBe(before);
  }, 30_000);

  it("needs a session (401), the server's Origin (403) and membership of the workspace (404)", async () => {
    const body = { bodyMarkdown: "Hello" };
    const anonymous = await new AdminClient(server.url).post(preview(), body);
    expect(anonymous).toMatchObject({ status: 401, body: { message: "Sign in first." } });
    for (const origin of [null, "https://evil.example", `${server.url}.evil.example`]) {
      const c = new AdminClient(server.url, origin);
      c.cookie = owner.cookie;
      const res = await c.post(preview(), body);
      expect([origin, res.status]).toEqual([origin, 403]);
    }
    const res = await owner.post(`/workspaces/ws_doesNotExist0000/blogs/preview`, body);
    expect(res).toMatchObject({ status: 404, body: { message: "Workspace not found." } });
  });
});

describe("members (admin.yaml, addMember and removeMember)", () => {
  it("member add answers alike whether or not the account exists", async () => {
    const users = stores(t.db).users;
    await users.create({ email: "known@example.com", name: "Known", password: "known's password" });
    const add = (email: string) => owner.post(`/workspaces/${ws}/members`, { email });
    const answers = [
      await add("nobody-here@example.com"), // no account
      await add("known@example.com"), // an account, not a member yet: added
      await add("Known@Example.com"), // the same account again: already a member
      await add(OWNER.email), // the owner
    ];
    for (const res of answers) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: answers[0]?.status,
        body: answers[0]?.body,
      });
    }
    expect(answers[0]?.status).toBe(202);
    expect(Object.keys(answers[0]?.body ?? {})).toEqual(["message"]);
    // Only the existing account became a member, once.
    const members = await owner.get<{ data: { user: { email: string } }[] }>(
      `/workspaces/${ws}/members`,
    );
    expect(members.body.data.map((m) => m.user.email).sort()).toEqual(
      ["known@example.com", OWNER.email].sort(),
    );
  });
});
