import { beforeAll, describe, expect, it } from "vitest";
import type { AuthorDoc } from "../../server/src/platform/db/collections.js";
import type {
  Author,
  AuthorList,
  Blog,
  BlogList,
  ChangePage,
} from "../../server/src/platform/http/consumer-types.js";
import { createStores } from "../../server/src/stores.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// openapi.yaml, "Authors": each Blog lists its authors whole, in the editors' order, and
// `authorName` is the primary's name (the byline when it names none); GET /authors and
// /authors/by-slug/{slug}; `author=` on the list, exact under keyset paging; an author's edit or
// removal changes every blog naming them: their ETags, and the changes feed lists them again.

let t: TestDb;
let server: TestServer;
let s: ReturnType<typeof createStores>;
let w: SeededWorkspace;
let other: SeededWorkspace;
let ada: AuthorDoc;
let grace: AuthorDoc;
/** Released: both (Ada first), Grace alone, nobody (a byline); a draft by Ada. */
const blogs = { both: "", grace: "", byline: "", draft: "" };

const api = (path: string, key = w.key, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": key, ...headers });
const list = async (query: string) => {
  const res = await api(`/blogs${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as BlogList;
};
const blogById = async (id: string) => (await api(`/blogs/${id}`)).body as Blog;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  s = createStores(t.db);
  w = await seedWorkspace(t.db, "Authors", 0);
  other = await seedWorkspace(t.db, "Elsewhere", 0);
  ada = await s.authors.create(w.workspaceId, {
    name: "Ada <Lovelace>",
    slug: "ada-lovelace",
    bio: "Engines & numbers.\nPoems too.",
    websiteUrl: "https://example.com/ada",
  });
  grace = await s.authors.create(w.workspaceId, { name: "Grace Hopper" });
  const write = async (title: string, authorIds: string[], release = true) => {
    const blog = await s.blogs.create(w.workspaceId, {
      title,
      bodyMarkdown: `${title}.`,
      authorName: "The Staff",
      authorIds,
      tags: ["notes"],
      release,
    });
    await sleep(3);
    return blog._id;
  };
  blogs.both = await write("Both", [ada._id, grace._id]);
  blogs.grace = await write("Grace alone", [grace._id]);
  blogs.byline = await write("A byline", []);
  blogs.draft = await write("Draft by Ada", [ada._id], false);
  // Another workspace's author with a slug of this one's, and its blog.
  const theirs = await s.authors.create(other.workspaceId, { name: "Ada", slug: "ada-lovelace" });
  await s.blogs.create(other.workspaceId, {
    title: "Theirs",
    bodyMarkdown: "x",
    authorIds: [theirs._id],
    release: true,
  });
});

describe("authors on blogs (openapi.yaml, Authors)", () => {
  it("each blog lists its authors whole in order; authorName is the primary's, or the byline", async () => {
    const page = await list("");
    expect(page.data.map((b) => b.title)).toEqual(["A byline", "Grace alone", "Both"]);
    const both = page.data[2] as Blog;
    expect(both.authorName).toBe("Ada <Lovelace>");
    expect(both.authors).toEqual([
      {
        id: ada._id,
        slug: "ada-lovelace",
        name: "Ada <Lovelace>",
        bio: "Engines & numbers.\nPoems too.",
        avatarUrl: null,
        websiteUrl: "https://example.com/ada",
      },
      {
        id: grace._id,
        slug: "grace-hopper",
        name: "Grace Hopper",
        bio: null,
        avatarUrl: null,
        websiteUrl: null,
      },
    ]);
    expect(page.data[0]).toMatchObject({ authorName: "The Staff", authors: [] });
    expect(await blogById(blogs.both)).toEqual(both);
    expect((await api("/blogs/by-slug/both")).body).toEqual(both);
  });

  it("fields=authors and fields=authorName send them alone", async () => {
    const page = await list("?fields=authors,authorName&limit=1&author=grace-hopper");
    expect(page.data).toEqual([
      {
        id: blogs.grace,
        authorName: "Grace Hopper",
        authors: [expect.objectContaining({ id: grace._id })],
      },
    ]);
  });
});

describe("the authors (openapi.yaml, listAuthors, getAuthorBySlug)", () => {
  it("GET /authors lists the workspace's authors by name, with an ETag and 304", async () => {
    const res = await api("/authors");
    expect(res.status).toBe(200);
    expect((res.body as AuthorList).data.map((a) => a.slug)).toEqual([
      "ada-lovelace",
      "grace-hopper",
    ]);
    const etag = res.headers.get("etag") ?? "";
    expect((await api("/authors", w.key, { "if-none-match": etag })).status).toBe(304);
  });

  it("GET /authors/by-slug/{slug}: the author; 404 for a slug no author here has; 400 for no slug", async () => {
    const res = await api("/authors/by-slug/grace-hopper");
    expect(res.status).toBe(200);
    expect((res.body as Author).id).toBe(grace._id);
    const missing = await api("/authors/by-slug/nobody");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "Author not found." });
    // Another workspace's author is not this key's.
    expect(((await api("/authors/by-slug/ada-lovelace", other.key)).body as Author).name).toBe(
      "Ada",
    );
    expect((await api("/authors/by-slug/Ada")).status).toBe(400);
  });
});

describe("author= (openapi.yaml, listBlogs, Author)", () => {
  it("lists the released blogs naming the author at any position, exactly once across pages", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: BlogList = await list(
        `?author=grace-hopper&limit=1${cursor === null ? "" : `&cursor=${cursor}`}`,
      );
      seen.push(...page.data.map((b) => b.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual([blogs.grace, blogs.both]);
    // Drafts never; with a tag, both must hold.
    expect((await list("?author=ada-lovelace")).data.map((b) => b.id)).toEqual([blogs.both]);
    expect((await list("?author=ada-lovelace&tag=other")).data).toEqual([]);
  });

  it("a slug no author has is an empty page, not an error", async () => {
    expect(await list("?author=nobody")).toEqual({ data: [], nextCursor: null });
  });

  it("a cursor is bound to its author: another author's is a 400", async () => {
    const first = await list("?author=grace-hopper&limit=1");
    const res = await api(`/blogs?author=ada-lovelace&limit=1&cursor=${first.nextCursor}`);
    expect(res.status).toBe(400);
  });

  it("the preview perspective lists drafts by the author too", async () => {
    const preview = (await s.keys.mint(w.workspaceId, "Preview", null, { kind: "preview" })).key;
    const res = await get(`${server.url}/api/preview/blogs?author=ada-lovelace`, {
      "x-api-key": preview,
    });
    expect((res.body as BlogList).data.map((b) => b.id).sort()).toEqual(
      [blogs.both, blogs.draft].sort(),
    );
  });
});

describe("an author's edit reaches every blog naming them (openapi.yaml, Authors)", () => {
  it("their ETags change, while a selection without authors keeps its own", async () => {
    const before = await api(`/blogs/${blogs.both}`);
    const listBefore = await api("/blogs");
    const narrow = await api(`/blogs/${blogs.both}?fields=title`);
    const tag = (res: { headers: Headers }) => res.headers.get("etag") ?? "";
    expect(
      (await api(`/blogs/${blogs.both}`, w.key, { "if-none-match": tag(before) })).status,
    ).toBe(304);

    await s.authors.update(w.workspaceId, ada._id, { bio: "Wrote the first program." });

    const after = await api(`/blogs/${blogs.both}`, w.key, { "if-none-match": tag(before) });
    expect(after.status).toBe(200);
    expect((after.body as Blog).authors[0]?.bio).toBe("Wrote the first program.");
    expect((await api("/blogs", w.key, { "if-none-match": tag(listBefore) })).status).toBe(200);
    expect(
      (await api(`/blogs/${blogs.both}?fields=title`, w.key, { "if-none-match": tag(narrow) }))
        .status,
    ).toBe(304);
    // The blog that does not name Ada keeps its ETag.
    const graceOnly = await api(`/blogs/${blogs.grace}`);
    await s.authors.update(w.workspaceId, ada._id, { name: "Ada Lovelace" });
    expect(
      (await api(`/blogs/${blogs.grace}`, w.key, { "if-none-match": tag(graceOnly) })).status,
    ).toBe(304);
  });

  it("the changes feed lists the released blogs naming the author again, and not the others", async () => {
    let page = (await api("/changes?limit=100")).body as ChangePage;
    while (page.hasMore) {
      page = (await api(`/changes?limit=100&since=${encodeURIComponent(page.nextToken)}`))
        .body as ChangePage;
    }
    await s.authors.update(w.workspaceId, grace._id, { websiteUrl: "https://example.com/grace" });
    const next = (await api(`/changes?limit=100&since=${encodeURIComponent(page.nextToken)}`))
      .body as ChangePage;
    const upserts = next.changes.flatMap((c) => (c.type === "upsert" ? [c.blog] : []));
    expect([...new Set(upserts.map((b) => b.id))].sort()).toEqual([blogs.both, blogs.grace].sort());
    for (const blog of upserts) {
      expect(blog.authors.find((a) => a.id === grace._id)?.websiteUrl).toBe(
        "https://example.com/grace",
      );
    }
  });

  it("a removed author leaves every blog at once, and those blogs are listed again", async () => {
    let page = (await api("/changes?limit=100")).body as ChangePage;
    while (page.hasMore) {
      page = (await api(`/changes?limit=100&since=${encodeURIComponent(page.nextToken)}`))
        .body as ChangePage;
    }
    await s.authors.remove(w.workspaceId, grace._id);
    const both = await blogById(blogs.both);
    expect(both.authors.map((a) => a.id)).toEqual([ada._id]);
    expect((await blogById(blogs.grace)).authors).toEqual([]);
    expect((await blogById(blogs.grace)).authorName).toBe("The Staff");
    expect(await list("?author=grace-hopper")).toEqual({ data: [], nextCursor: null });
    const next = (await api(`/changes?limit=100&since=${encodeURIComponent(page.nextToken)}`))
      .body as ChangePage;
    const ids = new Set(next.changes.flatMap((c) => (c.type === "upsert" ? [c.blog.id] : [])));
    expect([...ids].sort()).toEqual([blogs.both, blogs.grace].sort());
  });
});
