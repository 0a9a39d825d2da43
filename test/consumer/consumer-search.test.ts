import { beforeAll, describe, expect, it } from "vitest";
import { fillSearchFields, SEARCH_FIELDS_MARKER } from "../../server/src/blogs/search-migration.js";
import { MAX_TEXT_TERMS, successorOf, textTermsOf } from "../../server/src/blogs/text-search.js";
import { collections } from "../../server/src/platform/db/collections.js";
import type { BlogList } from "../../server/src/platform/http/consumer-types.js";
import { get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// openapi.yaml, "Search": `q` lists the released blogs in which every word is a word of the
// title, excerpt, tags or body text, the last word matching the start of one, case and accents
// ignored; in the list's order, exactly once under keyset paging, combined with the other
// filters, with a cursor and an ETag of its own; drafts, removed blogs and other workspaces'
// blogs never; 1–100 characters and at most 8 words.

let t: TestDb;
let server: TestServer;
let s: ReturnType<typeof stores>;
let raw: ReturnType<typeof collections>;
let w: SeededWorkspace;
let other: SeededWorkspace;
const made: Record<string, string> = {};
const T0 = Date.parse("2026-05-01T00:00:00.000Z");

const api = (path: string, key = w.key, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": key, ...headers });
const ids = (body: unknown) => (body as BlogList).data.map((b) => b.id);
const search = async (q: string, extra = "") => {
  const res = await api(`/blogs?limit=100&q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
  return ids(res.body);
};

async function release(
  name: string,
  minute: number,
  input: { title: string; bodyMarkdown: string; tags?: string[]; excerpt?: string },
  workspace = w,
): Promise<string> {
  const blog = await s.blogs.create(workspace.workspaceId, { ...input, release: true });
  await raw.blogs.updateOne(
    { _id: blog._id },
    { $set: { releasedAt: new Date(T0 + minute * 60_000) } },
  );
  made[name] = blog._id;
  return blog._id;
}

const id = (name: string): string => {
  const found = made[name];
  if (found === undefined) throw new Error(`no blog ${name}`);
  return found;
};

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  s = stores(t.db);
  raw = collections(t.db);
  w = await seedWorkspace(t.db, "Search", 0);
  other = await seedWorkspace(t.db, "Elsewhere", 0);
  await release("notes", 1, {
    title: "Release notes for May",
    bodyMarkdown:
      "Everything that **shipped** this month, with [a link](https://links.example.com/secretpath).",
    tags: ["product"],
  });
  await release("cafe", 2, {
    title: "Le Café",
    bodyMarkdown:
      "Un crème brûlée, s'il vous plaît. ![photo alttext](https://img.example.com/imagepath.png)",
    tags: ["food-and-drink"],
  });
  await release("kernel", 3, {
    title: "Kernel upgrade",
    bodyMarkdown: "We upgraded the kernel.\n\n```\nreleasable code words\n```",
    excerpt: "An excerpt about migration",
  });
  await release("body", 4, {
    title: "Untitled",
    bodyMarkdown: "Only the body mentions zeppelins and Release of the notes.",
  });
  await release(
    "elsewhere",
    5,
    { title: "Release notes elsewhere", bodyMarkdown: "zeppelins" },
    other,
  );
  const draft = await s.blogs.create(w.workspaceId, {
    title: "Draft release notes",
    bodyMarkdown: "zeppelins",
  });
  made.draft = draft._id;
  const removed = await release("removed", 6, {
    title: "Removed release notes",
    bodyMarkdown: "zeppelins",
  });
  await s.blogs.setStatus(w.workspaceId, removed, "removed");
});

describe("q finds released blogs by their words (openapi.yaml, Search)", () => {
  it("every word must match a word of the title, excerpt, tags or body; the last may be a prefix", async () => {
    expect(await search("release notes")).toEqual([id("body"), id("notes")]);
    expect(await search("release no")).toEqual([id("body"), id("notes")]);
    // Only the last word is a prefix: "rel" must be a whole word when it is not last.
    expect(await search("rel notes")).toEqual([]);
    expect(await search("shipped")).toEqual([id("notes")]);
    expect(await search("product")).toEqual([id("notes")]);
    expect(await search("migration")).toEqual([id("kernel")]);
    expect(await search("zeppelin")).toEqual([id("body")]);
    expect(await search("releas")).toEqual([id("body"), id("kernel"), id("notes")]);
  });

  it("case and accents are ignored, in the query and in the text", async () => {
    expect(await search("CAFE")).toEqual([id("cafe")]);
    expect(await search("café crème")).toEqual([id("cafe")]);
    expect(await search("brulee plait")).toEqual([id("cafe")]);
    expect(await search("Ré")).toEqual([id("body"), id("kernel"), id("notes")]);
  });

  it("markup, link addresses and image sources are not words; text in code is", async () => {
    expect(await search("secretpath")).toEqual([]);
    expect(await search("links")).toEqual([]);
    expect(await search("imagepath")).toEqual([]);
    expect(await search("alttext")).toEqual([]);
    expect(await search("strong")).toEqual([]);
    expect(await search("releasable code")).toEqual([id("kernel")]);
  });

  it("drafts, removed blogs and other workspaces' blogs are never found", async () => {
    const found = await search("zeppelins");
    expect(found).toEqual([id("body")]);
    expect(found).not.toContain(id("draft"));
    expect(found).not.toContain(id("removed"));
    expect(found).not.toContain(id("elsewhere"));
    expect(ids((await api("/blogs?q=zeppelins", other.key)).body)).toEqual([id("elsewhere")]);
  });

  it("a q without a letter or digit matches nothing; punctuation is never a pattern", async () => {
    for (const q of ["...", ".*", "$where", "(", "[a-z]", "\\", "%"]) {
      expect(await search(q), q).toEqual([]);
    }
    expect(await search("notes.*")).toEqual([id("body"), id("notes")]);
  });

  it("an edit's new words are found once published, and the old ones no longer", async () => {
    const blog = await release("edited", 7, { title: "Quasar", bodyMarkdown: "Old words." });
    expect(await search("quasar")).toEqual([blog]);
    await s.blogs.update(w.workspaceId, blog, { title: "Pulsar", bodyMarkdown: "New words." });
    // Pending changes are not live: the consumer search still sees what is released.
    expect(await search("quasar")).toEqual([blog]);
    expect(await search("pulsar")).toEqual([]);
    // The preview perspective searches blogs as they would be published.
    const preview = (await s.keys.mint(w.workspaceId, "Preview", null, { kind: "preview" })).key;
    const previewed = async (q: string) =>
      ids((await get(`${server.url}/api/preview/blogs?q=${q}`, { "x-api-key": preview })).body);
    expect(await previewed("pulsar")).toEqual([blog]);
    expect(await previewed("quasar")).toEqual([]);
    // Drafts too, as the preview lists them; never a removed blog or another workspace's.
    expect((await previewed("zeppel")).sort()).toEqual([id("body"), id("draft")].sort());
    await s.blogs.publish(w.workspaceId, blog);
    expect(await search("quasar")).toEqual([]);
    expect(await search("pulsar new")).toEqual([blog]);
    await s.blogs.setStatus(w.workspaceId, blog, "removed");
  });
});

describe("search combines and pages like the list (openapi.yaml, listBlogs)", () => {
  it("a walk in pages of 1 sees each match once, in the list's order, alone and with a tag", async () => {
    const all = await search("releas");
    expect(all).toEqual([id("body"), id("kernel"), id("notes")]);
    for (const extra of ["", "&tag=product"]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const at: string = cursor === null ? "" : `&cursor=${cursor}`;
        const res = await api(`/blogs?limit=1&q=releas${extra}${at}`);
        expect(res.status).toBe(200);
        seen.push(...ids(res.body));
        cursor = (res.body as BlogList).nextCursor;
        if (cursor === null) break;
      }
      expect(seen).toEqual(extra === "" ? all : [id("notes")]);
    }
  });

  it("a cursor is bound to its words; the same words in another case or accent keep it", async () => {
    const first = (await api("/blogs?limit=1&q=release")).body as BlogList;
    expect(first.nextCursor).not.toBeNull();
    const cursor = `&cursor=${first.nextCursor}`;
    for (const q of ["", "&q=releas", "&q=notes"]) {
      const res = await api(`/blogs?limit=1${q}${cursor}`);
      expect(res.status, q).toBe(400);
      expect((res.body as { message: string }).message).toContain("same q, tag, author");
    }
    expect((await api(`/blogs?limit=1&q=RÉLEASE${cursor}`)).status).toBe(200);
  });

  it("each query has its own ETag, shared by the same words in another case; 304 only for it", async () => {
    const plain = await api("/blogs?limit=5");
    const one = await api("/blogs?limit=5&q=release");
    const two = await api("/blogs?limit=5&q=notes");
    const etags = [plain, one, two].map((r) => r.headers.get("etag"));
    expect(new Set(etags).size).toBe(3);
    const same = await api("/blogs?limit=5&q=Release!");
    expect(same.headers.get("etag")).toBe(etags[1]);
    const again = await api("/blogs?limit=5&q=release", w.key, { "if-none-match": etags[1] ?? "" });
    expect(again.status).toBe(304);
    const changed = await api("/blogs?limit=5&q=notes", w.key, { "if-none-match": etags[1] ?? "" });
    expect(changed.status).toBe(200);
  });
});

describe("bad searches are a 400 naming q (openapi.yaml, Search)", () => {
  it("empty, white space only, over 100 characters or over 8 words", async () => {
    const cases = [
      ["", /q/],
      ["   ", /q/],
      ["a".repeat(101), /q/],
      ["one two three four five six seven eight nine", /at most 8 words/],
    ] as const;
    for (const [q, message] of cases) {
      const res = await api(`/blogs?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(400);
      expect((res.body as { message: string }).message).toMatch(message);
    }
    expect((await api(`/blogs?q=${encodeURIComponent("a".repeat(100))}`)).status).toBe(200);
    expect(
      (await api("/blogs?q=one%20two%20three%20four%20five%20six%20seven%20eight")).status,
    ).toBe(200);
  });
});

describe("stored terms (text-search.ts)", () => {
  it("are the distinct words of the text, never the markup, capped at MAX_TEXT_TERMS", () => {
    const terms = textTermsOf({
      title: "Ünïcode Title",
      excerpt: "An excerpt",
      tags: ["tag-one"],
      bodyHtml: '<p>Don&#39;t <a href="https://x.example/hidden">see</a> &amp; &#x43;afé</p>',
    });
    expect(terms).toEqual([
      "unicode",
      "title",
      "an",
      "excerpt",
      "tag",
      "one",
      "don",
      "t",
      "see",
      "cafe",
    ]);
    const many = Array.from({ length: MAX_TEXT_TERMS + 50 }, (_, i) => `w${i}`).join(" ");
    const capped = textTermsOf({ title: "T", excerpt: "", tags: [], bodyHtml: `<p>${many}</p>` });
    expect(capped).toHaveLength(MAX_TEXT_TERMS);
    expect(capped[0]).toBe("t");
  });

  it("a prefix's range ends at its successor: the prefix with its last code point one higher", () => {
    expect(successorOf("word")).toBe("wore");
    expect(successorOf("caf")).toBe("cag");
    expect(successorOf("z")).toBe("{");
    expect(successorOf("日本")).toBe("日札");
    expect(successorOf("a\u{1F600}")).toBe("a\u{1F601}");
    expect(successorOf("\uD7FF")).toBe("\uE000");
  });

  it("a blog stored before the search gets its terms at the next start, once", async () => {
    const blog = await release("older", 8, { title: "Nebula", bodyMarkdown: "Stored before." });
    await raw.blogs.updateOne({ _id: blog }, { $unset: { textTerms: "" } });
    expect(await search("nebula")).toEqual([]);
    await raw.markers.deleteOne({ _id: SEARCH_FIELDS_MARKER });
    expect(await fillSearchFields(raw)).toBeGreaterThanOrEqual(1);
    expect(await search("nebula stored")).toEqual([blog]);
    expect(await fillSearchFields(raw)).toBe(0);
    await s.blogs.setStatus(w.workspaceId, blog, "removed");
  });
});
