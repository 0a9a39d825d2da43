// Staged changes (admin.yaml, "Staged changes", publishBlogChanges, discardBlogChanges): an edit
// of a released blog is saved as pending changes, kept apart from the blog (README, "Staged
// changes"), that consumers, the changes feed and webhooks never see until it is published; discarding returns to the released version; unreleasing
// keeps the pending changes as the draft. Drafts are edited in place. Each state change that
// applies is an audit entry naming who did it (admin.yaml, AuditAction `blog.*`).
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import {
  moveStagedContentApart,
  STAGED_APART_MARKER,
} from "../../server/src/blogs/staged-migration.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, ANY_VERSION, OWNER, versionOf } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type StaleBlog = components["schemas"]["StaleBlog"];
interface ConsumerBlog {
  id: string;
  slug: string;
  title: string;
  bodyMarkdown: string;
  updatedAt: string;
}
interface ChangePage {
  changes: { type: string; blog?: ConsumerBlog; id?: string }[];
  nextToken: string;
  hasMore: boolean;
}

let t: TestDb;
let server: TestServer;
let admin: AdminClient;
let ws: string;
let key = "";
let made = 0;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  admin = new AdminClient(server.url);
  ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  key = (await admin.post<{ secret: string }>(`/workspaces/${ws}/keys`, { name: "Reader" })).body
    .secret;
});

const blogPath = (id: string) => `/workspaces/${ws}/blogs/${id}`;

async function releasedBlog(): Promise<AdminBlog> {
  made++;
  const created = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
    title: `Staged ${made}`,
    slug: `staged-${made}`,
    bodyMarkdown: "The released words.",
  });
  expect(created.status).toBe(201);
  const released = await admin.post<AdminBlog>(
    `${blogPath(created.body.id)}/release`,
    undefined,
    versionOf(created.body),
  );
  expect(released.status).toBe(200);
  return released.body;
}

const consumer = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/consumer${path}`, { headers: { "x-api-key": key, ...headers } });

/** The consumer's blog, its ETag and status. */
async function consumerBlog(id: string) {
  const res = await consumer(`/blogs/${id}`);
  return {
    status: res.status,
    etag: res.headers.get("etag"),
    body: (await res.json()) as ConsumerBlog,
  };
}

/** Every change the feed lists after `since` (null: from the start). */
async function changesAfter(since: string | null): Promise<ChangePage> {
  const res = await consumer(`/changes${since === null ? "" : `?since=${since}`}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ChangePage;
}

/** The feed's token now: what a mirror up to date would hold. */
async function feedNow(): Promise<string> {
  let page = await changesAfter(null);
  while (page.hasMore) page = await changesAfter(page.nextToken);
  return page.nextToken;
}

/** How many webhook events the blog has queued in all (`BlogDoc.eventSeq`). */
const eventsOf = async (id: string) =>
  (await collections(t.db).blogs.findOne({ _id: id }))?.eventSeq ?? 0;

const edit = (blog: AdminBlog, patch: Record<string, unknown>) =>
  admin.patch<AdminBlog>(blogPath(blog.id), patch, versionOf(blog));
const publish = (blog: AdminBlog) =>
  admin.post<AdminBlog>(`${blogPath(blog.id)}/publish`, undefined, versionOf(blog));
const discard = (blog: AdminBlog) =>
  admin.post<AdminBlog>(`${blogPath(blog.id)}/discard`, undefined, versionOf(blog));

describe("an edit of a released blog is staged", () => {
  it("consumers (get, by slug, list, 304), the changes feed and webhooks see the released version; the admin API the pending one", async () => {
    const blog = await releasedBlog();
    const live = await consumerBlog(blog.id);
    const token = await feedNow();
    const events = await eventsOf(blog.id);

    const staged = await edit(blog, {
      title: "Pending title",
      slug: `pending-${made}`,
      bodyMarkdown: "Pending words.",
    });
    expect(staged.status).toBe(200);
    expect(staged.body).toMatchObject({
      title: "Pending title",
      slug: `pending-${made}`,
      bodyMarkdown: "Pending words.",
      pendingChanges: true,
      status: "released",
    });
    expect(staged.body.version).not.toBe(blog.version);
    expect(staged.headers.get("etag")).toBe(`"${staged.body.version}"`);
    expect((await admin.get<AdminBlog>(blogPath(blog.id))).body).toEqual(staged.body);

    // Consumers: the same bytes and the same ETag as before the edit.
    const after = await consumerBlog(blog.id);
    expect(after).toEqual(live);
    const revalidated = await consumer(`/blogs/${blog.id}`, { "if-none-match": live.etag ?? "" });
    expect(revalidated.status).toBe(304);
    expect((await consumer(`/blogs/by-slug/${blog.slug}`)).status).toBe(200);
    expect((await consumer(`/blogs/by-slug/pending-${made}`)).status).toBe(404);
    const list = (await (await consumer("/blogs?limit=100")).json()) as { data: ConsumerBlog[] };
    expect(list.data.find((b) => b.id === blog.id)?.title).toBe(blog.title);
    // The feed and webhooks: nothing.
    expect((await changesAfter(token)).changes).toEqual([]);
    expect(await eventsOf(blog.id)).toBe(events);
  });

  it("publishing makes the pending version live in one update: the feed records one change, webhooks one event", async () => {
    const blog = await releasedBlog();
    const token = await feedNow();
    const events = await eventsOf(blog.id);
    const first = (await edit(blog, { title: "First pending" })).body;
    const second = (await edit(first, { bodyMarkdown: "Second pending words." })).body;
    expect(second).toMatchObject({ title: "First pending", pendingChanges: true });

    const published = await publish(second);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({
      title: "First pending",
      bodyMarkdown: "Second pending words.",
      pendingChanges: false,
      status: "released",
    });
    expect(published.headers.get("etag")).toBe(`"${published.body.version}"`);
    const now = await consumerBlog(blog.id);
    expect(now.body).toMatchObject({
      title: "First pending",
      bodyMarkdown: "Second pending words.",
      updatedAt: published.body.updatedAt,
    });
    const feed = await changesAfter(token);
    expect(feed.changes.map((c) => [c.type, c.blog?.title])).toEqual([["upsert", "First pending"]]);
    expect(await eventsOf(blog.id)).toBe(events + 1);
  });

  it("discarding returns to the released version, and nobody hears of it", async () => {
    const blog = await releasedBlog();
    const token = await feedNow();
    const staged = (await edit(blog, { title: "Never live" })).body;
    const discarded = await discard(staged);
    expect(discarded.status).toBe(200);
    expect(discarded.body).toMatchObject({ title: blog.title, pendingChanges: false });
    expect((await admin.get<AdminBlog>(blogPath(blog.id))).body.title).toBe(blog.title);
    expect((await consumerBlog(blog.id)).body.title).toBe(blog.title);
    expect((await changesAfter(token)).changes).toEqual([]);
  });

  it("an edit back to the released version leaves nothing pending", async () => {
    const blog = await releasedBlog();
    const staged = (await edit(blog, { title: "For a moment" })).body;
    const back = await edit(staged, { title: blog.title });
    expect(back.body).toMatchObject({ title: blog.title, pendingChanges: false });
  });

  it("publishing or discarding with nothing pending, or a draft, changes nothing", async () => {
    const blog = await releasedBlog();
    for (const run of [publish, discard]) {
      const res = await run(blog);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(blog);
    }
    const draft = (await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, { title: "A draft" }))
      .body;
    const edited = (await edit(draft, { title: "A draft, edited" })).body;
    expect(edited).toMatchObject({ title: "A draft, edited", pendingChanges: false });
    expect((await publish(edited)).body).toEqual(edited);
  });

  it("unreleasing keeps the pending changes, as the draft", async () => {
    const blog = await releasedBlog();
    const staged = (await edit(blog, { title: "Kept as the draft" })).body;
    const draft = await admin.post<AdminBlog>(
      `${blogPath(blog.id)}/unrelease`,
      undefined,
      versionOf(staged),
    );
    expect(draft.body).toMatchObject({
      status: "draft",
      title: "Kept as the draft",
      pendingChanges: false,
    });
    expect((await consumerBlog(blog.id)).status).toBe(404);
  });

  it("an unrelease's webhook event names the blog as consumers knew it, never its pending slug", async () => {
    const blog = await releasedBlog();
    const staged = (await edit(blog, { slug: `never-seen-${made}` })).body;
    const res = await admin.post<AdminBlog>(
      `${blogPath(blog.id)}/unrelease`,
      undefined,
      versionOf(staged),
    );
    expect(res.body).toMatchObject({ status: "draft", slug: `never-seen-${made}` });
    // Relayed or still in the blog's outbox: the event of the unrelease, wherever it is now.
    const c = collections(t.db);
    const unreleased = async () =>
      (await c.webhookEvents.findOne({ blogId: blog.id, type: "blog.unreleased" }))?.slug ??
      (await c.blogs.findOne({ _id: blog.id }))?.webhookOutbox?.find(
        (e) => e.type === "blog.unreleased",
      )?.slug;
    await expect.poll(unreleased).toBe(blog.slug);
  });

  it("an unrelease goes through when another blog took the pending slug: the draft keeps its released slug", async () => {
    const blog = await releasedBlog();
    const staged = (await edit(blog, { slug: `contested-${made}`, title: "Pending title" })).body;
    const taker = await admin.post(`/workspaces/${ws}/blogs`, {
      title: "Taker",
      slug: `contested-${made}`,
    });
    expect(taker.status).toBe(201);
    const res = await admin.post<AdminBlog>(
      `${blogPath(blog.id)}/unrelease`,
      undefined,
      versionOf(staged),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "draft", slug: blog.slug, title: "Pending title" });
    expect((await consumerBlog(blog.id)).status).toBe(404);
  });

  it("removing a blog with pending changes removes it all", async () => {
    const blog = await releasedBlog();
    const staged = (await edit(blog, { title: "Pending, then gone" })).body;
    expect((await admin.delete(blogPath(blog.id), versionOf(staged))).status).toBe(204);
    expect((await admin.get(blogPath(blog.id))).status).toBe(404);
    expect((await consumerBlog(blog.id)).status).toBe(404);
  });
});

describe("pending changes and other writers", () => {
  it("a staged slug another blog uses is refused at once; one taken before publishing is refused then, and nothing changes", async () => {
    const blog = await releasedBlog();
    const other = await releasedBlog();
    const refused = await edit(blog, { slug: other.slug });
    expect([refused.status, refused.body]).toEqual([
      409,
      { message: `Slug "${other.slug}" is already used in this workspace.` },
    ]);
    const staged = (await edit(blog, { slug: `wanted-${made}` })).body;
    // A new blog takes the slug between the save and the publish (pending slugs are not held).
    const taker = await admin.post(`/workspaces/${ws}/blogs`, {
      title: "Taker",
      slug: `wanted-${made}`,
    });
    expect(taker.status).toBe(201);
    const late = await publish(staged);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({
      message: `Slug "wanted-${made}" is already used in this workspace.`,
    });
    expect((await admin.get<AdminBlog>(blogPath(blog.id))).body).toEqual(staged);
    expect((await consumerBlog(blog.id)).body.slug).toBe(blog.slug);
  });

  it("a publish or discard of a version someone else changed since is 412, and changes nothing", async () => {
    const blog = await releasedBlog();
    const mine = (await edit(blog, { title: "Mine" })).body;
    const theirs = (await edit(mine, { title: "Theirs" })).body;
    for (const run of [publish, discard]) {
      const res = await run(mine);
      expect(res.status).toBe(412);
      expect((res.body as unknown as StaleBlog).current).toEqual(theirs);
    }
    expect((await consumerBlog(blog.id)).body.title).toBe(blog.title);
    expect((await publish(theirs)).body.title).toBe("Theirs");
  });

  it("the live version's ETag is a version too: a write naming it after a staged edit is 412", async () => {
    const blog = await releasedBlog();
    await edit(blog, { title: "Staged by someone" });
    const res = await admin.post(`${blogPath(blog.id)}/unrelease`, undefined, versionOf(blog));
    expect(res.status).toBe(412);
    expect((await admin.post(`${blogPath(blog.id)}/publish`, undefined, ANY_VERSION)).status).toBe(
      200,
    );
  });
});

describe("the audit log", () => {
  interface Entry {
    action: string;
    actor: { name: string } | null;
    details: { blogId?: string; blogTitle?: string };
  }
  const entriesOf = async (blogId: string) =>
    (await admin.get<{ data: Entry[] }>(`/workspaces/${ws}/audit?limit=100`)).body.data
      .filter((e) => e.details.blogId === blogId)
      .map((e) => [e.action, e.actor?.name ?? null, e.details.blogTitle]);

  it("records each release, publish, discard, unrelease and removal that changed the blog, with the member who did it, newest first; no-ops record nothing", async () => {
    const blog = await releasedBlog();
    const staged = (await edit(blog, { title: "Audited title" })).body;
    const published = (await publish(staged)).body;
    expect((await publish(published)).status).toBe(200); // nothing pending: no entry
    const again = (await edit(published, { title: "Never published" })).body;
    const discarded = (await discard(again)).body;
    const released = await admin.post<AdminBlog>(
      `${blogPath(blog.id)}/release`,
      undefined,
      versionOf(discarded),
    );
    expect(released.status).toBe(200); // released already: no entry
    const draft = (
      await admin.post<AdminBlog>(`${blogPath(blog.id)}/unrelease`, undefined, ANY_VERSION)
    ).body;
    expect((await admin.delete(blogPath(blog.id), versionOf(draft))).status).toBe(204);
    const owner = OWNER.name;
    expect(await entriesOf(blog.id)).toEqual([
      ["blog.removed", owner, "Audited title"],
      ["blog.unreleased", owner, "Audited title"],
      ["blog.discarded", owner, "Audited title"],
      ["blog.published", owner, "Audited title"],
      ["blog.released", owner, blog.title],
    ]);
  });

  it("a refused write (stale, 412) records nothing", async () => {
    const blog = await releasedBlog();
    const theirs = (await edit(blog, { title: "Theirs again" })).body;
    expect(
      (await admin.post(`${blogPath(blog.id)}/unrelease`, undefined, versionOf(blog))).status,
    ).toBe(412);
    expect((await discard(theirs)).status).toBe(200);
    expect((await entriesOf(blog.id)).map(([action]) => action)).toEqual([
      "blog.discarded",
      "blog.released",
    ]);
  });
});

describe("where pending changes are kept (blogs/blog-staging.ts)", () => {
  const stagedOf = (id: string) =>
    collections(t.db).blogStaged.find({ blogId: id }).sort({ _id: 1 }).toArray();
  const storedBlog = async (id: string) => collections(t.db).blogs.findOne({ _id: id });

  it("apart from the blog: its row holds their version alone, and one content document exists per blog", async () => {
    const blog = await releasedBlog();
    const first = (await edit(blog, { bodyMarkdown: "Pending words, take one." })).body;
    const second = (await edit(first, { bodyMarkdown: "Pending words, take two." })).body;
    const stored = await storedBlog(blog.id);
    expect(stored?.staged).toEqual({ revision: second.version, updatedAt: expect.any(Date) });
    expect(stored?.bodyMarkdown).toBe("The released words.");
    const content = await stagedOf(blog.id);
    expect(content.map((c) => [c._id, c.bodyMarkdown])).toEqual([
      [`${blog.id}:${second.version}`, "Pending words, take two."],
    ]);
    expect((await publish(second)).status).toBe(200);
    expect(await stagedOf(blog.id)).toEqual([]);
    const again = (await edit((await admin.get<AdminBlog>(blogPath(blog.id))).body, { title: "X" }))
      .body;
    expect(await stagedOf(blog.id)).toHaveLength(1);
    expect((await discard(again)).status).toBe(200);
    expect(await stagedOf(blog.id)).toEqual([]);
  });

  it("writers racing to stage one blog leave the winner's content alone; a removal deletes any", async () => {
    const blog = await releasedBlog();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        admin.patch<AdminBlog>(blogPath(blog.id), { title: `Racer ${i}` }, ANY_VERSION),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const now = (await admin.get<AdminBlog>(blogPath(blog.id))).body;
    const content = await stagedOf(blog.id);
    expect(content.map((c) => [c._id, c.title])).toEqual([
      [`${blog.id}:${now.version}`, now.title],
    ]);
    // A document no blog names (a crash between its insert and the blog's update) goes with
    // the blog's removal.
    const [named] = content;
    if (named === undefined) throw new Error("no pending changes stored");
    await collections(t.db).blogStaged.insertOne({ ...named, _id: `${blog.id}:orphan` });
    expect((await admin.delete(blogPath(blog.id), versionOf(now))).status).toBe(204);
    expect(await stagedOf(blog.id)).toEqual([]);
  });

  it("pending changes stored inside their blog by an earlier version move apart at start-up, once", async () => {
    const blog = await releasedBlog();
    const c = collections(t.db);
    const updatedAt = new Date();
    // As blog-writes.ts stored them before: the content inside the blog (untyped: no longer
    // the shape of BlogDoc).
    await t.db.collection<{ _id: string }>("blogs").updateOne(
      { _id: blog.id },
      {
        $set: {
          staged: {
            revision: "legacyRev1",
            updatedAt,
            slug: blog.slug,
            title: "Held inside",
            excerpt: "Held inside.",
            bodyMarkdown: "Held inside.",
            bodyHtml: "<p>Held inside.</p>",
            tags: [],
            authorName: "Pressroom",
            coverImageUrl: null,
          },
        },
      },
    );
    await c.markers.deleteOne({ _id: STAGED_APART_MARKER });
    expect(await moveStagedContentApart(c)).toBeGreaterThanOrEqual(1);
    expect((await storedBlog(blog.id))?.staged).toEqual({ revision: "legacyRev1", updatedAt });
    const read = (await admin.get<AdminBlog>(blogPath(blog.id))).body;
    expect(read).toMatchObject({
      title: "Held inside",
      pendingChanges: true,
      version: "legacyRev1",
    });
    expect((await consumerBlog(blog.id)).body.title).toBe(blog.title);
    expect(await moveStagedContentApart(c)).toBe(0);
    expect((await publish(read)).status).toBe(200);
    expect((await consumerBlog(blog.id)).body.title).toBe("Held inside");
  });
});
