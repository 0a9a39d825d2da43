// A blog's history (admin.yaml, "History", listBlogRevisions, getBlogRevision,
// restoreBlogRevision): every save and state change keeps a revision (who, when, what it did,
// what changed, the state it left), newest first, in a collection of its own; any revision's
// content can be read (the dashboard diffs two); a restore is a new save on top, never a
// rewrite; each blog keeps the newest BLOG_REVISIONS_KEPT; a removed blog's history goes with it.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER, versionOf } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type Summary = components["schemas"]["BlogRevisionSummary"];
type Revision = components["schemas"]["BlogRevision"];
type AuditEntry = components["schemas"]["AuditEntry"];
type Page = { data: Summary[]; nextCursor: string | null };

/** The bound this file's server runs with (README, "Configuration", BLOG_REVISIONS_KEPT). */
const KEPT = 8;
const MEMBER = { email: "wren@example.com", name: "Wren Writer", password: "wren's long password" };

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let member: AdminClient;
let ws: string;
let ownerId: string;
let key = "";
let made = 0;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { BLOG_REVISIONS_KEPT: String(KEPT) });
  owner = new AdminClient(server.url);
  const setup = await owner.post<Me>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
  ownerId = setup.body.user.id;
  await stores(t.db).users.create(MEMBER);
  await owner.post(`/workspaces/${ws}/members`, { email: MEMBER.email });
  member = new AdminClient(server.url);
  await member.post("/session", { email: MEMBER.email, password: MEMBER.password });
  key = (await owner.post<{ secret: string }>(`/workspaces/${ws}/keys`, { name: "Reader" })).body
    .secret;
});

const blogPath = (id: string) => `/workspaces/${ws}/blogs/${id}`;

async function newDraft(client = owner): Promise<AdminBlog> {
  made++;
  const created = await client.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
    title: `History ${made}`,
    slug: `history-${made}`,
    bodyMarkdown: "First words.",
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function edit(blog: AdminBlog, patch: Record<string, unknown>, client = owner) {
  const res = await client.patch<AdminBlog>(blogPath(blog.id), patch, versionOf(blog));
  expect(res.status).toBe(200);
  return res.body;
}

async function act(blog: AdminBlog, action: string, client = owner) {
  const res = await client.post<AdminBlog>(`${blogPath(blog.id)}/${action}`, undefined, {
    ...versionOf(blog),
  });
  expect(res.status).toBe(200);
  return res.body;
}

const history = async (blog: { id: string }, query = "") =>
  (await owner.get<Page>(`${blogPath(blog.id)}/revisions${query}`)).body;
const revision = (blog: { id: string }, revisionId: string, client = owner) =>
  client.get<Revision>(`${blogPath(blog.id)}/revisions/${revisionId}`);
const restore = (blog: AdminBlog, revisionId: string, headers = versionOf(blog), client = owner) =>
  client.post<AdminBlog>(
    `${blogPath(blog.id)}/revisions/${revisionId}/restore`,
    undefined,
    headers,
  );

const consumerBlog = async (id: string) => {
  const res = await fetch(`${server.url}/api/consumer/blogs/${id}`, {
    headers: { "x-api-key": key },
  });
  return {
    status: res.status,
    body: (await res.json()) as { title: string; bodyMarkdown: string },
  };
};

describe("every save and state change keeps a revision, newest first", () => {
  it("create, edits, release, a staged edit, publish and unrelease each keep one: who, what, what changed, the state after", async () => {
    const created = await newDraft();
    const titled = await edit(created, { title: "Renamed", bodyMarkdown: "Second words." });
    const released = await act(titled, "release");
    const staged = await edit(released, { bodyMarkdown: "Pending words." }, member);
    const published = await act(staged, "publish", member);
    await act(published, "unrelease");

    const page = await history(created);
    const ownerActor = { id: ownerId, name: OWNER.name };
    expect(page.nextCursor).toBeNull();
    expect(
      page.data.map(({ action, actor, status, pendingChanges, changed }) => ({
        action,
        who: actor?.name,
        status,
        pendingChanges,
        changed,
      })),
    ).toEqual([
      {
        action: "unreleased",
        who: OWNER.name,
        status: "draft",
        pendingChanges: false,
        changed: [],
      },
      {
        action: "published",
        who: MEMBER.name,
        status: "released",
        pendingChanges: false,
        changed: [],
      },
      {
        action: "edited",
        who: MEMBER.name,
        status: "released",
        pendingChanges: true,
        changed: ["excerpt", "bodyMarkdown"],
      },
      {
        action: "released",
        who: OWNER.name,
        status: "released",
        pendingChanges: false,
        changed: [],
      },
      {
        action: "edited",
        who: OWNER.name,
        status: "draft",
        pendingChanges: false,
        changed: ["title", "excerpt", "bodyMarkdown"],
      },
      {
        action: "created",
        who: OWNER.name,
        status: "draft",
        pendingChanges: false,
        changed: [
          "title",
          "slug",
          "excerpt",
          "bodyMarkdown",
          "tags",
          "authorName",
          "authors",
          "coverImageUrl",
          "coverImageAlt",
          "featured",
          "metaTitle",
          "metaDescription",
          "canonicalUrl",
          "socialImageUrl",
        ],
      },
    ]);
    expect(page.data.at(-1)?.actor).toEqual(ownerActor);
    expect(page.data[0]).toMatchObject({ title: "Renamed", slug: created.slug });
    const times = page.data.map((r) => Date.parse(r.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("a save of what the blog says already keeps no revision; a discard keeps one", async () => {
    const blog = await newDraft();
    const same = await edit(blog, { title: blog.title });
    expect((await history(blog)).data).toHaveLength(1);
    const released = await act(same, "release");
    const staged = await edit(released, { title: "To be dropped" });
    await act(staged, "discard");
    const [discarded] = (await history(blog)).data;
    expect(discarded).toMatchObject({
      action: "discarded",
      pendingChanges: false,
      changed: ["title"],
      title: blog.title,
    });
  });

  it("pages follow nextCursor to the end without repeats", async () => {
    let blog = await newDraft();
    for (let i = 1; i <= 6; i++) blog = await edit(blog, { bodyMarkdown: `Words ${i}.` });
    const seen: string[] = [];
    let page = await history(blog, "?limit=3");
    seen.push(...page.data.map((r) => r.id));
    while (page.nextCursor !== null) {
      page = await history(blog, `?limit=3&cursor=${page.nextCursor}`);
      seen.push(...page.data.map((r) => r.id));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toEqual((await history(blog, "?limit=100")).data.map((r) => r.id));
  });
});

describe("a revision's content is readable, to compare any two", () => {
  it("each revision answers the content it left, bodies included", async () => {
    const blog = await newDraft();
    await edit(blog, { bodyMarkdown: "Changed words.\n\nA new paragraph.", tags: ["news"] });
    const [newer, older] = (await history(blog)).data;
    const a = await revision(blog, older?.id ?? "");
    const b = await revision(blog, newer?.id ?? "", member);
    expect(a.status).toBe(200);
    expect(a.body.content).toMatchObject({ bodyMarkdown: "First words.", tags: [] });
    expect(b.body.content).toMatchObject({
      bodyMarkdown: "Changed words.\n\nA new paragraph.",
      tags: ["news"],
    });
    expect(b.body.revision).toEqual(newer);
  });

  it("a revision of another blog, an unknown one and a malformed id are 404 / 400", async () => {
    const one = await newDraft();
    const other = await newDraft();
    const [ofOther] = (await history(other)).data;
    expect((await revision(one, ofOther?.id ?? "")).status).toBe(404);
    expect((await revision(one, "rev_doesnotexist")).status).toBe(404);
    expect((await revision(one, "nope")).status).toBe(400);
    expect((await owner.get(`${blogPath("b_missing")}/revisions`)).status).toBe(404);
  });
});

describe("restore is a new save on top, never a rewrite", () => {
  it("a draft gets the old content back as a new `restored` revision, and the audit log names who", async () => {
    const blog = await newDraft();
    const later = await edit(blog, { title: "Later title", bodyMarkdown: "Later words." });
    const before = (await history(blog)).data;
    const first = before.at(-1)?.id ?? "";
    const restored = await restore(later, first, versionOf(later), member);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ title: blog.title, bodyMarkdown: "First words." });
    expect(restored.headers.get("etag")).toBe(`"${restored.body.version}"`);
    const after = (await history(blog)).data;
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(1)).toEqual(before);
    expect(after[0]).toMatchObject({
      action: "restored",
      restoredFrom: first,
      actor: { name: MEMBER.name },
      changed: ["title", "excerpt", "bodyMarkdown"],
    });
    const [entry] = (await owner.get<{ data: AuditEntry[] }>(`/workspaces/${ws}/audit?limit=1`))
      .body.data;
    expect(entry).toMatchObject({
      action: "blog.restored",
      actor: { name: MEMBER.name },
      details: { blogId: blog.id, blogTitle: blog.title },
    });
  });

  it("a released blog gets it as pending changes: consumers still read the released version", async () => {
    const blog = await newDraft();
    const released = await act(blog, "release");
    const staged = await edit(released, { bodyMarkdown: "Pending." });
    const published = await act(staged, "publish");
    const [, , firstRelease] = (await history(blog)).data;
    expect(firstRelease?.action).toBe("released");
    const restored = await restore(published, firstRelease?.id ?? "");
    expect(restored.body).toMatchObject({ pendingChanges: true, bodyMarkdown: "First words." });
    expect((await consumerBlog(blog.id)).body.bodyMarkdown).toBe("Pending.");
  });

  it("content the blog has already changes nothing; a stale version is 412, none is 428", async () => {
    const blog = await newDraft();
    const [only] = (await history(blog)).data;
    const same = await restore(blog, only?.id ?? "");
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(blog.version);
    expect((await history(blog)).data).toHaveLength(1);

    const newer = await edit(blog, { title: "Newer" });
    const stale = await restore(newer, only?.id ?? "", versionOf(blog));
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ current: { title: "Newer" } });
    expect((await restore(newer, only?.id ?? "", {})).status).toBe(428);
    expect((await owner.get<AdminBlog>(blogPath(blog.id))).body.title).toBe("Newer");
  });

  it("a slug another blog took since is a 409 and changes nothing", async () => {
    const blog = await newDraft();
    const [first] = (await history(blog)).data;
    const moved = await edit(blog, { slug: `moved-${made}` });
    const taker = await newDraft();
    await edit(taker, { slug: blog.slug });
    const refused = await restore(moved, first?.id ?? "");
    expect(refused.status).toBe(409);
    expect((await owner.get<AdminBlog>(blogPath(blog.id))).body.version).toBe(moved.version);
  });
});

describe("storage: its own collection, bounded per blog, gone with the blog", () => {
  it(`keeps the newest ${KEPT} revisions of each blog; an older one is 404`, async () => {
    let blog = await newDraft();
    const first = (await history(blog)).data[0]?.id ?? "";
    for (let i = 1; i <= KEPT + 3; i++) blog = await edit(blog, { bodyMarkdown: `Step ${i}.` });
    const kept = (await history(blog, "?limit=100")).data;
    expect(kept).toHaveLength(KEPT);
    expect(kept[0]?.changed).toEqual(["excerpt", "bodyMarkdown"]);
    expect((await revision(blog, kept.at(-1)?.id ?? "")).body.content.bodyMarkdown).toBe(
      `Step ${3 + 1}.`,
    );
    expect((await revision(blog, first)).status).toBe(404);
    expect(
      await collections(t.db).blogRevisions.countDocuments({ workspaceId: ws, blogId: blog.id }),
    ).toBe(KEPT);
  });

  it("blog documents carry no history, and the blog list reads none", async () => {
    const blog = await newDraft();
    await edit(blog, { bodyMarkdown: "More." });
    const stored = await collections(t.db).blogs.findOne({ _id: blog.id });
    expect(Object.keys(stored ?? {}).filter((k) => /revision/i.test(k))).toEqual(["revision"]);
    const list = await owner.get<{ data: AdminBlog[] }>(`/workspaces/${ws}/blogs?limit=100`);
    expect(Object.keys(list.body.data[0] ?? {})).not.toContain("revisions");
  });

  it("removing a blog deletes its history: its revisions answer 404 and none are stored", async () => {
    const blog = await newDraft();
    const [only] = (await history(blog)).data;
    const removed = await owner.delete(blogPath(blog.id), versionOf(blog));
    expect(removed.status).toBe(204);
    expect((await owner.get(`${blogPath(blog.id)}/revisions`)).status).toBe(404);
    expect((await revision(blog, only?.id ?? "")).status).toBe(404);
    expect(await collections(t.db).blogRevisions.countDocuments({ blogId: blog.id })).toBe(0);
  });
});
