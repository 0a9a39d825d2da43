import { beforeAll, describe, expect, it } from "vitest";
import { tagCounts } from "../../server/src/blogs/tag-counts.js";
import { TAGS_RECORDED_PER_CALL } from "../../server/src/blogs/tag-counts-cache.js";
import { collections } from "../../server/src/platform/db/collections.js";
import type { BlogList, TagList } from "../../server/src/platform/http/consumer-types.js";
import { editLive, get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// openapi.yaml, "Tags": `tag` on listBlogs (any of, normal form only) and listTags.
let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
/** Alpha's released blogs by tag, newest release first (as the list orders them). */
const byTag: Record<string, string[]> = { "c++": [], "node.js": [], "release-notes": [] };
let untagged: string;
const api = (path: string, key: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": key, ...headers });
const ids = (body: unknown) => (body as BlogList).data.map((x) => x.id);
const q = (tags: string[]) => tags.map((tag) => `tag=${encodeURIComponent(tag)}`).join("&");
const pause = () => new Promise((r) => setTimeout(r, 2));

/** Every page of `/blogs?<query>`, following `nextCursor`; `between` runs after each page. */
async function walk(
  key: string,
  query: string,
  limit: number,
  between?: (page: number) => Promise<void>,
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const more: string = cursor === null ? "" : `&cursor=${cursor}`;
    const res = await api(`/blogs?${query}&limit=${limit}${more}`, key);
    expect(res.status, res.text).toBe(200);
    const body = res.body as BlogList;
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
  a = await seedWorkspace(t.db, "Alpha", 3); // tagged "news"
  b = await seedWorkspace(t.db, "Beta", 2); // also "news": never counted for Alpha
  const s = stores(t.db);
  const tagSets = [["c++"], ["node.js", "c++"], ["release-notes"], ["node.js"], ["c++"]];
  for (let i = 0; i < 15; i++) {
    const tags = tagSets[i % tagSets.length] ?? [];
    const blog = await s.blogs.create(a.workspaceId, {
      title: `Tagged ${i}`,
      bodyMarkdown: "x",
      tags,
      release: true,
    });
    for (const tag of tags) byTag[tag]?.unshift(blog._id);
    await pause();
  }
  untagged = (
    await s.blogs.create(a.workspaceId, { title: "No tags", bodyMarkdown: "x", release: true })
  )._id;
  // Alpha's draft, its removed blog and Beta's released blog carry tags of their own.
  await s.blogs.create(a.workspaceId, {
    title: "Draft",
    bodyMarkdown: "x",
    tags: ["c++", "secret"],
  });
  const gone = await s.blogs.create(a.workspaceId, {
    title: "Gone",
    bodyMarkdown: "x",
    tags: ["c++", "removed-only"],
    release: true,
  });
  await s.blogs.setStatus(a.workspaceId, gone._id, "removed");
  await s.blogs.create(b.workspaceId, {
    title: "Beta's",
    bodyMarkdown: "x",
    tags: ["c++", "beta-only"],
    release: true,
  });
});

describe("tag filter (openapi.yaml, Tags): happy paths", () => {
  it("tag=… lists exactly the released blogs that carry it, in the plain list's order", async () => {
    const all = ids((await api("/blogs?limit=100", a.key)).body);
    for (const [tag, expected] of Object.entries(byTag)) {
      const res = await api(`/blogs?limit=100&${q([tag])}`, a.key);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(expected);
      expect(ids(res.body)).toEqual(all.filter((id) => expected.includes(id)));
    }
    expect(ids((await api("/blogs?limit=100&tag=news", a.key)).body)).toEqual(a.released);
  });

  it("a repeated tag means any of them: each blog that carries one or more, once", async () => {
    const all = ids((await api("/blogs?limit=100", a.key)).body);
    const res = await api(`/blogs?limit=100&${q(["node.js", "release-notes", "c++"])}`, a.key);
    const expected = all.filter((id) => id !== untagged && !a.released.includes(id));
    expect(ids(res.body)).toEqual(expected);
    expect(new Set(ids(res.body)).size).toBe(ids(res.body).length);
  });

  it("the order and repetitions of the tag values do not matter: same body, same ETag", async () => {
    const one = await api(`/blogs?${q(["node.js", "c++"])}`, a.key);
    const other = await api(`/blogs?${q(["c++", "node.js", "c++"])}`, a.key);
    expect(other.text).toBe(one.text);
    expect(other.headers.get("etag")).toBe(one.headers.get("etag"));
  });

  it("a cursor walk with a tag sees each of its blogs once, in order, at every page size", async () => {
    for (const limit of [1, 2, 7]) {
      expect(await walk(a.key, q(["c++"]), limit)).toEqual(byTag["c++"]);
    }
    expect(await walk(a.key, `${q(["c++"])}&fields=id,title`, 3)).toEqual(byTag["c++"]);
  });

  it("tag combines with fields: partial blogs of the tagged ones", async () => {
    const res = await api(`/blogs?${q(["node.js"])}&fields=tags`, a.key);
    const data = (res.body as { data: { id: string; tags: string[] }[] }).data;
    expect(data.map((x) => x.id)).toEqual(byTag["node.js"]);
    for (const blog of data) expect(blog.tags).toContain("node.js");
  });

  it("values are percent-encoded: an encoded comma is part of a tag, a raw one or a raw + is a 400", async () => {
    const res = await api("/blogs?tag=c%2B%2B%2Cnode.js", a.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], nextCursor: null });
    for (const query of ["tag=c%2B%2B,node.js", "tag=c++"]) {
      const raw = await api(`/blogs?${query}`, a.key);
      expect(raw.status, query).toBe(400);
      expect((raw.body as { message: string }).message).toContain("tag");
    }
  });

  it("a tag no blog carries gives an empty page, not a 404", async () => {
    const res = await api("/blogs?tag=nothing-here", a.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], nextCursor: null });
  });

  it("the walk stays exact while tags and releases change between pages", async () => {
    const s = stores(t.db);
    const ws = (await s.workspaces.create("Churn"))._id;
    const key = (await s.keys.mint(ws, "walker")).key;
    const tagged: string[] = [];
    for (let i = 0; i < 24; i++) {
      tagged.unshift(
        (
          await s.blogs.create(ws, {
            title: `Churn ${i}`,
            bodyMarkdown: "x",
            tags: i % 2 === 0 ? ["go"] : ["go", "rust"],
            release: true,
          })
        )._id,
      );
      await pause();
    }
    // Between pages: a new blog with the tag is released, one loses the tag, another gains it,
    // one is unreleased, one is unreleased and released again (moving to the front).
    const touched = new Set<string>();
    const seen = await walk(key, "tag=go", 4, async (page) => {
      const fresh = await s.blogs.create(ws, {
        title: `Fresh ${page}`,
        bodyMarkdown: "x",
        tags: ["go"],
        release: true,
      });
      touched.add(fresh._id);
      const pick = (k: number) => tagged[(page * 5 + k) % tagged.length] ?? "";
      await editLive(s.blogs, ws, pick(0), { tags: ["rust"] });
      await editLive(s.blogs, ws, pick(1), { tags: ["rust", "go"] });
      await s.blogs.setStatus(ws, pick(2), "draft");
      await s.blogs.setStatus(ws, pick(3), "draft");
      await s.blogs.setStatus(ws, pick(3), "released");
      for (let k = 0; k < 4; k++) touched.add(pick(k));
    });
    expect(new Set(seen).size).toBe(seen.length);
    const untouched = tagged.filter((id) => !touched.has(id));
    expect(untouched.length).toBeGreaterThan(0);
    for (const id of untouched) expect(seen).toContain(id);
    // Whatever was seen carried the tag when its page was read: now-untagged ones were touched.
    const now = ids((await api("/blogs?limit=100&tag=go", key)).body);
    for (const id of seen) if (!now.includes(id)) expect(touched.has(id)).toBe(true);
  });
});

describe("listTags (openapi.yaml): tags of released blogs with counts", () => {
  it("counts each tag's released blogs, most used first, ties in code point order", async () => {
    const res = await api("/tags", a.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { tag: "c++", count: 9 },
        { tag: "node.js", count: 6 },
        { tag: "news", count: 3 },
        { tag: "release-notes", count: 3 },
      ],
    } satisfies TagList);
    expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
  });

  it("each listed tag filters the list to exactly its count of blogs", async () => {
    for (const { tag, count } of ((await api("/tags", a.key)).body as TagList).data) {
      expect(ids((await api(`/blogs?limit=100&${q([tag])}`, a.key)).body)).toHaveLength(count);
    }
  });

  it("lists at most the 1,000 most used tags (TagList's maxItems)", async () => {
    const s = stores(t.db);
    const ws = (await s.workspaces.create("Many tags"))._id;
    const key = (await s.keys.mint(ws, "many")).key;
    // 51 blogs × 20 tags: 1,019 distinct, "everywhere" (on two blogs) the most used.
    for (let i = 0; i < 51; i++) {
      const own = Array.from({ length: 20 }, (_, k) => `t${i}-${k}`);
      await s.blogs.create(ws, {
        title: `Many ${i}`,
        bodyMarkdown: "x",
        tags: i < 2 ? ["everywhere", ...own.slice(1)] : own,
        release: true,
      });
    }
    const data = ((await api("/tags", key)).body as TagList).data;
    expect(data).toHaveLength(1000);
    expect(data[0]).toEqual({ tag: "everywhere", count: 2 });
  });

  it("a workspace whose released blogs have no tags gets an empty list", async () => {
    const s = stores(t.db);
    const ws = (await s.workspaces.create("Plain"))._id;
    await s.blogs.create(ws, { title: "Plain", bodyMarkdown: "x", release: true });
    const key = (await s.keys.mint(ws, "plain")).key;
    expect((await api("/tags", key)).body).toEqual({ data: [] });
  });
});

describe("ETags and 304 (openapi.yaml, Tags): one representation per tag set", () => {
  it("a tag set has its own ETag: 304 only with that set's", async () => {
    const plain = await api("/blogs", a.key);
    const cpp = await api("/blogs?tag=c%2B%2B", a.key);
    const node = await api("/blogs?tag=node.js", a.key);
    const etags = [plain, cpp, node].map((r) => r.headers.get("etag") ?? "");
    expect(new Set(etags).size).toBe(3);
    const again = await api("/blogs?tag=c%2B%2B", a.key, { "if-none-match": etags[1] ?? "" });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const other = await api("/blogs?tag=node.js", a.key, { "if-none-match": etags[1] ?? "" });
    expect(other.status).toBe(200);
    const unfiltered = await api("/blogs", a.key, { "if-none-match": etags[1] ?? "" });
    expect(unfiltered.status).toBe(200);
    const withFields = await api("/blogs?tag=c%2B%2B&fields=id", a.key, {
      "if-none-match": etags[1] ?? "",
    });
    expect(withFields.status).toBe(200);
  });

  it("/tags answers 304 while nothing changes, and a new ETag once a release changes a count", async () => {
    const s = stores(t.db);
    const ws = (await s.workspaces.create("Counting"))._id;
    const key = (await s.keys.mint(ws, "counter")).key;
    const blog = await s.blogs.create(ws, { title: "One", bodyMarkdown: "x", tags: ["x"] });
    const first = await api("/tags", key);
    expect(first.body).toEqual({ data: [] });
    const etag = first.headers.get("etag") ?? "";
    expect((await api("/tags", key, { "if-none-match": etag })).status).toBe(304);
    await s.blogs.setStatus(ws, blog._id, "released");
    const after = await api("/tags", key, { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ data: [{ tag: "x", count: 1 }] });
    expect(after.headers.get("etag")).not.toBe(etag);
  });
});

describe("listTags is computed once per change of the workspace (blogs/tag-counts-cache.ts)", () => {
  /** The counting reads (tag-counts.ts): aggregates on blogs that unwind their tags. */
  const countingReads = () =>
    t.commands.filter(
      (c) =>
        c.name === "aggregate" &&
        c.collection === "blogs" &&
        JSON.stringify(c.command.pipeline).includes(JSON.stringify({ $unwind: "$tags" })),
    ).length;

  it("repeated calls with nothing changed count once; any change, made by any instance, is counted at the next call", async () => {
    const s = stores(t.db);
    const ws = (await s.workspaces.create("Cached counts"))._id;
    const key = (await s.keys.mint(ws, "counter")).key;
    const blog = await s.blogs.create(ws, {
      title: "One",
      bodyMarkdown: "x",
      tags: ["x"],
      release: true,
    });
    const before = countingReads();
    for (let i = 0; i < 3; i++) {
      expect((await api("/tags", key)).body).toEqual({ data: [{ tag: "x", count: 1 }] });
    }
    expect(countingReads() - before).toBe(1);
    // `s` is another instance's stores: its writes reach this server only through the database.
    await editLive(s.blogs, ws, blog._id, { tags: ["x", "y"] });
    expect((await api("/tags", key)).body).toEqual({
      data: [
        { tag: "x", count: 1 },
        { tag: "y", count: 1 },
      ],
    });
    await s.blogs.setStatus(ws, blog._id, "draft");
    expect((await api("/tags", key)).body).toEqual({ data: [] });
    await s.blogs.setStatus(ws, blog._id, "released");
    await s.blogs.setStatus(ws, blog._id, "removed");
    expect((await api("/tags", key)).body).toEqual({ data: [] });
    expect(countingReads() - before).toBe(4);
  });
});

describe("listTags waits for a bounded share of the feed's recording (blogs/tag-counts-cache.ts)", () => {
  it("with more marked blogs than one call records, a call records its bound and still counts every released blog", async () => {
    const s = stores(t.db);
    const ws = (await s.workspaces.create("Marked counts"))._id;
    const key = (await s.keys.mint(ws, "counter")).key;
    const first = await s.blogs.create(ws, {
      title: "Zero",
      bodyMarkdown: "x",
      tags: ["a"],
      release: true,
    });
    const blogs = collections(t.db).blogs;
    const doc = await blogs.findOne({ _id: first._id });
    if (doc === null) throw new Error("the blog just made is gone");
    // What an import leaves: released blogs marked for the feed, none recorded yet.
    const marked = TAGS_RECORDED_PER_CALL * 2 + 7;
    await blogs.insertMany(
      Array.from({ length: marked }, (_, i) => ({
        ...doc,
        _id: `${doc._id}_m${i}`,
        slug: `marked-${i}`,
        tags: i % 2 === 0 ? ["a", "b"] : ["b"],
        feedPending: true,
      })),
    );
    const pending = () => blogs.countDocuments({ workspaceId: ws, feedPending: true });
    const expected = {
      data: [
        { tag: "b", count: marked },
        { tag: "a", count: 1 + Math.ceil(marked / 2) },
      ],
    };
    const waiting = await pending();
    expect(waiting).toBeGreaterThanOrEqual(marked);
    expect((await api("/tags", key)).body).toEqual(expected);
    expect(await pending()).toBe(waiting - TAGS_RECORDED_PER_CALL);
    expect((await api("/tags", key)).body).toEqual(expected);
    expect(await pending()).toBe(waiting - 2 * TAGS_RECORDED_PER_CALL);
    // The feed records the rest; the counts are still those of every released blog.
    for (;;) {
      const res = await api("/changes?limit=100", key);
      if (!(res.body as { hasMore: boolean }).hasMore) break;
    }
    expect(await pending()).toBe(0);
    expect((await api("/tags", key)).body).toEqual(expected);
  });
});

describe("listTags counts every released blog of the workspace once (blogs/tag-counts.ts)", () => {
  it("the aggregate's counts are those of one pass over the workspace's released blogs: drafts, removed blogs and other workspaces left out", async () => {
    const s = stores(t.db);
    const ws = (await s.workspaces.create("Counted tags"))._id;
    const other = (await s.workspaces.create("Other tags"))._id;
    const tagSets = [["a"], ["a", "b"], ["b"], ["c"], ["a", "c"], ["a"], [], ["b", "c", "d"]];
    for (const tags of tagSets) {
      await s.blogs.create(ws, { title: "t", bodyMarkdown: "x", tags, release: true });
    }
    await s.blogs.create(ws, { title: "draft", bodyMarkdown: "x", tags: ["a", "z"] });
    const removed = await s.blogs.create(ws, {
      title: "removed",
      bodyMarkdown: "x",
      tags: ["a", "y"],
      release: true,
    });
    await s.blogs.setStatus(ws, removed._id, "removed");
    await s.blogs.create(other, { title: "o", bodyMarkdown: "x", tags: ["a", "x"], release: true });
    const expected = new Map<string, number>();
    for (const tags of tagSets)
      for (const tag of tags) expected.set(tag, (expected.get(tag) ?? 0) + 1);
    const counted = await tagCounts(collections(t.db)).tagCounts(ws);
    expect(new Map(counted.map(({ tag, count }) => [tag, count]))).toEqual(expected);
    // Most used first, ties in code point order (openapi.yaml, listTags).
    expect(counted.map(({ tag }) => tag)).toEqual(["a", "b", "c", "d"]);
  });
});

describe("tag filter: bad input gets 400 {message}, never a 500 (openapi.yaml, Tags)", () => {
  const refused: [name: string, query: string, message: RegExp][] = [
    ["upper case", "tag=Release-Notes", /not in normal form: use "release-notes"/],
    ["a space", "tag=release%20notes", /use "release-notes"/],
    ["surrounding spaces", "tag=%20news%20", /use "news"/],
    ["full-width letters", `tag=${encodeURIComponent("ｎｅｗｓ")}`, /use "news"/],
    ["a decomposed accent (NFD)", `tag=${encodeURIComponent("cafe\u0301")}`, /use "café"/],
    ["a ligature", `tag=${encodeURIComponent("ﬁx")}`, /use "fix"/],
    ["a zero-width space", `tag=${encodeURIComponent("ne\u200bws")}`, /U\+200B/],
    ["a zero-width joiner", `tag=${encodeURIComponent("ne\u200dws")}`, /U\+200D/],
    ["a soft hyphen", `tag=${encodeURIComponent("ne\u00adws")}`, /U\+00AD/],
    ["a control character", "tag=ne%07ws", /U\+0007/],
    ["a byte-order mark", `tag=${encodeURIComponent("\ufeffnews")}`, /U\+FEFF/],
    ["a blank value", "tag=%20%20", /blank/],
    ["an empty value", "tag=", /tag/],
    ["41 characters", `tag=${"a".repeat(41)}`, /tag/],
    ["11 values", Array.from({ length: 11 }, (_, i) => `tag=t${i}`).join("&"), /tag/],
    ["an operator object", "tag[$ne]=x", /tag/],
    ["a bracketed array", "tag[]=news", /tag/],
  ];
  for (const [name, query, message] of refused) {
    it(`${name}: 400 naming the parameter`, async () => {
      const res = await api(`/blogs?${query}`, a.key);
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body as object)).toEqual(["message"]);
      expect((res.body as { message: string }).message).toMatch(message);
    });
  }

  it("a cursor is bound to its tag set: another set, or none, gets 400", async () => {
    const page = (await api("/blogs?tag=c%2B%2B&limit=2", a.key)).body as BlogList;
    const plain = (await api("/blogs?limit=2", a.key)).body as BlogList;
    const cursor = page.nextCursor ?? "";
    for (const query of [
      `tag=node.js&cursor=${cursor}`,
      `tag=c%2B%2B&tag=node.js&cursor=${cursor}`,
      `cursor=${cursor}`,
      `tag=c%2B%2B&cursor=${plain.nextCursor}`,
    ]) {
      const res = await api(`/blogs?${query}`, a.key);
      expect(res.status, query).toBe(400);
      expect((res.body as { message: string }).message).toMatch(/cursor/);
    }
    const same = await api(`/blogs?tag=c%2B%2B&tag=c%2B%2B&cursor=${cursor}`, a.key);
    expect(same.status).toBe(200);
  });

  it("listTags takes no query parameter: 400 naming it", async () => {
    for (const query of ["tag=news", "limit=5", "foo=1"]) {
      const res = await api(`/tags?${query}`, a.key);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toContain(query.split("=")[0]);
    }
  });
});

describe("tags and isolation (openapi.yaml): drafts, removed blogs, other workspaces", () => {
  it("the filter never lists a draft, a removed blog or another workspace's blog", async () => {
    for (const tag of ["secret", "removed-only", "beta-only"]) {
      expect((await api(`/blogs?tag=${tag}`, a.key)).body).toEqual({ data: [], nextCursor: null });
    }
    const cpp = ids((await api("/blogs?limit=100&tag=c%2B%2B", a.key)).body);
    expect(cpp).toEqual(byTag["c++"]);
  });

  it("listTags never counts a draft, a removed blog or another workspace's blog", async () => {
    const tags = ((await api("/tags", a.key)).body as TagList).data.map((x) => x.tag);
    for (const tag of ["secret", "removed-only", "beta-only"]) expect(tags).not.toContain(tag);
    const beta = ((await api("/tags", b.key)).body as TagList).data;
    expect(beta).toEqual([
      { tag: "news", count: 2 },
      { tag: "beta-only", count: 1 },
      { tag: "c++", count: 1 },
    ]);
  });

  it("listTags without a valid key is the documented 401", async () => {
    const res = await get(`${server.url}/api/consumer/tags`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Invalid or missing API key." });
  });
});
