import { beforeAll, describe, expect, it } from "vitest";
import type { Blog, BlogList } from "../../server/src/platform/http/consumer-types.js";
import { get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
const NOT_FOUND = { message: "Blog not found." };
const api = (path: string, key: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": key, ...headers });
const ids = (body: unknown) => (body as BlogList).data.map((x) => x.id);

async function walk(key: string, limit: number, between?: (page: number) => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const query: string = cursor === null ? `?limit=${limit}` : `?limit=${limit}&cursor=${cursor}`;
    const res = await api(`/blogs${query}`, key);
    expect(res.status).toBe(200);
    const body = res.body as BlogList;
    expect(body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...body.data.map((x) => x.id));
    cursor = body.nextCursor;
    if (cursor === null) return seen;
    await between?.(page);
  }
  throw new Error("walk did not end");
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha", 25);
  b = await seedWorkspace(t.db, "Beta", 2);
});

describe("listBlogs (openapi.yaml): released blogs of the key's workspace — happy paths", () => {
  it("lists only released blogs of the key's workspace, newest release first", async () => {
    const res = await api("/blogs?limit=100", a.key);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(a.released);
    expect(ids(res.body)).not.toContain(a.draft);
    expect(ids(res.body)).not.toContain(a.removed);
    expect((res.body as BlogList).nextCursor).toBeNull();
  });

  it("a page holds 20 blogs when no limit is given", async () => {
    const body = (await api("/blogs", a.key)).body as BlogList;
    expect(body.data).toHaveLength(20);
    expect(body.nextCursor).toEqual(expect.any(String));
  });

  it("the list is the way to discover ids: every listed id can be fetched", async () => {
    for (const id of ids((await api("/blogs?limit=100", b.key)).body)) {
      const res = await api(`/blogs/${id}`, b.key);
      expect(res.status).toBe(200);
      expect((res.body as Blog).id).toBe(id);
    }
  });

  it("a full walk with a cursor sees every released blog exactly once, in order", async () => {
    expect(await walk(a.key, 7)).toEqual(a.released);
    expect(await walk(a.key, 1)).toEqual(a.released);
  });

  it("a walk sees every blog exactly once while blogs are released and removed between pages", async () => {
    const s = stores(t.db);
    const { workspaceId, released } = await seedWorkspace(t.db, "Churn", 12);
    const key = (await s.keys.mint(workspaceId, "walker")).key;
    const removedDuringWalk: string[] = [];
    const seen = await walk(key, 4, async (page) => {
      await s.blogs.create(workspaceId, {
        title: `Fresh ${page}`,
        bodyMarkdown: "new",
        release: true,
      });
      const victim = released.at(-1 - page);
      if (victim !== undefined && page === 1) {
        await s.blogs.setStatus(workspaceId, victim, "removed");
        removedDuringWalk.push(victim);
      }
    });
    expect(new Set(seen).size).toBe(seen.length);
    const stayedReleased = released.filter((id) => !removedDuringWalk.includes(id));
    for (const id of stayedReleased) expect(seen).toContain(id);
  });
});

describe("getBlog (openapi.yaml): one released blog", () => {
  it("returns the blog with every field a website renders from", async () => {
    const res = await api(`/blogs/${a.released[0]}`, a.key);
    expect(res.status).toBe(200);
    const blog = res.body as Blog;
    expect(Object.keys(blog).sort()).toEqual([
      "authorName",
      "authors",
      "bodyHtml",
      "bodyMarkdown",
      "canonicalUrl",
      "coverImage",
      "coverImageAlt",
      "coverImageUrl",
      "excerpt",
      "featured",
      "id",
      "metaDescription",
      "metaTitle",
      "readingTimeMinutes",
      "releasedAt",
      "slug",
      "socialImageUrl",
      "tags",
      "title",
      "updatedAt",
    ]);
    expect(blog).toMatchObject({
      id: a.released[0],
      title: "Post 24",
      slug: "post-24",
      authorName: "Test Author",
      tags: ["news"],
      coverImageUrl: null,
      coverImageAlt: null,
      coverImage: null,
      featured: false,
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImageUrl: null,
      readingTimeMinutes: 1,
    });
    expect(blog.excerpt).toBe("Paragraph of post 24.");
    expect(blog.bodyHtml).toContain("<h2>Section</h2>");
    expect(new Date(blog.releasedAt).toISOString()).toBe(blog.releasedAt);
    expect(new Date(blog.updatedAt).toISOString()).toBe(blog.updatedAt);
  });

  it("bodyHtml is rendered from the markdown and sanitised", async () => {
    const s = stores(t.db);
    const evil = await s.blogs.create(b.workspaceId, {
      title: "Evil",
      release: true,
      bodyMarkdown:
        'Hi <script>alert(1)</script> <img src="x" onerror="alert(2)"> [x](javascript:alert(3))\n\n<iframe src="https://evil.example"></iframe>',
    });
    const blog = (await api(`/blogs/${evil._id}`, b.key)).body as Blog;
    expect(blog.bodyHtml).not.toMatch(/<script|onerror|javascript:|<iframe/i);
    expect(blog.bodyMarkdown).toContain("<script>");
  });

  const hidden: [string, () => string][] = [
    ["a draft", () => a.draft],
    ["a removed blog", () => a.removed],
    ["another workspace's released blog", () => b.released[0] ?? ""],
    ["an id that never existed", () => "b_doesNotExist0000"],
    ["an id with operator-like text", () => '{"$ne":null}'],
  ];
  for (const [name, id] of hidden) {
    it(`answers 404 {"message":"Blog not found."} for ${name}`, async () => {
      const res = await api(`/blogs/${encodeURIComponent(id())}`, a.key);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });
  }

  it("a blog withdrawn to draft disappears from list and get at once", async () => {
    const s = stores(t.db);
    const blog = await s.blogs.create(b.workspaceId, {
      title: "Brief",
      bodyMarkdown: "x",
      release: true,
    });
    expect((await api(`/blogs/${blog._id}`, b.key)).status).toBe(200);
    await s.blogs.setStatus(b.workspaceId, blog._id, "draft");
    expect((await api(`/blogs/${blog._id}`, b.key)).status).toBe(404);
    expect(ids((await api("/blogs?limit=100", b.key)).body)).not.toContain(blog._id);
  });
});

describe('pure reads, caching for periodic syncs (openapi.yaml, "Caching and limits")', () => {
  it("repeating a read gives the same body and the same strong ETag", async () => {
    const first = await api(`/blogs/${a.released[1]}`, a.key);
    const second = await api(`/blogs/${a.released[1]}`, a.key);
    expect(second.text).toBe(first.text);
    expect(first.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("If-None-Match with the current ETag answers 304 with no body, on get and list", async () => {
    for (const path of [`/blogs/${a.released[2]}`, "/blogs?limit=5"]) {
      const first = await api(path, a.key);
      const etag = first.headers.get("etag") ?? "";
      const again = await api(path, a.key, { "if-none-match": etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("x-request-id")).toBeTruthy();
    }
  });

  it("the ETag of the list changes when a blog is released", async () => {
    const before = (await api("/blogs", b.key)).headers.get("etag") ?? "";
    await stores(t.db).blogs.create(b.workspaceId, {
      title: "Newer",
      bodyMarkdown: "n",
      release: true,
    });
    const after = await api("/blogs", b.key, { "if-none-match": before });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
  });

  it("responses may only be kept by private caches and vary by key", async () => {
    const res = await api("/blogs", a.key);
    expect(res.headers.get("cache-control")).toBe("private, max-age=60");
    expect(res.headers.get("vary")).toMatch(/x-api-key/i);
  });

  it("sends no CORS headers: keys do not belong in browsers", async () => {
    const res = await api("/blogs", a.key, { origin: "https://evil.example" });
    expect([...res.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});
