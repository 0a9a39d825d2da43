// Import and export over the admin API (admin.yaml, "Import and export": importBlogs,
// exportWorkspace; README, "Import and export"): what `pressroom --server` calls. An import is
// idempotent and checks everything before it writes; an access token needs `blogs:write` to
// import and `blogs:read` to export, and sees keys and endpoints in an export only with their
// own scopes; one import or export of a workspace runs at a time.
import { beforeAll, describe, expect, it } from "vitest";
import { scopeMissing } from "../../server/src/admin/token-scopes.js";
import { transferTurns, WORKSPACE_BUSY_MESSAGE } from "../../server/src/admin/transfer-turns.js";
import { RenderRefused } from "../../server/src/blogs/render-pool.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { DomainError } from "../../server/src/platform/domain-error.js";
import { patientRenderer } from "../../server/src/transfer/workspace-transfer.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { IMPORT_BODY_LIMIT_BYTES: "1048576" });
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
});

async function token(scopes: string[]): Promise<string> {
  const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const res = await owner.post<{ secret: string }>("/me/tokens", {
    name: `CI ${scopes.join(" ")}`,
    scopes,
    expiresAt,
  });
  expect(res.status).toBe(201);
  return res.body.secret;
}

async function asScript(secret: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === "" ? undefined : JSON.parse(text),
  };
}

const entry = (name: string, over: Record<string, unknown> = {}) => ({
  sourceKey: `markdown:posts/${name}.md`,
  origin: `posts/${name}.md`,
  title: `About ${name}`,
  slug: `about-${name}`,
  status: "released",
  bodyMarkdown: `# ${name}\n\nThe body of ${name}.`,
  tags: ["notes"],
  authorName: "Ada",
  coverImageUrl: null,
  createdAt: "2026-01-02T03:04:05.000Z",
  updatedAt: "2026-01-03T03:04:05.000Z",
  releasedAt: "2026-01-03T03:04:05.000Z",
  removedAt: null,
  ...over,
});

interface Report {
  dryRun: boolean;
  counts: Record<string, number>;
  entries: { origin: string; id: string; action: string; status: string }[];
  applied: Record<string, number> | null;
}

describe("importBlogs", () => {
  it("writes a set once: running it again changes nothing, a changed entry updates its blog", async () => {
    const secret = await token(["blogs:write"]);
    const blogs = [
      entry("one"),
      entry("two"),
      entry("three", { status: "draft", releasedAt: null }),
    ];
    const first = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown posts/",
      blogs,
    });
    expect(first.status).toBe(200);
    const report = first.body as Report;
    expect(report.counts).toEqual({ create: 3, update: 0, unchanged: 0, conflict: 0 });
    expect(report.applied).toEqual({ created: 3, updated: 0, unchanged: 0, conflicts: 0 });
    const one = report.entries[0]?.id ?? "";
    const stored = await owner.get<{
      title: string;
      status: string;
      createdAt: string;
      version: string;
    }>(`/workspaces/${ws}/blogs/${one}`);
    expect(stored.body).toMatchObject({
      title: "About one",
      status: "released",
      createdAt: "2026-01-02T03:04:05.000Z",
    });

    const again = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown posts/",
      blogs,
    });
    expect((again.body as Report).counts).toEqual({
      create: 0,
      update: 0,
      unchanged: 3,
      conflict: 0,
    });
    const after = await owner.get<{ version: string }>(`/workspaces/${ws}/blogs/${one}`);
    expect(after.body.version).toBe(stored.body.version);

    const edited = [entry("one", { bodyMarkdown: "Edited." }), ...blogs.slice(1)];
    const third = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown posts/",
      blogs: edited,
    });
    expect((third.body as Report).counts).toEqual({
      create: 0,
      update: 1,
      unchanged: 2,
      conflict: 0,
    });
  });

  it("a dry run plans and writes nothing", async () => {
    const secret = await token(["blogs:write"]);
    const res = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown drafts/",
      dryRun: true,
      blogs: [entry("dry", { sourceKey: "markdown:drafts/dry.md" })],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: true, counts: { create: 1 }, applied: null });
    const id = (res.body as Report).entries[0]?.id ?? "";
    expect((await owner.get(`/workspaces/${ws}/blogs/${id}`)).status).toBe(404);
  });

  it("entries breaking a rule the schema cannot say are refused with 400, every one located, and nothing is written", async () => {
    const secret = await token(["blogs:write"]);
    // 40 characters as sent, 80 in normal form (NFKC makes ㍻ 平成): over a tag's 40.
    const long = "㍻".repeat(40);
    const res = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown bad/",
      blogs: [
        entry("fine", { sourceKey: "markdown:bad/fine.md" }),
        entry("tag-a", { sourceKey: "markdown:bad/tag-a.md", tags: [long] }),
        entry("tag-b", { sourceKey: "markdown:bad/tag-b.md", tags: ["ok", long] }),
      ],
    });
    expect(res.status).toBe(400);
    const body = res.body as { message: string; problems: { where: string; message: string }[] };
    expect(body.problems.map((p) => p.where)).toEqual(["posts/tag-a.md", "posts/tag-b.md"]);
    expect(body.message).toContain("Nothing was imported: 2 problem(s)");
    const list = await owner.get<{ data: { slug: string }[] }>(`/workspaces/${ws}/blogs?q=fine`);
    expect(list.body.data.map((b) => b.slug)).not.toContain("about-fine");
  });

  it("a status without its time is the schema's 400; tags are taken as a create takes them", async () => {
    const secret = await token(["blogs:write"]);
    const res = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown bad/",
      blogs: [entry("no-time", { sourceKey: "markdown:bad/no-time.md", releasedAt: null })],
    });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toMatch(/releasedAt/);
    const tagged = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown tags/",
      dryRun: true,
      blogs: [
        entry("tagged", {
          sourceKey: "markdown:tags/t.md",
          tags: ["Release  Notes", "release-notes"],
        }),
      ],
    });
    expect(tagged.status).toBe(200);
  });

  it("entries clashing with each other or with the workspace's blogs are refused with 409, every clash located", async () => {
    const secret = await token(["blogs:write"]);
    const twice = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown bad/",
      blogs: [
        entry("a", { sourceKey: "markdown:bad/a.md", slug: "same-slug" }),
        entry("b", { sourceKey: "markdown:bad/b.md", slug: "same-slug" }),
      ],
    });
    expect(twice.status).toBe(409);
    expect(twice.body.problems).toEqual([
      { where: "posts/b.md", message: 'slug "same-slug" is also posts/a.md\'s.' },
    ]);
    const taken = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown bad/",
      blogs: [entry("taken", { sourceKey: "markdown:bad/taken.md", slug: "about-one" })],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.problems).toEqual([
      {
        where: "posts/taken.md",
        message: expect.stringContaining('slug "about-one" is already used in this workspace'),
      },
    ]);
  });

  it("a token without blogs:write is refused before its set is read", async () => {
    const secret = await token(["blogs:read"]);
    const res = await asScript(secret, "POST", `/workspaces/${ws}/imports`, "{not json");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: scopeMissing("blogs:write") });
  });

  it("a set larger than IMPORT_BODY_LIMIT_BYTES is refused with 413 naming the setting", async () => {
    const secret = await token(["blogs:write"]);
    const big = Array.from({ length: 8 }, (_, i) =>
      entry(`big-${i}`, { bodyMarkdown: "x".repeat(150_000) }),
    );
    const res = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      source: "markdown big/",
      blogs: big,
    });
    expect(res.status).toBe(413);
    expect((res.body as { message: string }).message).toContain("IMPORT_BODY_LIMIT_BYTES");
  });

  it("a workspace the token's user is not a member of is not found, as a made-up one", async () => {
    const theirs = await stores(t.db).workspaces.create("Someone else's");
    const secret = await token(["blogs:write"]);
    const empty = { source: "s", blogs: [] };
    const foreign = await asScript(secret, "POST", `/workspaces/${theirs._id}/imports`, empty);
    const madeUp = await asScript(secret, "POST", "/workspaces/ws_nothing/imports", empty);
    expect(foreign).toMatchObject({ status: 404, body: { message: "Workspace not found." } });
    expect(madeUp).toMatchObject({ status: 404, body: { message: "Workspace not found." } });
    const exported = await asScript(secret, "GET", `/workspaces/${theirs._id}/export`);
    expect(exported.status).toBe(404);
  });
});

describe("importBlogs: authors matched by slug (admin.yaml ImportEntry.authors, ImportRequest.authors; README, 'Import and export')", () => {
  it("creates the missing authors with the request's public fields, reuses an existing one as it is, names them in order, a slug named twice once; an email is refused by the schema", async () => {
    const secret = await token(["blogs:write", "blogs:read"]);
    const existing = await owner.post<{ id: string }>(`/workspaces/${ws}/authors`, {
      name: "Ada King",
      slug: "ada",
    });
    expect(existing.status).toBe(201);
    const body = {
      source: "ghost export.json",
      blogs: [
        entry("authored", {
          authors: [
            { name: "Grace", slug: "grace" },
            { name: "Ada Lovelace", slug: "ada" },
            // A slug named again is taken once, the first kept (admin.yaml ImportEntry.authors).
            { name: "Grace again", slug: "grace" },
          ],
        }),
      ],
      authors: [
        { slug: "grace", name: "Grace Hopper", websiteUrl: "https://grace.example/" },
        { slug: "grace", name: "Not kept" },
      ],
    };
    const withEmail = await asScript(secret, "POST", `/workspaces/${ws}/imports`, {
      ...body,
      authors: [{ ...body.authors[0], email: "grace@example.com" }],
    });
    expect(withEmail.status).toBe(400);

    const res = await asScript(secret, "POST", `/workspaces/${ws}/imports`, body);
    expect(res.status).toBe(200);
    expect(res.body.authors).toEqual([
      { slug: "grace", name: "Grace Hopper", action: "create" },
      { slug: "ada", name: "Ada King", action: "existing" },
    ]);
    const list = await owner.get<{ data: { id: string; slug: string; name: string }[] }>(
      `/workspaces/${ws}/authors`,
    );
    const bySlug = new Map(list.body.data.map((a) => [a.slug, a]));
    expect(bySlug.get("ada")?.name).toBe("Ada King");
    expect(bySlug.get("grace")).toMatchObject({
      name: "Grace Hopper",
      websiteUrl: "https://grace.example/",
    });
    const blog = await owner.get<{ authors: { id: string }[] }>(
      `/workspaces/${ws}/blogs/${res.body.entries[0].id}`,
    );
    expect(blog.body.authors.map((a) => a.id)).toEqual([bySlug.get("grace")?.id, existing.body.id]);

    const again = await asScript(secret, "POST", `/workspaces/${ws}/imports`, body);
    expect(again.body.counts).toEqual({ create: 0, update: 0, unchanged: 1, conflict: 0 });

    const exported = await asScript(secret, "GET", `/workspaces/${ws}/export`);
    const authored = exported.body.blogs.find((b: { slug: string }) => b.slug === "about-authored");
    expect(authored.authors).toEqual(["grace", "ada"]);
    expect(exported.body.authors.map((a: { slug: string }) => a.slug)).toEqual(
      expect.arrayContaining(["ada", "grace"]),
    );
  });

  it("authors to create past the workspace's 200 are refused with 409, located `authors`, and nothing is written", async () => {
    const other = (await owner.post<{ id: string }>("/workspaces", { name: "Full of authors" }))
      .body.id;
    await collections(t.db).authors.insertMany(
      Array.from({ length: 200 }, (_, i) => ({
        _id: `au_full${i}`,
        workspaceId: other,
        name: `Author ${i}`,
        nameKey: `author ${i}`,
        slug: `author-${i}`,
        bio: null,
        avatarUrl: null,
        websiteUrl: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      })),
    );
    const res = await asScript(
      await token(["blogs:write"]),
      "POST",
      `/workspaces/${other}/imports`,
      {
        source: "markdown posts/",
        blogs: [entry("capped", { authors: [{ name: "Ada", slug: "ada" }] })],
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.problems).toEqual([
      {
        where: "authors",
        message:
          "1 author(s) to create, and the workspace has 200: a workspace has at most 200 authors.",
      },
    ]);
    expect(await t.db.collection("blogs").countDocuments({ workspaceId: other })).toBe(0);
    expect(await t.db.collection("authors").countDocuments({ workspaceId: other })).toBe(200);
  });
});

describe("exportWorkspace", () => {
  it("exports every blog in Pressroom's format; keys and endpoints only with their scopes", async () => {
    await owner.post(`/workspaces/${ws}/keys`, { name: "Website" });
    const session = await owner.get<{ format: string; blogs: unknown[]; keys: unknown[] }>(
      `/workspaces/${ws}/export`,
    );
    expect(session.status).toBe(200);
    expect(session.body.format).toBe("pressroom.workspace-export");
    expect(session.body.blogs.length).toBeGreaterThanOrEqual(3);
    expect(session.body.keys.length).toBe(1);

    const reader = await asScript(await token(["blogs:read"]), "GET", `/workspaces/${ws}/export`);
    expect(reader.status).toBe(200);
    expect(reader.body).toMatchObject({ keys: [], webhookEndpoints: [] });
    expect(reader.body.blogs).toEqual(session.body.blogs);

    const keeper = await asScript(
      await token(["blogs:read", "keys:manage"]),
      "GET",
      `/workspaces/${ws}/export`,
    );
    expect(keeper.body.keys).toEqual(session.body.keys);
    expect(JSON.stringify(keeper.body)).not.toMatch(/cp_live_[A-Za-z0-9]{20}/);
  });

  it("a token without blogs:read cannot export", async () => {
    const res = await asScript(await token(["keys:manage"]), "GET", `/workspaces/${ws}/export`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: scopeMissing("blogs:read") });
  });
});

describe("an import's renders wait out a busy workspace (README, 'Publishing from CI')", () => {
  it("a render refused as busy is tried again until it is let through; a body refused fails at once", async () => {
    const waits: number[] = [];
    let busy = 2;
    const renderer = patientRenderer(
      {
        async render(source) {
          if (source === "nested")
            throw new RenderRefused({ reason: "nesting", message: "Too deep." });
          if (busy-- > 0) throw new DomainError("unavailable", "Busy.", 1);
          return { bodyHtml: `<p>${source}</p>`, excerpt: source, readingTimeMinutes: 1 };
        },
      },
      async (ms) => {
        waits.push(ms);
      },
    );
    await expect(renderer.render("hello", { workspaceId: "ws_a" })).resolves.toMatchObject({
      bodyHtml: "<p>hello</p>",
    });
    expect(waits).toEqual([250, 250]);
    await expect(renderer.render("nested", { workspaceId: "ws_a" })).rejects.toBeInstanceOf(
      RenderRefused,
    );
    expect(waits).toHaveLength(2);
  });
});

describe("transfer turns", () => {
  it("one import or export of a workspace at a time, and two in all; the turn ends with the work", async () => {
    const turns = transferTurns(2);
    let release: () => void = () => {};
    const held = turns.run("ws_a", () => new Promise<void>((r) => (release = r)));
    expect(() => turns.check("ws_a")).toThrow(WORKSPACE_BUSY_MESSAGE);
    await expect(turns.run("ws_a", async () => 1)).rejects.toMatchObject({
      code: "unavailable",
      retryAfterSeconds: 5,
    });
    let releaseB: () => void = () => {};
    const heldB = turns.run("ws_b", () => new Promise<void>((r) => (releaseB = r)));
    expect(() => turns.check("ws_c")).toThrow(/2 imports or exports are already running/);
    release();
    await held;
    expect(() => turns.check("ws_a")).not.toThrow();
    releaseB();
    await heldB;
    await expect(
      turns.run("ws_a", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(() => turns.check("ws_a")).not.toThrow();
  });
});
