// Schedules (admin.yaml, "Schedules", scheduleBlog): a draft's release, a released blog's
// pending changes' publish, and an unrelease, each at a time; done once, within seconds, by
// whichever instance sees it first, as an ordinary release, publish or unrelease (consumers, the
// changes feed, webhook events, audit, history) in the name of the member who scheduled it; a
// server that was down at the time does it when it starts, in order; bad times are a 400
// naming the field; manual actions cancel what they make moot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, ANY_VERSION, OWNER, versionOf } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { waitFor } from "../support/webhook-receiver.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type AuditEntry = components["schemas"]["AuditEntry"];
type Summary = components["schemas"]["BlogRevisionSummary"];

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
afterAll(async () => {
  await server?.stop();
});

const blogPath = (id: string) => `/workspaces/${ws}/blogs/${id}`;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function draft(): Promise<AdminBlog> {
  made++;
  const res = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
    title: `Scheduled ${made}`,
    slug: `scheduled-${made}`,
    bodyMarkdown: "Words.",
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function released(): Promise<AdminBlog> {
  const blog = await draft();
  const res = await admin.post<AdminBlog>(
    `${blogPath(blog.id)}/release`,
    undefined,
    versionOf(blog),
  );
  expect(res.status).toBe(200);
  return res.body;
}

const schedule = (blog: AdminBlog, body: Record<string, unknown>, headers = versionOf(blog)) =>
  admin.call<AdminBlog>("PUT", `${blogPath(blog.id)}/schedule`, body, headers);

const stored = async (id: string) => (await admin.get<AdminBlog>(blogPath(id))).body;
const consumerStatus = async (id: string) => {
  const res = await fetch(`${server.url}/api/consumer/blogs/${id}`, {
    headers: { "x-api-key": key },
  });
  await res.body?.cancel();
  return res.status;
};
const consumerTitle = async (id: string) => {
  const res = await fetch(`${server.url}/api/consumer/blogs/${id}`, {
    headers: { "x-api-key": key },
  });
  return ((await res.json()) as { title: string }).title;
};
const auditOf = async (blogId: string) =>
  (await admin.get<{ data: AuditEntry[] }>(`/workspaces/${ws}/audit?limit=100`)).body.data
    .filter((e) => e.details.blogId === blogId)
    .map((e) => e.action);

/**
 * A scheduled action's audit entry and revision follow its blog write (blog-writes.ts
 * `writeVersion`), so a consumer can see the change a moment before they are there: waits for
 * the entries to be `expected`, then checks they are exactly that.
 */
const recordsOf = async (blogId: string, expected: readonly string[]) => {
  let seen: string[] = [];
  await waitFor(
    `audit entries ${expected.join(", ")}`,
    async () => {
      seen = await auditOf(blogId);
      return seen.length >= expected.length;
    },
    8000,
  ).catch(() => undefined);
  expect(seen).toEqual(expected);
};

describe("a scheduled time comes", () => {
  it("a draft is released then, as an ordinary release: consumers, audit, history, the blog's webhook event", async () => {
    const blog = await draft();
    const at = inMs(1500);
    const set = await schedule(blog, { publishAt: at });
    expect(set.status).toBe(200);
    expect(set.body.schedule).toEqual({ publishAt: at, unreleaseAt: null });
    expect(set.body.version).not.toBe(blog.version);
    expect(set.headers.get("etag")).toBe(`"${set.body.version}"`);
    expect(await consumerStatus(blog.id)).toBe(404);
    await waitFor(
      "the scheduled release",
      async () => (await consumerStatus(blog.id)) === 200,
      8000,
    );
    const after = await stored(blog.id);
    expect(after).toMatchObject({
      status: "released",
      schedule: { publishAt: null, unreleaseAt: null },
    });
    // Late by at most a poll, here far less: the instance that took the schedule wakes for it.
    expect(Date.parse(after.releasedAt ?? "") - Date.parse(at)).toBeLessThan(5000);
    expect(Date.parse(after.releasedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(at));
    // The blog is written first, its audit entry and revision just after: waited for, not raced.
    await recordsOf(blog.id, ["blog.released", "blog.scheduled"]);
    const latest = async () =>
      (await admin.get<{ data: Summary[] }>(`${blogPath(blog.id)}/revisions`)).body.data[0];
    // Its revision is written beside the audit entry, not before it.
    await waitFor("the release's revision", async () => (await latest())?.action === "released");
    expect(await latest()).toMatchObject({ action: "released", actor: { name: OWNER.name } });
    const doc = await collections(t.db).blogs.findOne({ _id: blog.id });
    expect(doc?.eventSeq).toBe(1);
    expect(doc?.dueAt).toBeUndefined();
  });

  it("a released blog's pending changes are published then; an unrelease later takes it offline", async () => {
    const blog = await released();
    const staged = (
      await admin.patch<AdminBlog>(
        blogPath(blog.id),
        { title: "Published at a time" },
        versionOf(blog),
      )
    ).body;
    const set = await schedule(staged, { publishAt: inMs(1200), unreleaseAt: inMs(2600) });
    expect(set.status).toBe(200);
    expect(await consumerTitle(blog.id)).toBe(blog.title);
    await waitFor(
      "the scheduled publish",
      async () => (await consumerTitle(blog.id)) === "Published at a time",
      8000,
    );
    expect((await stored(blog.id)).pendingChanges).toBe(false);
    await waitFor(
      "the scheduled unrelease",
      async () => (await consumerStatus(blog.id)) === 404,
      8000,
    );
    expect(await stored(blog.id)).toMatchObject({
      status: "draft",
      schedule: { publishAt: null, unreleaseAt: null },
    });
    await recordsOf(blog.id, [
      "blog.unreleased",
      "blog.published",
      "blog.scheduled",
      "blog.released",
    ]);
  });

  it("cancelled or moved, nothing happens at the old time", async () => {
    const one = await draft();
    const two = await draft();
    const setOne = await schedule(one, { publishAt: inMs(1000) });
    const cancelled = await schedule(setOne.body, { publishAt: null });
    expect(cancelled.body.schedule).toEqual({ publishAt: null, unreleaseAt: null });
    const setTwo = await schedule(two, { publishAt: inMs(1000) });
    const later = inMs(60_000);
    const moved = await schedule(setTwo.body, { publishAt: later });
    expect(moved.body.schedule.publishAt).toBe(later);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await consumerStatus(one.id)).toBe(404);
    expect(await consumerStatus(two.id)).toBe(404);
    expect(await auditOf(one.id)).toEqual(["blog.schedule_cancelled", "blog.scheduled"]);
    const [entry] = (await admin.get<{ data: AuditEntry[] }>(`/workspaces/${ws}/audit?limit=1`))
      .body.data;
    expect(entry).toMatchObject({
      action: "blog.scheduled",
      details: { publishAt: later, unreleaseAt: null },
    });
  });
});

describe("what may be scheduled", () => {
  it("a bad time is a 400 naming the field, and nothing changes", async () => {
    const blog = await draft();
    const live = await released();
    const cases: [AdminBlog, Record<string, unknown>, RegExp][] = [
      [blog, { publishAt: inMs(-1000) }, /^publishAt must be in the future/],
      [
        blog,
        { unreleaseAt: inMs(367 * 86_400_000), publishAt: inMs(1000) },
        /^unreleaseAt must be at most 366 days ahead/,
      ],
      [
        blog,
        { publishAt: inMs(60_000), unreleaseAt: inMs(30_000) },
        /^unreleaseAt must be after publishAt/,
      ],
      [blog, { unreleaseAt: inMs(60_000) }, /^unreleaseAt: a draft/],
      [
        live,
        { publishAt: inMs(60_000) },
        /^publishAt: this blog is released and has no pending changes/,
      ],
      [blog, { publishAt: "tomorrow" }, /publishAt/],
      [blog, {}, /./],
    ];
    for (const [target, body, message] of cases) {
      const res = await schedule(target, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as unknown as { message: string }).message).toMatch(message);
    }
    expect((await stored(blog.id)).version).toBe(blog.version);
  });

  it("a stale version is 412, none is 428, and the same times again change nothing", async () => {
    const blog = await draft();
    const at = inMs(60_000);
    const set = await schedule(blog, { publishAt: at });
    expect((await schedule(blog, { publishAt: inMs(30_000) })).status).toBe(412);
    expect((await schedule(set.body, { publishAt: at }, {})).status).toBe(428);
    const again = await schedule(set.body, { publishAt: at });
    expect(again.body.version).toBe(set.body.version);
    expect(await auditOf(blog.id)).toEqual(["blog.scheduled"]);
  });

  it("a release or discard by hand cancels the scheduled publish; an unrelease the schedule; an edit keeps it", async () => {
    const blog = await draft();
    const set = await schedule(blog, { publishAt: inMs(60_000), unreleaseAt: inMs(120_000) });
    const edited = (
      await admin.patch<AdminBlog>(
        blogPath(blog.id),
        { title: "Still scheduled" },
        versionOf(set.body),
      )
    ).body;
    expect(edited.schedule.publishAt).not.toBeNull();
    const byHand = (
      await admin.post<AdminBlog>(`${blogPath(blog.id)}/release`, undefined, versionOf(edited))
    ).body;
    expect(byHand.schedule).toMatchObject({ publishAt: null, unreleaseAt: expect.any(String) });
    const pending = (
      await admin.patch<AdminBlog>(blogPath(blog.id), { title: "Pending" }, versionOf(byHand))
    ).body;
    const toPublish = (await schedule(pending, { publishAt: inMs(60_000) })).body;
    const discarded = (
      await admin.post<AdminBlog>(`${blogPath(blog.id)}/discard`, undefined, versionOf(toPublish))
    ).body;
    expect(discarded.schedule).toMatchObject({ publishAt: null, unreleaseAt: expect.any(String) });
    const back = (
      await admin.post<AdminBlog>(`${blogPath(blog.id)}/unrelease`, undefined, versionOf(discarded))
    ).body;
    expect(back.schedule).toEqual({ publishAt: null, unreleaseAt: null });
    expect((await collections(t.db).blogs.findOne({ _id: blog.id }))?.dueAt).toBeUndefined();
  });
});

describe("instances and restarts", () => {
  it("due while no server ran: done at the next start, earliest first", async () => {
    const first = await draft();
    const second = await draft();
    await schedule(second, { publishAt: inMs(1400) });
    await schedule(first, { publishAt: inMs(1000) });
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 1800));
    server = await startTestServer(t.db);
    admin = new AdminClient(server.url);
    await admin.post("/session", { email: OWNER.email, password: OWNER.password });
    await waitFor(
      "both released",
      async () =>
        (await consumerStatus(second.id)) === 200 && (await consumerStatus(first.id)) === 200,
      8000,
    );
    const [a, b] = await Promise.all([stored(first.id), stored(second.id)]);
    expect(Date.parse(a.releasedAt ?? "")).toBeLessThanOrEqual(Date.parse(b.releasedAt ?? ""));
  });

  it("two instances on one database do each schedule once", async () => {
    const other = await startTestServer(t.db);
    try {
      const otherAdmin = new AdminClient(other.url);
      await otherAdmin.post("/session", { email: OWNER.email, password: OWNER.password });
      const blogs = await Promise.all(Array.from({ length: 8 }, () => draft()));
      const at = inMs(1500);
      await Promise.all(
        blogs.map((blog, i) =>
          (i % 2 === 0 ? admin : otherAdmin).call(
            "PUT",
            `${blogPath(blog.id)}/schedule`,
            { publishAt: at },
            ANY_VERSION,
          ),
        ),
      );
      // Generous: this case is about each schedule being done once, not how soon. Under a full
      // CI run on 2 cores the releases took over 10 s (a fire that lost its race is retried at
      // the next look, SCHEDULE_POLL_MS later); alone, with the cores kept busy, 5–7 s.
      await waitFor(
        "all released",
        async () =>
          (await Promise.all(blogs.map((b) => consumerStatus(b.id)))).every((s) => s === 200),
        25_000,
      );
      // Both instances look again after their next poll: still once each.
      await new Promise((resolve) => setTimeout(resolve, 5500));
      for (const blog of blogs) {
        expect((await auditOf(blog.id)).filter((a) => a === "blog.released")).toHaveLength(1);
        expect((await collections(t.db).blogs.findOne({ _id: blog.id }))?.eventSeq).toBe(1);
      }
    } finally {
      await other.stop();
    }
  }, 60_000);
});
