import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { fillSearchFields, SEARCH_FIELDS_MARKER } from "../../server/src/blogs/search-migration.js";
import {
  MAX_TERMS,
  searchTermsOf,
  titleKeyOf,
  wordsOf,
} from "../../server/src/blogs/search-terms.js";
import { compareCodePoints } from "../../server/src/blogs/tag-filter.js";
import {
  normaliseStoredTags,
  TAGS_NORMALISED_MARKER,
} from "../../server/src/blogs/tag-migration.js";
import { MIGRATIONS } from "../../server/src/migrations.js";
import { loadConfig } from "../../server/src/platform/config.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { openDatabase } from "../../server/src/platform/db/database.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// admin.yaml, listAdminBlogs (`q`, `sort`) and countAdminBlogs: the dashboard's blog list.
type AdminBlog = components["schemas"]["AdminBlog"];
type Me = components["schemas"]["Me"];
type Page = { data: AdminBlog[]; nextCursor: string | null };
type Counts = components["schemas"]["BlogCounts"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let home: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  home = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
});

/** A fresh workspace of the owner's, so each test sees only its own blogs. */
const newWorkspace = async (): Promise<string> =>
  (await owner.post<{ id: string }>("/workspaces", { name: "Search" })).body.id;

const write = async (
  ws: string,
  blog: { title: string; slug?: string; tags?: string[] },
  release = false,
): Promise<AdminBlog> => {
  const created = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, blog);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (!release) return created.body;
  const released = await owner.post<AdminBlog>(
    `/workspaces/${ws}/blogs/${created.body.id}/release`,
    undefined,
    ANY_VERSION,
  );
  expect(released.status).toBe(200);
  return released.body;
};

const titlesFor = async (ws: string, query: string): Promise<string[]> => {
  const page = await owner.get<Page>(`/workspaces/${ws}/blogs?limit=100&${query}`);
  expect(page.status).toBe(200);
  return page.body.data.map((b) => b.title).sort();
};

/** Every page of the list for `query`, following nextCursor. */
const walk = async (ws: string, query: string, limit = 2): Promise<AdminBlog[]> => {
  const seen: AdminBlog[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor === null ? "" : `&cursor=${cursor}`;
    const page = await owner.get<Page>(`/workspaces/${ws}/blogs?limit=${limit}&${query}${after}`);
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return seen;
};

describe("search by title, slug and tag words (q)", () => {
  let ws: string;
  beforeAll(async () => {
    ws = await newWorkspace();
    await write(ws, { title: "Release notes for June", tags: ["changelog"] }, true);
    await write(ws, { title: "Café opening", slug: "grand-opening" });
    await write(ws, { title: "Weekly digest", tags: ["release-notes", "Équipe"] });
    await write(ws, { title: "Unrelated" });
  });

  it("a word prefix of the title finds it, whatever the case", async () => {
    expect(await titlesFor(ws, "q=JUN")).toEqual(["Release notes for June"]);
    expect(await titlesFor(ws, "q=rel")).toEqual(["Release notes for June", "Weekly digest"]);
  });

  it("finds by slug words and by tag words", async () => {
    expect(await titlesFor(ws, "q=grand")).toEqual(["Café opening"]);
    expect(await titlesFor(ws, "q=changel")).toEqual(["Release notes for June"]);
  });

  it("accents are ignored both ways", async () => {
    expect(await titlesFor(ws, "q=cafe")).toEqual(["Café opening"]);
    expect(await titlesFor(ws, `q=${encodeURIComponent("ÉQUIPE")}`)).toEqual(["Weekly digest"]);
    expect(await titlesFor(ws, `q=${encodeURIComponent("équ")}`)).toEqual(["Weekly digest"]);
  });

  it("every word must match, each as a prefix: 'rel not' finds the title and the tag", async () => {
    expect(await titlesFor(ws, "q=rel%20not")).toEqual(["Release notes for June", "Weekly digest"]);
    expect(await titlesFor(ws, "q=rel%20jun")).toEqual(["Release notes for June"]);
    expect(await titlesFor(ws, "q=rel%20cafe")).toEqual([]);
    // A word is a prefix, never a middle: "lease" is in no word's start.
    expect(await titlesFor(ws, "q=lease")).toEqual([]);
  });

  it("with a status filter, only that state", async () => {
    expect(await titlesFor(ws, "q=rel&status=draft")).toEqual(["Weekly digest"]);
    expect(await titlesFor(ws, "q=rel&status=released")).toEqual(["Release notes for June"]);
  });

  it("never finds removed blogs or another workspace's", async () => {
    const other = await newWorkspace();
    await write(other, { title: "Release elsewhere" });
    const gone = await write(ws, { title: "Release removed" });
    expect(await titlesFor(ws, "q=release")).toContain("Release removed");
    expect((await owner.delete(`/workspaces/${ws}/blogs/${gone.id}`, ANY_VERSION)).status).toBe(
      204,
    );
    expect(await titlesFor(ws, "q=release")).toEqual(["Release notes for June", "Weekly digest"]);
    expect(await titlesFor(other, "q=release")).toEqual(["Release elsewhere"]);
  });

  it("an edit of title, slug or tags is found at once by its new words, not its old", async () => {
    const blog = await write(ws, { title: "Draft zebra" });
    expect(await titlesFor(ws, "q=zeb")).toEqual(["Draft zebra"]);
    const edited = await owner.patch<AdminBlog>(
      `/workspaces/${ws}/blogs/${blog.id}`,
      { title: "Draft okapi", slug: "draft-okapi", tags: ["savanna"] },
      ANY_VERSION,
    );
    expect(edited.status).toBe(200);
    expect(await titlesFor(ws, "q=zeb")).toEqual([]);
    expect(await titlesFor(ws, "q=okap%20sav")).toEqual(["Draft okapi"]);
    expect(Object.keys(edited.body)).not.toContain("searchTerms");
    expect(Object.keys(edited.body)).not.toContain("titleKey");
    await owner.delete(`/workspaces/${ws}/blogs/${blog.id}`, ANY_VERSION);
  });
});

describe("a blog with more prefixes than MAX_TERMS", () => {
  /** A word of `n` letters and digits starting with `seed` (distinct seeds, distinct words). */
  const word = (seed: string, n: number) =>
    `${seed}abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmn`.slice(0, n);
  // Title 8 × 24, slug 3 × 24 and tags 20 × 24 (clipped from 40) prefixes: 744, over the cap.
  const blog = {
    title: Array.from({ length: 8 }, (_, i) => word(`w${i}`, 24)).join(" "),
    slug: Array.from({ length: 3 }, (_, i) => word(`s${i}`, 24)).join("-"),
    tags: Array.from({ length: 20 }, (_, i) => word(`t${String(i).padStart(2, "0")}`, 40)),
  };

  it("keeps every whole word of title, slug and tags (prefixes go first), within the cap", () => {
    const terms = searchTermsOf(blog);
    expect(terms.length).toBe(MAX_TERMS);
    const words = wordsOf([blog.title, blog.slug, ...blog.tags].join(" "));
    for (const w of words) expect(terms, w).toContain(w.slice(0, 24));
  });

  it("the last tag, typed in full, still finds the blog", async () => {
    const ws = await newWorkspace();
    await write(ws, blog);
    const last = blog.tags.at(-1) ?? "";
    expect(await titlesFor(ws, `q=${last}`)).toEqual([blog.title]);
    expect(await titlesFor(ws, `q=${blog.title.split(" ")[0]}`)).toEqual([blog.title]);
  });
});

describe("sorts (sort), page after page with the cursor", () => {
  let ws: string;
  let blogs: AdminBlog[];
  beforeAll(async () => {
    ws = await newWorkspace();
    blogs = [];
    for (const title of ["banana", "Apple", "éclair", "cherry", "apple pie"]) {
      blogs.push(await write(ws, { title }));
    }
    // Edited out of creation order: "updated" differs from "newest".
    const first = blogs[0]?.id ?? "";
    blogs[0] = (
      await owner.patch<AdminBlog>(
        `/workspaces/${ws}/blogs/${first}`,
        { excerpt: "x" },
        ANY_VERSION,
      )
    ).body;
  });

  const by =
    (key: (b: AdminBlog) => string, dir: 1 | -1) =>
    (a: AdminBlog, b: AdminBlog): number =>
      dir * (compareCodePoints(key(a), key(b)) || compareCodePoints(a.id, b.id));

  it.each([
    ["newest", by((b) => b.createdAt, -1)],
    ["oldest", by((b) => b.createdAt, 1)],
    ["updated", by((b) => b.updatedAt, -1)],
    ["title", by((b) => titleKeyOf(b.title), 1)],
  ] as const)("sort=%s: every blog once, in that order, across pages of 2", async (sort, order) => {
    const seen = await walk(ws, `sort=${sort}`);
    expect(seen.map((b) => b.id)).toEqual([...blogs].sort(order).map((b) => b.id));
  });

  it("title: A–Z ignoring case and accents", async () => {
    const seen = await walk(ws, "sort=title", 100);
    expect(seen.map((b) => b.title)).toEqual(["Apple", "apple pie", "banana", "cherry", "éclair"]);
  });

  it("updated: the last edited first", async () => {
    const seen = await walk(ws, "sort=updated", 100);
    expect(seen[0]?.title).toBe("banana");
  });

  it("a search sorted by title pages through its matches only", async () => {
    const seen = await walk(ws, "sort=title&q=app", 1);
    expect(seen.map((b) => b.title)).toEqual(["Apple", "apple pie"]);
  });
});

describe("a cursor belongs to its sort and q", () => {
  it("a cursor used with another sort or q is a 400 saying so", async () => {
    const ws = await newWorkspace();
    for (const title of ["one", "two", "three"]) await write(ws, { title: `Cursor ${title}` });
    const cursorOf = async (query: string) =>
      (await owner.get<Page>(`/workspaces/${ws}/blogs?limit=1&${query}`)).body.nextCursor ?? "";
    const plain = await cursorOf("");
    const titled = await cursorOf("sort=title");
    const searched = await cursorOf("q=cursor");
    for (const [cursor, query] of [
      [plain, "sort=title"],
      [plain, "q=cursor"],
      [titled, "sort=newest"],
      [titled, "sort=oldest"],
      [searched, "q=curs"],
      [searched, "q=cursor&sort=updated"],
    ] as const) {
      const res = await owner.get<{ message: string }>(
        `/workspaces/${ws}/blogs?limit=1&${query}&cursor=${cursor}`,
      );
      expect(res.status, query).toBe(400);
      expect(res.body.message).toMatch(/cursor.*another sort or q/);
    }
    // The same sort and q (spelled differently: same words) go on.
    const again = await owner.get<Page>(
      `/workspaces/${ws}/blogs?limit=1&q=CURSOR&cursor=${searched}`,
    );
    expect(again.status).toBe(200);
    // A cursor from before sorts existed (newest, no q) still works.
    expect((await owner.get(`/workspaces/${ws}/blogs?limit=1&cursor=${plain}`)).status).toBe(200);
  });
});

describe("counts per status filter (countAdminBlogs)", () => {
  it("all, draft and released, honouring q, never removed or foreign blogs", async () => {
    const ws = await newWorkspace();
    await write(ws, { title: "Count alpha" }, true);
    await write(ws, { title: "Count beta" }, true);
    await write(ws, { title: "Count alpha two" });
    await write(ws, { title: "Other" });
    const gone = await write(ws, { title: "Count alpha gone" });
    await owner.delete(`/workspaces/${ws}/blogs/${gone.id}`, ANY_VERSION);
    await write(await newWorkspace(), { title: "Count alpha abroad" });
    const counts = async (query: string) =>
      (await owner.get<Counts>(`/workspaces/${ws}/blog-counts${query}`)).body;
    expect(await counts("")).toEqual({ all: 4, draft: 2, released: 2 });
    expect(await counts("?q=count")).toEqual({ all: 3, draft: 1, released: 2 });
    expect(await counts("?q=alp")).toEqual({ all: 2, draft: 1, released: 1 });
    expect(await counts("?q=zzz")).toEqual({ all: 0, draft: 0, released: 0 });
  });

  it("need a session, like the list", async () => {
    const res = await new AdminClient(server.url).get(`/workspaces/${home}/blog-counts`);
    expect(res.status).toBe(401);
  });
});

describe("a bad q is a 400, and q is never a pattern", () => {
  it.each([
    ["empty", "q="],
    ["only spaces", "q=%20%20"],
    ["over 100 characters", `q=${"a".repeat(101)}`],
    ["an object", "q[$ne]=x"],
    ["repeated", "q=a&q=b"],
  ])("%s → 400 JSON, on the list and the counts", async (_name, query) => {
    for (const path of [
      `/workspaces/${home}/blogs?${query}`,
      `/workspaces/${home}/blog-counts?${query}`,
    ]) {
      const res = await owner.get<{ message: string }>(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body.message).toMatch(/q/);
    }
  });

  it("regex and operator characters are only separators: '.*' and '^' find nothing", async () => {
    const ws = await newWorkspace();
    await write(ws, { title: "Anything at all" });
    for (const q of [".*", "^", "$where", "[a-z]"]) {
      const list = await owner.get<Page>(`/workspaces/${ws}/blogs?q=${encodeURIComponent(q)}`);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      // "$where" and "[a-z]" are the words "where", "a" and "z": none starts "Anything at all".
      expect(list.body.data, q).toEqual([]);
    }
    expect(await titlesFor(ws, `q=${encodeURIComponent("(any")}`)).toEqual(["Anything at all"]);
  });
});

describe("q in the logs", () => {
  it("the search words never reach a log line (the access log holds the path only)", async () => {
    const word = "zqxjunlikelyword";
    expect((await owner.get(`/workspaces/${home}/blogs?q=${word}.*`)).status).toBe(200);
    expect((await owner.get(`/workspaces/${home}/blog-counts?q=${word}`)).status).toBe(200);
    expect((await owner.get(`/workspaces/${home}/blogs?q=${word}${"x".repeat(100)}`)).status).toBe(
      400,
    );
    expect(server.logLines.some((line) => line.includes(`/workspaces/${home}/blog`))).toBe(true);
    expect(server.logLines.filter((line) => line.includes(word))).toEqual([]);
  });
});

describe("blogs stored before the search get its fields once at start-up", () => {
  it("the migration fills searchTerms and titleKey, leaves revision and updatedAt, and runs once", async () => {
    const ws = await newWorkspace();
    const c = collections(t.db);
    // A draft: a released blog's feed and webhook relays write it meanwhile, and on the
    // embedded database a write there could put back what this test removes by hand.
    const old = await write(ws, { title: "Vintage post", tags: ["archive"] });
    // As a blog saved before the search existed: no search fields.
    await c.blogs.updateOne({ _id: old.id }, { $unset: { searchTerms: "", titleKey: "" } });
    const before = await c.blogs.findOne({ _id: old.id });
    expect(await titlesFor(ws, "q=vint")).toEqual([]);
    await c.markers.deleteOne({ _id: SEARCH_FIELDS_MARKER });
    expect(await fillSearchFields(c)).toBe(1);
    const after = await c.blogs.findOne({ _id: old.id });
    expect(after?.searchTerms).toContain("vint");
    expect(after?.searchTerms).toContain("archive");
    expect(after?.titleKey).toBe("vintage post");
    expect(after?.revision).toBe(before?.revision);
    expect(after?.updatedAt).toEqual(before?.updatedAt);
    expect(await titlesFor(ws, "q=vint%20arch")).toEqual(["Vintage post"]);
    expect(await c.markers.countDocuments({ _id: SEARCH_FIELDS_MARKER })).toBe(1);
    // Done once: the marker stops later starts from reading every blog again.
    await c.blogs.updateOne({ _id: old.id }, { $unset: { searchTerms: "" } });
    expect(await fillSearchFields(c)).toBe(0);
    await c.markers.deleteOne({ _id: SEARCH_FIELDS_MARKER });
    expect(await fillSearchFields(c)).toBe(1);
  });

  it("a start opens the database and runs it: a blog without the fields is found afterwards", async () => {
    const ws = await newWorkspace();
    const c = collections(t.db);
    const old = await write(ws, { title: "Forgotten almanac" });
    await c.blogs.updateOne({ _id: old.id }, { $unset: { searchTerms: "", titleKey: "" } });
    await c.markers.deleteOne({ _id: SEARCH_FIELDS_MARKER });
    expect(await titlesFor(ws, "q=almanac")).toEqual([]);
    const database = await openDatabase(
      loadConfig({ MONGODB_URI: t.uri, MONGODB_DB: t.name }),
      MIGRATIONS,
    );
    await database.close();
    expect(await titlesFor(ws, "q=almanac")).toEqual(["Forgotten almanac"]);
  });

  it("two instances starting at once fill each blog and set the marker once", async () => {
    const ws = await newWorkspace();
    const c = collections(t.db);
    const blogs = await Promise.all(
      ["Twin one", "Twin two", "Twin three"].map((title) => write(ws, { title })),
    );
    await c.blogs.updateMany(
      { _id: { $in: blogs.map((b) => b.id) } },
      { $unset: { searchTerms: "", titleKey: "" } },
    );
    await c.markers.deleteOne({ _id: SEARCH_FIELDS_MARKER });
    const written = await Promise.all([fillSearchFields(c), fillSearchFields(c)]);
    expect(written[0] + written[1]).toBeGreaterThanOrEqual(3);
    expect((await titlesFor(ws, "q=twin&sort=title")).length).toBe(3);
    expect(await c.markers.countDocuments({ _id: SEARCH_FIELDS_MARKER })).toBe(1);
  });

  it("the tag rewrite keeps the search fields in step even when the search migration ran first", async () => {
    const ws = await newWorkspace();
    const c = collections(t.db);
    const old = await write(ws, { title: "Striped animals", tags: ["savanna"] });
    // Tags stored before their normal form, after the search fields were filled from them.
    await c.blogs.updateOne({ _id: old.id }, { $set: { tags: ["Zebra Crossing"] } });
    await c.markers.deleteOne({ _id: TAGS_NORMALISED_MARKER });
    await normaliseStoredTags(c);
    const after = await c.blogs.findOne({ _id: old.id });
    expect(after?.tags).toEqual(["zebra-crossing"]);
    expect(await titlesFor(ws, "q=zebra")).toEqual(["Striped animals"]);
    expect(await titlesFor(ws, "q=savanna")).toEqual([]);
  });
});
