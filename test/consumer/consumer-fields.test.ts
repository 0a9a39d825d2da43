import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BLOG_FIELDS } from "../../server/src/blogs/blog-view.js";
import type { Blog, BlogList, PartialBlog } from "../../server/src/platform/http/consumer-types.js";
import { editLive, get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// openapi.yaml, "Choosing fields": `fields` on listBlogs and getBlog.
let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let big: SeededWorkspace;
const api = (path: string, key: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": key, ...headers });
const firstId = () => a.released[0] ?? "";

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha", 5);
  big = await seedWorkspace(t.db, "Big", 0);
  const s = stores(t.db);
  // A page of 100 blogs with bodies of an ordinary article's size (a few KB of Markdown).
  const paragraph =
    "Pressroom hands released blogs to websites through a read-only API; this paragraph " +
    "stands for an article's text, with *emphasis*, `code` and a [link](https://example.com/a).\n\n";
  for (let i = 0; i < 100; i++) {
    const created = await s.blogs.create(big.workspaceId, {
      title: `A release note of ordinary length, number ${i}`,
      bodyMarkdown: `# Heading ${i}\n\n${paragraph.repeat(12)}`,
      tags: ["news", "release-notes"],
      authorName: "Test Author",
      release: true,
    });
    big.released.unshift(created._id);
  }
});

describe("fields (openapi.yaml, Choosing fields): the selected Blog properties, id always", () => {
  it("getBlog with fields sends only those properties, in the Blog schema's order", async () => {
    const full = (await api(`/blogs/${firstId()}`, a.key)).body as Blog;
    const res = await api(`/blogs/${firstId()}?fields=title,slug`, a.key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object)).toEqual(["id", "slug", "title"]);
    expect(res.body).toEqual({ id: full.id, slug: full.slug, title: full.title });
  });

  it("id is sent even when not asked for, and a name listed twice counts once", async () => {
    const res = await api(`/blogs/${firstId()}?fields=updatedAt,title,updatedAt`, a.key);
    expect(Object.keys(res.body as object)).toEqual(["id", "title", "updatedAt"]);
  });

  it("each selected property is exactly the whole Blog's (dates, null cover, tags, HTML)", async () => {
    const full = (await api(`/blogs/${firstId()}`, a.key)).body as Blog;
    const names = BLOG_FIELDS.filter((name) => name !== "slug");
    const res = await api(`/blogs/${firstId()}?fields=${names.join(",")}`, a.key);
    const { slug: _slug, ...rest } = full;
    expect(res.text).toBe(JSON.stringify(rest));
  });

  it("the list with fields holds partial blogs, in the same order, with the same cursors", async () => {
    const full = (await api("/blogs?limit=2", a.key)).body as BlogList;
    const res = await api("/blogs?limit=2&fields=slug", a.key);
    expect(res.status).toBe(200);
    const body = res.body as { data: PartialBlog[]; nextCursor: string | null };
    expect(body.data).toEqual(full.data.map((b) => ({ id: b.id, slug: b.slug })));
    expect(body.nextCursor).toBe(full.nextCursor);
  });

  it("a full cursor walk with fields sees every released blog once, in order", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "" : `&cursor=${cursor}`;
      const res = await api(`/blogs?limit=2&fields=title${query}`, a.key);
      const body = res.body as { data: PartialBlog[]; nextCursor: string | null };
      for (const blog of body.data) expect(Object.keys(blog)).toEqual(["id", "title"]);
      seen.push(...body.data.map((b) => b.id));
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(a.released);
  });

  it("without fields, or naming every property, the body and ETag are the whole Blog's", async () => {
    const plain = await api(`/blogs/${firstId()}`, a.key);
    const all = await api(`/blogs/${firstId()}?fields=${[...BLOG_FIELDS].reverse()}`, a.key);
    expect(all.text).toBe(plain.text);
    expect(all.headers.get("etag")).toBe(plain.headers.get("etag"));
    expect(Object.keys(plain.body as object)).toEqual([...BLOG_FIELDS]);
    const list = await api("/blogs?limit=3", a.key);
    const listAll = await api(`/blogs?limit=3&fields=${BLOG_FIELDS.join(",")}`, a.key);
    expect(listAll.text).toBe(list.text);
    expect(listAll.headers.get("etag")).toBe(list.headers.get("etag"));
  });
});

describe("fields allow-list (openapi.yaml, Fields): exactly the Blog schema's properties", () => {
  interface Spec {
    components: {
      schemas: Record<string, { properties: Record<string, unknown> }>;
      parameters: Record<string, { schema: { pattern: string } }>;
    };
  }
  const spec = parse(
    readFileSync(new URL("../../openapi/openapi.yaml", import.meta.url), "utf8"),
  ) as Spec;

  it("the server's list, PartialBlog and the parameter's pattern name the Blog properties in order", () => {
    const blog = Object.keys(spec.components.schemas.Blog?.properties ?? {});
    expect([...BLOG_FIELDS]).toEqual(blog);
    expect(Object.keys(spec.components.schemas.PartialBlog?.properties ?? {})).toEqual(blog);
    const pattern = new RegExp(spec.components.parameters.Fields?.schema.pattern ?? "");
    for (const name of blog) expect(pattern.test(name), name).toBe(true);
    expect(pattern.test(blog.join(","))).toBe(true);
    for (const name of ["Title", "workspaceId", "ids", "slugs", "id,", "id,foo", "markdown"]) {
      expect(pattern.test(name), name).toBe(false);
    }
  });
});

describe("fields and ETags (openapi.yaml): each field set is its own representation", () => {
  it("the ETag differs per field set, and is the same for the same set in any order", async () => {
    const path = `/blogs/${firstId()}`;
    const whole = (await api(path, a.key)).headers.get("etag");
    const slugTitle = (await api(`${path}?fields=slug,title`, a.key)).headers.get("etag");
    const titleSlug = (await api(`${path}?fields=title,slug,id,title`, a.key)).headers.get("etag");
    const slug = (await api(`${path}?fields=slug`, a.key)).headers.get("etag");
    expect(new Set([whole, slugTitle, slug]).size).toBe(3);
    expect(titleSlug).toBe(slugTitle);
    const page = (await api("/blogs?limit=2", a.key)).headers.get("etag");
    const partialPage = (await api("/blogs?limit=2&fields=slug", a.key)).headers.get("etag");
    expect(partialPage).not.toBe(page);
  });

  it("a 304 answers only the same field set; another set or the whole Blog gets a 200", async () => {
    for (const base of [`/blogs/${firstId()}`, "/blogs?limit=2"]) {
      const sep = base.includes("?") ? "&" : "?";
      const first = await api(`${base}${sep}fields=title,slug`, a.key);
      const etag = first.headers.get("etag") ?? "";
      const same = await api(`${base}${sep}fields=slug,title`, a.key, { "if-none-match": etag });
      expect(same.status).toBe(304);
      expect(same.text).toBe("");
      const other = await api(`${base}${sep}fields=slug`, a.key, { "if-none-match": etag });
      expect(other.status).toBe(200);
      expect(other.headers.get("etag")).not.toBe(etag);
      const whole = await api(base, a.key, { "if-none-match": etag });
      expect(whole.status).toBe(200);
      expect(whole.text).toBe((await api(base, a.key)).text);
    }
  });

  it("an edit changes the partial representation's ETag too", async () => {
    const s = stores(t.db);
    const { workspaceId, released, key } = await seedWorkspace(t.db, "Edited", 1);
    const id = released[0] ?? "";
    const before = (await api(`/blogs/${id}?fields=title`, key)).headers.get("etag") ?? "";
    await editLive(s.blogs, workspaceId, id, { title: "Renamed" });
    const after = await api(`/blogs/${id}?fields=title`, key, { "if-none-match": before });
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ id, title: "Renamed" });
  });
});

describe("fields, bad input (openapi.yaml, Choosing fields): 400 with a message, never a 500", () => {
  it("unknown names get 400 naming each once, in the order sent", async () => {
    for (const path of ["/blogs", `/blogs/${firstId()}`]) {
      const res = await api(`${path}?fields=title,foo,bar,foo`, a.key);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "Unknown field(s) in fields: foo, bar." });
    }
  });

  it("names are case-sensitive: Title is unknown", async () => {
    const res = await api("/blogs?fields=Title", a.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Unknown field(s) in fields: Title." });
  });

  it("an empty value, an empty name, spaces or other characters get 400 naming fields", async () => {
    for (const value of [
      "",
      ",",
      "id,,slug",
      "slug,",
      ",slug",
      "id, slug",
      "%20slug",
      "slug%09",
      "body_html",
      "slug;title",
      "s%C3%A9lug",
      "x".repeat(501),
    ]) {
      const res = await api(`/blogs?fields=${value}`, a.key);
      expect(res.status, value).toBe(400);
      expect((res.body as { message: string }).message, value).toMatch(/fields/);
    }
  });

  it("fields sent twice gets 400 naming fields", async () => {
    for (const path of ["/blogs", `/blogs/${firstId()}`]) {
      const res = await api(`${path}?fields=id&fields=slug`, a.key);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toMatch(/fields/);
    }
  });

  it("a bad fields is refused before anything is read: unknown blog ids get the same 400", async () => {
    const res = await api("/blogs/b_nope?fields=nope", a.key);
    expect(res.status).toBe(400);
    const notFound = await api("/blogs/b_nope?fields=slug", a.key);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ message: "Blog not found." });
  });
});

describe("fields, security (openapi.yaml): nothing outside the Blog schema can be selected", () => {
  const internals = [
    "workspaceId",
    "status",
    "revision",
    "createdAt",
    "removedAt",
    "markdown",
    "constructor",
    "toString",
    "hasOwnProperty",
    "valueOf",
  ];

  it("a stored or inherited name that is not a Blog property is a 400, and no such key is sent", async () => {
    for (const name of internals) {
      for (const path of ["/blogs", `/blogs/${firstId()}`]) {
        const res = await api(`${path}?fields=id,${name}`, a.key);
        expect(res.status, name).toBe(400);
        expect(res.body, name).toEqual({ message: `Unknown field(s) in fields: ${name}.` });
        expect(res.text).not.toContain(a.workspaceId);
      }
    }
    for (const name of ["_id", "__proto__", "id.$", "$where", "releasedAt.0"]) {
      const res = await api(`/blogs?fields=${encodeURIComponent(name)}`, a.key);
      expect(res.status, name).toBe(400);
      expect(res.text).not.toContain(a.workspaceId);
    }
  });

  it("drafts, removed and other workspaces' blogs get the same 404 with fields", async () => {
    for (const id of [a.draft, a.removed, big.released[0] ?? ""]) {
      const res = await api(`/blogs/${id}?fields=title`, a.key);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Blog not found." });
    }
    const list = (await api("/blogs?limit=100&fields=title", a.key)).body as BlogList;
    expect(list.data.map((b) => b.id)).toEqual(a.released);
  });
});

describe("fields, size (openapi.yaml, Choosing fields): a listing page without bodies", () => {
  it("a fields=id,slug,title page of 100 is at least 5 times fewer bytes than the whole page", async () => {
    const whole = await api("/blogs?limit=100", big.key);
    const partial = await api("/blogs?limit=100&fields=id,slug,title", big.key);
    expect((whole.body as BlogList).data).toHaveLength(100);
    expect((partial.body as BlogList).data).toHaveLength(100);
    const wholeBytes = Buffer.byteLength(whole.text);
    const partialBytes = Buffer.byteLength(partial.text);
    console.log(`fields=id,slug,title page of 100: ${partialBytes} B; whole page: ${wholeBytes} B`);
    expect(wholeBytes / partialBytes).toBeGreaterThanOrEqual(5);
  });
});
