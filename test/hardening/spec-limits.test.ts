// What the contracts refuse at the edge, through the spec's request validation (openapi.yaml and
// admin.yaml, their request schemas). Single-line plain-text fields refuse control and bidi-override characters, and
// integer query parameters are read as decimal digits only, on both APIs. Limits
// added to request schemas for the OWASP ruleset (Spectral, `npm run lint`) hold exactly at
// their edge: the limit is accepted, one past it is a 400 naming the field.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let admin: AdminClient;
let ws: string;
let blogId: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha");
  admin = new AdminClient(server.url);
  ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  blogId = (await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, { title: "Kept" })).body.id;
});

const consumer = (path: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": a.key, ...headers });
const messageOf = (body: unknown): string => (body as { message?: string }).message ?? "";

describe("integer query parameters are decimal digits only, on both APIs", () => {
  for (const value of ["0x10", "1e2", "+5", "%205", "5.0"]) {
    it(`admin listAdminBlogs limit=${value} → 400 naming limit`, async () => {
      const res = await admin.get(`/workspaces/${ws}/blogs?limit=${value}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: expect.stringContaining("limit") });
    });
  }

  it("admin listAdminBlogs limit=5 → 200", async () => {
    expect((await admin.get(`/workspaces/${ws}/blogs?limit=5`)).status).toBe(200);
  });
});

describe("single-line plain-text fields refuse control and bidi-override characters", () => {
  const blogs = () => `/workspaces/${ws}/blogs`;
  const cases: [
    name: string,
    method: string,
    path: () => string,
    body: object,
    field: string,
    headers?: Record<string, string>,
  ][] = [
    [
      "a title with U+202E (right-to-left override)",
      "POST",
      blogs,
      { title: "abc\u202Efdp.exe" },
      "title",
    ],
    ["a whitespace-only title", "POST", blogs, { title: " \t\u00a0\u3000 " }, "title"],
    ["a title with a tab", "POST", blogs, { title: "Tabbed\ttitle" }, "title"],
    ["a title with a line break", "POST", blogs, { title: "Two\nlines" }, "title"],
    ["a title with U+0085 (a C1 control)", "POST", blogs, { title: "Next\u0085line" }, "title"],
    [
      "an edited title with U+2066 (an isolate)",
      "PATCH",
      () => `${blogs()}/${blogId}`,
      { title: "x\u2066y" },
      "title",
      ANY_VERSION,
    ],
    [
      "an authorName with U+202A",
      "POST",
      blogs,
      { title: "t", authorName: "Ada\u202A" },
      "authorName",
    ],
    ["a tag with U+0000", "POST", blogs, { title: "t", tags: ["ok", "n\u0000ul"] }, "tags"],
    ["an excerpt with a line break", "POST", blogs, { title: "t", excerpt: "one\ntwo" }, "excerpt"],
    ["a workspace name with U+202E", "POST", () => "/workspaces", { name: "Ops\u202E" }, "name"],
    [
      "a workspace rename with DEL",
      "PATCH",
      () => `/workspaces/${ws}`,
      { name: "x\u007f" },
      "name",
    ],
    [
      "a key name with a line break",
      "POST",
      () => `/workspaces/${ws}/keys`,
      { name: "Web\nsite" },
      "name",
    ],
    [
      "a user name with U+2069 (at setup)",
      "POST",
      () => "/setup",
      { ...OWNER, name: "Eve\u2069" },
      "name",
    ],
  ];
  for (const [name, method, path, body, field, headers] of cases) {
    it(`${name} → 400 naming ${field}`, async () => {
      const res = await admin.call(method, path(), body, headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: expect.stringContaining(field) });
    });
  }

  it("other characters stay allowed: accents, emoji, <, & and quotes → 201, stored as sent", async () => {
    const title = 'Ünïcødé — <b>"bold"</b> & 🚀';
    const res = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
      title,
      authorName: "Zoë O'Brien",
      tags: ["c++", "<tag>"],
      excerpt: "a < b && c > d",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title, authorName: "Zoë O'Brien", tags: ["c++", "<tag>"] });
  });
});

describe("request limits added for the OWASP ruleset hold at their edge", () => {
  it("consumer blogId: 1,024 characters → 404, 1,025 (even in 4-byte characters) → 400 naming blogId", async () => {
    expect((await consumer(`/blogs/b_${"x".repeat(1022)}`)).status).toBe(404);
    const wide = await consumer(`/blogs/${encodeURIComponent("🚀".repeat(1025))}`);
    expect(wide.status).toBe(400);
    const over = await consumer(`/blogs/b_${"x".repeat(1023)}`);
    expect(over.status).toBe(400);
    expect(messageOf(over.body)).toContain("blogId");
  });

  it("If-None-Match: 2,048 characters → 200, 2,049 → 400 naming it", async () => {
    const tag = (n: number) => `"${"a".repeat(n - 2)}"`;
    expect((await consumer("/blogs", { "if-none-match": tag(2048) })).status).toBe(200);
    const over = await consumer("/blogs", { "if-none-match": tag(2049) });
    expect(over.status).toBe(400);
    expect(messageOf(over.body).toLowerCase()).toContain("if-none-match");
  });

  it("admin ids: a workspaceId that is not one (ws_ and base62) → 400 naming workspaceId", async () => {
    const res = await admin.get("/workspaces/not-a-workspace/blogs");
    expect(res.status).toBe(400);
    expect(messageOf(res.body)).toContain("workspaceId");
  });

  it("sign-in: an email that is not an email → 400 naming email (before: a lookup and a 401)", async () => {
    const res = await new AdminClient(server.url).post("/session", {
      email: "not-an-email",
      password: "whatever it is",
    });
    expect(res.status).toBe(400);
    expect(messageOf(res.body)).toContain("email");
  });
});
