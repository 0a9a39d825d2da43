// Authors in imports and exports (README, "Import and export"; admin.yaml `ImportEntry.authors`,
// `ImportRequest.authors`, `WorkspaceExport.authors`): the Ghost and Markdown readers map a
// post's authors by name and slug (never an email), an import matches them by slug (an existing
// author is used as it is, a missing one created), re-importing changes nothing, a dry run
// creates nobody, the 200-author cap refuses an import before any write, and Pressroom's own
// format round-trips the workspace's authors and each blog's order.
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { inlineRenderer } from "../../server/src/blogs/render-pool.js";
import { type Collections, collections } from "../../server/src/platform/db/collections.js";
import { createStores, type Stores } from "../../server/src/stores.js";
import { exportWorkspace } from "../../server/src/transfer/export-workspace.js";
import { readGhostExport } from "../../server/src/transfer/ghost-reader.js";
import { applyImport } from "../../server/src/transfer/import-apply.js";
import { importBlogId } from "../../server/src/transfer/import-identity.js";
import { planCounts, planImport } from "../../server/src/transfer/import-plan.js";
import { importReport } from "../../server/src/transfer/import-report.js";
import {
  type ImportBlog,
  type ImportEntries,
  ImportInputError,
} from "../../server/src/transfer/import-set.js";
import { readMarkdownFolder } from "../../server/src/transfer/markdown-reader.js";
import { pressroomSet } from "../../server/src/transfer/pressroom-format.js";
import { runCli } from "../support/cli.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

const GHOST = fileURLToPath(new URL("../fixtures/ghost-6.65-export.json", import.meta.url));

let t: TestDb;
let c: Collections;
let s: Stores;
let dir: string;

beforeAll(async () => {
  t = await useTestDb();
  c = collections(t.db);
  s = createStores(t.db);
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-authors-"));
});

const newWorkspace = async (name: string) => (await s.workspaces.create(name))._id;
const env = () => ({ MONGODB_URI: t.uri, MONGODB_DB: t.name });

/** Plans and, unless a dry run, applies `set` (what `pressroom import` and importBlogs run). */
async function run(ws: string, set: ImportEntries, dryRun = false) {
  const plan = await planImport(c, inlineRenderer, ws, set);
  const applied = dryRun ? null : await applyImport(c, plan, { source: "test", now: new Date() });
  return { plan, report: importReport(plan, applied) };
}

/** The blog an entry made, and the slugs of the authors it names, in order. */
async function authorSlugsOf(ws: string, sourceKey: string): Promise<string[]> {
  const blog = await c.blogs.findOne({ _id: importBlogId(ws, sourceKey) });
  const ids = blog?.authorIds ?? [];
  const authors = await c.authors.find({ workspaceId: ws }).toArray();
  return ids.map((id) => authors.find((a) => a._id === id)?.slug ?? `missing ${id}`);
}

const at = new Date("2026-03-01T10:00:00Z");
const entry = (name: string, over: Partial<ImportBlog> = {}): ImportBlog => ({
  sourceKey: `markdown:${name}.md`,
  origin: `${name}.md`,
  title: name,
  slug: name,
  status: "released",
  bodyMarkdown: `About ${name}.`,
  excerpt: undefined,
  tags: [],
  authorName: "Pressroom",
  coverImageUrl: null,
  coverImageAlt: null,
  featured: false,
  metaTitle: null,
  metaDescription: null,
  canonicalUrl: null,
  socialImageUrl: null,
  createdAt: at,
  updatedAt: at,
  releasedAt: at,
  removedAt: null,
  ...over,
});
const setOf = (blogs: ImportBlog[], authors: ImportEntries["authors"] = []): ImportEntries => ({
  blogs,
  authors,
  skipped: [],
  notes: [],
});

describe("Ghost: a post's users become its authors by name and slug, never by email (README, 'Import and export')", () => {
  it("the real Ghost 6.65 export through `pressroom import`: every post names its author, created once with no email anywhere in the stored data or the report", async () => {
    const ws = await newWorkspace("Ghost authors");
    const r = await runCli(["import", "--workspace", ws, "--json", GHOST], env());
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { authors: unknown[] };
    expect(report.authors).toEqual([{ slug: "ada", name: "Ada Editor", action: "create" }]);
    const authors = await c.authors.find({ workspaceId: ws }).toArray();
    expect(authors.map((a) => [a.slug, a.name, a.bio, a.avatarUrl, a.websiteUrl])).toEqual([
      ["ada", "Ada Editor", null, null, null],
    ]);
    const blogs = await c.blogs.find({ workspaceId: ws }).toArray();
    expect(blogs.length).toBeGreaterThan(0);
    expect(
      blogs.every((b) => b.authorIds?.length === 1 && b.authorIds[0] === authors[0]?._id),
    ).toBe(true);
    // The fixture's user has an email: nowhere in what the import stored or printed.
    const stored = JSON.stringify([authors, blogs]);
    for (const text of [stored, r.stdout, r.stderr]) {
      expect(text).not.toContain("ada@example.com");
      expect(text).not.toMatch(/"email"/);
    }
  });

  it("authors in sort_order; bio, website and profile image kept when public, a __GHOST_URL__ image dropped with a note; the email never read", async () => {
    const ghost = JSON.parse(await readFile(GHOST, "utf8"));
    const data = ghost.db[0].data;
    const [ada] = data.users;
    data.users.push({
      ...ada,
      id: "user-grace",
      name: "Grace  Hopper",
      slug: "grace",
      email: "grace@example.com",
      bio: "Wrote the first compiler.",
      website: "https://grace.example/",
      profile_image: "__GHOST_URL__/content/images/grace.png",
    });
    ada.profile_image = "https://cdn.example/ada.png";
    const post = data.posts.find((p: { slug: string }) => p.slug === "hello-world");
    // Grace first by sort_order, though listed after Ada in the file.
    data.posts_authors.push({
      id: "pa-grace",
      post_id: post.id,
      author_id: "user-grace",
      sort_order: -1,
    });
    const file = path.join(dir, "ghost-two-authors.json");
    await writeFile(file, JSON.stringify(ghost));
    const set = await readGhostExport(file, { now: new Date("2026-01-01T00:00:00Z") });
    const hello = set.blogs.find((b) => b.slug === "hello-world");
    expect(hello?.authors).toEqual([
      { name: "Grace Hopper", slug: "grace" },
      { name: "Ada Editor", slug: "ada" },
    ]);
    expect(hello?.authorName).toBe("Grace Hopper");
    expect(set.authors).toEqual(
      expect.arrayContaining([
        {
          name: "Grace Hopper",
          slug: "grace",
          bio: "Wrote the first compiler.",
          avatarUrl: null,
          websiteUrl: "https://grace.example/",
        },
        {
          name: "Ada Editor",
          slug: "ada",
          bio: null,
          avatarUrl: "https://cdn.example/ada.png",
          websiteUrl: null,
        },
      ]),
    );
    expect(set.notes.join("\n")).toMatch(/users "grace": profile image .*__GHOST_URL__/);
    expect(JSON.stringify(set)).not.toMatch(/ada@example\.com|grace@example\.com|"email"/);

    const ws = await newWorkspace("Ghost two authors");
    const { report } = await run(ws, set);
    expect(JSON.stringify(report)).not.toMatch(/@example\.com/);
    expect(await authorSlugsOf(ws, hello?.sourceKey ?? "")).toEqual(["grace", "ada"]);
    const grace = await c.authors.findOne({ workspaceId: ws, slug: "grace" });
    expect([grace?.bio, grace?.avatarUrl, grace?.websiteUrl]).toEqual([
      "Wrote the first compiler.",
      null,
      "https://grace.example/",
    ]);
    const all = JSON.stringify(
      await t.db.collection("authors").find({ workspaceId: ws }).toArray(),
    );
    expect(all).not.toMatch(/@example\.com|email|password/);
  });
});

describe("Markdown: `authors:` names the blog's authors, `author:` stays the byline (README, 'Import and export')", () => {
  it("a list of names becomes the authors in order, slugs from the names; `author:` alone names no author", async () => {
    const root = path.join(dir, "md-authors");
    await mkdir(root, { recursive: true });
    await writeFile(
      path.join(root, "both.md"),
      "---\ntitle: Both\ndate: 2026-01-02\nauthor: Ada\nauthors: [Grace Hopper, Ada Lovelace]\n---\nBody.\n",
    );
    await writeFile(
      path.join(root, "list-only.md"),
      "---\ntitle: List only\ndate: 2026-01-03\nauthors:\n  - Émile Zola\n---\nBody.\n",
    );
    await writeFile(
      path.join(root, "byline.md"),
      "---\ntitle: Byline\ndate: 2026-01-04\nauthor: Ada\n---\nBody.\n",
    );
    const set = await readMarkdownFolder(root, {});
    const bySlug = new Map(set.blogs.map((b) => [b.slug, b]));
    expect(bySlug.get("both")?.authors).toEqual([
      { name: "Grace Hopper", slug: "grace-hopper" },
      { name: "Ada Lovelace", slug: "ada-lovelace" },
    ]);
    expect(bySlug.get("both")?.authorName).toBe("Ada");
    expect(bySlug.get("list-only")?.authors).toEqual([{ name: "Émile Zola", slug: "emile-zola" }]);
    expect(bySlug.get("list-only")?.authorName).toBe("Émile Zola");
    expect(bySlug.get("byline")?.authors).toBeUndefined();
    expect(bySlug.get("byline")?.authorName).toBe("Ada");
    expect(set.notes.join("\n")).not.toMatch(/authors/);

    const ws = await newWorkspace("Markdown authors");
    await run(ws, set);
    expect(await authorSlugsOf(ws, "markdown:both.md")).toEqual(["grace-hopper", "ada-lovelace"]);
    expect(await authorSlugsOf(ws, "markdown:byline.md")).toEqual([]);
    expect(await c.authors.countDocuments({ workspaceId: ws })).toBe(3);
  });

  it("two names with one slug, or a name that is not text, is a problem at its line", async () => {
    const root = path.join(dir, "md-bad-authors");
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, "twice.md"), "---\ntitle: T\nauthors: [Ada, ada]\n---\nB\n");
    await expect(readMarkdownFolder(root, {})).rejects.toThrow(
      /twice\.md:3: authors names "ada" twice/,
    );
  });
});

describe("applying: authors matched by slug in the workspace (README, 'Import and export'; admin.yaml importBlogs)", () => {
  it("an existing author with the slug is used as is, not renamed; a missing one is created with the source's fields; the blog names them in order", async () => {
    const ws = await newWorkspace("Existing author");
    const kept = await s.authors.create(ws, { name: "Ada King", slug: "ada", bio: "Kept." });
    const set = setOf(
      [
        entry("one", {
          authors: [
            { name: "Grace", slug: "grace" },
            { name: "Ada Lovelace", slug: "ada" },
          ],
        }),
      ],
      [
        {
          slug: "grace",
          name: "Grace Hopper",
          bio: "Compilers.",
          websiteUrl: "https://grace.example/",
        },
      ],
    );
    const { report } = await run(ws, set);
    expect(report.authors).toEqual([
      { slug: "grace", name: "Grace Hopper", action: "create" },
      { slug: "ada", name: "Ada King", action: "existing" },
    ]);
    expect(await s.authors.bySlug(ws, "ada")).toEqual(kept);
    const grace = await s.authors.bySlug(ws, "grace");
    expect([grace?.name, grace?.bio, grace?.websiteUrl]).toEqual([
      "Grace Hopper",
      "Compilers.",
      "https://grace.example/",
    ]);
    const blog = await c.blogs.findOne({ _id: importBlogId(ws, "markdown:one.md") });
    expect(blog?.authorIds).toEqual([grace?._id, kept._id]);
  });

  it("importing the same set again changes nothing: no author created or touched, every entry unchanged, nothing written", async () => {
    const ws = await newWorkspace("Idempotent authors");
    const set = setOf(
      [
        entry("a", {
          authors: [
            { name: "Ada", slug: "ada" },
            { name: "Grace", slug: "grace" },
          ],
        }),
        entry("b", { authors: [{ name: "Grace", slug: "grace" }] }),
        entry("c", { authors: [] }),
      ],
      [{ slug: "ada", name: "Ada Lovelace" }],
    );
    await run(ws, set);
    const authorsBefore = await c.authors.find({ workspaceId: ws }).sort({ slug: 1 }).toArray();
    const blogsBefore = await c.blogs.find({ workspaceId: ws }).sort({ _id: 1 }).toArray();
    const { plan, report } = await run(ws, set);
    expect(planCounts(plan)).toMatchObject({ create: 0, update: 0, unchanged: 3 });
    expect(report.applied).toEqual({ created: 0, updated: 0, unchanged: 3, conflicts: 0 });
    expect(report.authors.every((a) => a.action === "existing")).toBe(true);
    expect(await c.authors.find({ workspaceId: ws }).sort({ slug: 1 }).toArray()).toEqual(
      authorsBefore,
    );
    expect(await c.blogs.find({ workspaceId: ws }).sort({ _id: 1 }).toArray()).toEqual(blogsBefore);
  });

  it("a changed order is an update; an entry without `authors` keeps the blog's own (it says nothing of them)", async () => {
    const ws = await newWorkspace("Order changes");
    const two = [
      { name: "Ada", slug: "ada" },
      { name: "Grace", slug: "grace" },
    ];
    await run(ws, setOf([entry("a", { authors: two })]));
    const swapped = await run(ws, setOf([entry("a", { authors: [...two].reverse() })]));
    expect(planCounts(swapped.plan).update).toBe(1);
    expect(await authorSlugsOf(ws, "markdown:a.md")).toEqual(["grace", "ada"]);
    const silent = await run(ws, setOf([entry("a", { title: "Retitled" })]));
    expect(planCounts(silent.plan).update).toBe(1);
    expect(await authorSlugsOf(ws, "markdown:a.md")).toEqual(["grace", "ada"]);
    const again = await run(ws, setOf([entry("a", { title: "Retitled" })]));
    expect(planCounts(again.plan).unchanged).toBe(1);
  });

  it("a dry run creates no author and writes no blog, and reports who would be created", async () => {
    const ws = await newWorkspace("Dry authors");
    const { report } = await run(
      ws,
      setOf([entry("a", { authors: [{ name: "Ada", slug: "ada" }] })]),
      true,
    );
    expect(report.authors).toEqual([{ slug: "ada", name: "Ada", action: "create" }]);
    expect(await c.authors.countDocuments({ workspaceId: ws })).toBe(0);
    expect(await c.blogs.countDocuments({ workspaceId: ws })).toBe(0);
  });

  it("an import that would pass 200 authors is refused as a conflict located `authors`, before anything is written (admin.yaml importBlogs)", async () => {
    const ws = await newWorkspace("Capped");
    await c.authors.insertMany(
      Array.from({ length: 199 }, (_, i) => ({
        _id: `au_cap${i}`,
        workspaceId: ws,
        name: `Author ${i}`,
        nameKey: `author ${i}`,
        slug: `author-${i}`,
        bio: null,
        avatarUrl: null,
        websiteUrl: null,
        createdAt: at,
        updatedAt: at,
      })),
    );
    const set = setOf([
      entry("a", {
        authors: [
          { name: "Ada", slug: "ada" },
          { name: "Author 1", slug: "author-1" },
        ],
      }),
      entry("b", { authors: [{ name: "Grace", slug: "grace" }] }),
    ]);
    const refused = await run(ws, set).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ImportInputError);
    const err = refused as ImportInputError;
    expect(err.kind).toBe("conflict");
    expect(err.problems).toEqual([
      {
        where: "authors",
        message:
          "2 author(s) to create, and the workspace has 199: a workspace has at most 200 authors.",
      },
    ]);
    expect(await c.authors.countDocuments({ workspaceId: ws })).toBe(199);
    expect(await c.blogs.countDocuments({ workspaceId: ws })).toBe(0);
    // One more fits: the existing author-1 is reused, Ada is the 200th.
    await run(ws, setOf([set.blogs[0] as ImportBlog]));
    expect(await c.authors.countDocuments({ workspaceId: ws })).toBe(200);
  });

  it("an entry naming more than 10 authors, a slug not in the rule, or one slug twice is a problem of that entry", async () => {
    const ws = await newWorkspace("Bad refs");
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `A ${i}`, slug: `a-${i}` }));
    const set = setOf([
      entry("many", { authors: eleven }),
      entry("bad", { authors: [{ name: "Ada", slug: "Ada!" }] }),
      entry("twice", {
        authors: [
          { name: "Ada", slug: "ada" },
          { name: "Ada L", slug: "ada" },
        ],
      }),
    ]);
    const err = (await run(ws, set).catch((e: unknown) => e)) as ImportInputError;
    expect(err).toBeInstanceOf(ImportInputError);
    expect(err.problems.map((p) => [p.where, p.message])).toEqual([
      ["many.md", '"authors" names more than 10 authors.'],
      ["bad.md", '"authors[0].slug" must be lower-case letters, digits and dashes, at most 100.'],
      ["twice.md", '"authors" names "ada" twice.'],
    ]);
    expect(await c.authors.countDocuments({ workspaceId: ws })).toBe(0);
  });
});

describe("Pressroom's format round-trips authors (README, 'Import and export'; admin.yaml WorkspaceExport)", () => {
  it("export → import into another workspace keeps every author's fields and each blog's order; an export made before authors imports with none", async () => {
    const from = await newWorkspace("Round trip source");
    const ada = await s.authors.create(from, {
      name: "Ada Lovelace",
      bio: "Line one\nline two",
      avatarUrl: "https://cdn.example/ada.png",
      websiteUrl: "https://ada.example/",
    });
    const grace = await s.authors.create(from, { name: "Grace Hopper", slug: "grace" });
    await s.authors.create(from, { name: "Nobody's", slug: "unnamed" });
    await s.blogs.create(from, {
      title: "Two",
      bodyMarkdown: "B",
      authorIds: [grace._id, ada._id],
    });
    await s.blogs.create(from, { title: "One", bodyMarkdown: "B", authorIds: [ada._id] });
    await s.blogs.create(from, { title: "None", bodyMarkdown: "B" });
    const exported = await exportWorkspace(c, from, new Date());
    expect(exported.authors.map((a) => a.slug)).toEqual(["ada-lovelace", "grace", "unnamed"]);
    expect(Object.fromEntries(exported.blogs.map((b) => [b.slug, b.authors]))).toEqual({
      two: ["grace", "ada-lovelace"],
      one: ["ada-lovelace"],
      none: [],
    });
    expect(JSON.stringify(exported.authors)).not.toMatch(/au_/);

    const to = await newWorkspace("Round trip target");
    await run(to, pressroomSet(JSON.parse(JSON.stringify(exported)), "ws.json"));
    const back = await exportWorkspace(c, to, new Date());
    expect(back.authors).toEqual(exported.authors);
    expect(back.blogs.map((b) => [b.slug, b.authors])).toEqual(
      exported.blogs.map((b) => [b.slug, b.authors]),
    );
    const again = await run(to, pressroomSet(JSON.parse(JSON.stringify(exported)), "ws.json"));
    expect(planCounts(again.plan)).toMatchObject({ create: 0, update: 0, unchanged: 3 });

    // An export older than authors: no `authors` anywhere; it imports, naming none.
    const { authors: _authors, ...old } = exported;
    const oldBlogs = old.blogs.map(({ authors: _a, ...b }) => ({
      ...b,
      id: `${b.id}old`,
      slug: `${b.slug}-old`,
    }));
    const legacy = pressroomSet({ ...old, blogs: oldBlogs }, "old.json");
    expect(legacy.authors).toEqual([]);
    expect(legacy.blogs.every((b) => b.authors === undefined)).toBe(true);
    const fresh = await newWorkspace("Legacy export");
    await run(fresh, legacy);
    expect(await c.authors.countDocuments({ workspaceId: fresh })).toBe(0);
    expect(
      (await c.blogs.find({ workspaceId: fresh }).toArray()).every(
        (b) => b.authorIds?.length === 0,
      ),
    ).toBe(true);
  });

  it("an author whose slug a taken name pushed past 80 characters (`-2`) exports and imports back (admin.yaml StoredAuthorSlug)", async () => {
    const from = await newWorkspace("Long slugs");
    const name = "0".repeat(100);
    await s.authors.create(from, { name });
    const second = await s.authors.create(from, { name });
    expect(second.slug).toBe(`${"0".repeat(80)}-2`);
    await s.blogs.create(from, { title: "Long", bodyMarkdown: "B", authorIds: [second._id] });
    const exported = await exportWorkspace(c, from, new Date());
    const to = await newWorkspace("Long slugs back");
    const set = pressroomSet(JSON.parse(JSON.stringify(exported)), "ws.json");
    // A problem would be thrown (ImportInputError) before anything is written.
    await run(to, set);
    const back = await exportWorkspace(c, to, new Date());
    expect(back.authors.map((a) => a.slug).sort()).toEqual(
      exported.authors.map((a) => a.slug).sort(),
    );
    expect(back.blogs.map((b) => b.authors)).toEqual([[`${"0".repeat(80)}-2`]]);
  });

  it("a blog naming a slug the export's authors do not list is a problem of that blog", () => {
    const doc = {
      format: "pressroom.workspace-export",
      version: 1,
      authors: [{ slug: "ada", name: "Ada", bio: null, avatarUrl: null, websiteUrl: null }],
      blogs: [
        {
          id: "b_x",
          slug: "x",
          title: "X",
          status: "draft",
          bodyMarkdown: "B",
          excerpt: null,
          tags: [],
          authorName: "Ada",
          authors: ["ada", "ghost"],
          coverImageUrl: null,
          createdAt: at.toISOString(),
          updatedAt: at.toISOString(),
          releasedAt: null,
          removedAt: null,
        },
      ],
    };
    expect(() => pressroomSet(doc, "ws.json")).toThrow(
      /blogs\[0\] "x": "authors" names "ghost", not one of the export's authors/,
    );
  });
});
