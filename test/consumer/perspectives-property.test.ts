// Live keys never see anything but released versions; preview keys see every blog as it would
// be published (openapi.yaml, "Preview"; admin.yaml, "Staged changes", "Schedules", "History").
// A property test: random interleavings of edits (of drafts, and staged on released blogs),
// publish, discard, schedules run by a test clock, restore, release, unrelease, remove, and two
// writers racing on one version, against a model of what each blog's released and working
// versions must be. After every step, every live answer — a list walk, get by ID and by slug,
// the tag counts, a changes-feed mirror — is checked against the released versions only, and
// every preview answer (the same, its own changes feed included) against the working versions; a
// stale write is always refused, never applied.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StaleVersion, versionOf } from "../../server/src/blogs/blog-rules.js";
import { collections } from "../../server/src/platform/db/collections.js";
import type { Blog } from "../../server/src/platform/http/consumer-types.js";
import { createStores, type Stores } from "../../server/src/stores.js";
import { Mirror } from "../support/changes-mirror.js";
import { get } from "../support/fixtures.js";
import { propertyRuns } from "../support/property-runs.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const RUNS = propertyRuns();
const DAY = 86_400_000;

let t: TestDb;
let server: TestServer;
/** The writers' clock: schedules fall due when a step moves it on (real time never reaches it). */
let clock = Date.now() + DAY;
let s: Stores;

beforeAll(async () => {
  t = await useTestDb();
  // No rate limit: every step reads every answer.
  server = await startTestServer(t.db, { CONSUMER_RATE_LIMIT: "off" });
  s = createStores(t.db, { now: () => clock });
});
afterAll(async () => {
  await server?.stop();
});

/** What a blog says, as far as this test tells versions apart. */
interface Content {
  title: string;
  tags: string[];
}
interface ModelBlog {
  id: string;
  slug: string;
  status: "draft" | "released" | "removed";
  /** The stored version: what consumers see once released (a draft's text). */
  live: Content;
  /** A released blog's pending changes. */
  pending: Content | null;
  publishAt: number | null;
  unreleaseAt: number | null;
}

const same = (a: Content, b: Content) => a.title === b.title && a.tags.join() === b.tags.join();
const working = (b: ModelBlog): Content => b.pending ?? b.live;

const TITLES = ["Alpha", "Beta", "Gamma"];
const TAGS = [[], ["news"], ["news", "ops"], ["ops"]];
const content = fc.record({
  title: fc.constantFrom(...TITLES),
  tags: fc.constantFrom(...TAGS),
});
const which = fc.nat({ max: 5 });
const step = fc.oneof(
  fc.record({ op: fc.constant("create" as const), content }),
  fc.record({ op: fc.constant("edit" as const), blog: which, content }),
  fc.record({
    op: fc.constantFrom("release", "unrelease", "remove", "publish", "discard"),
    blog: which,
  }),
  fc.record({
    op: fc.constant("schedule" as const),
    blog: which,
    publishIn: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    unreleaseIn: fc.option(fc.integer({ min: 4, max: 6 }), { nil: null }),
  }),
  fc.record({ op: fc.constant("tick" as const), days: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant("restore" as const), blog: which, revision: fc.nat({ max: 9 }) }),
  fc.record({ op: fc.constant("race" as const), blog: which, a: content, b: content }),
);
const plans = fc.array(step, { minLength: 1, maxLength: 8 });
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** The model's effect of an edit to `next` (blog-writes.ts `update`). */
function edited(b: ModelBlog, next: Content): void {
  if (b.status === "draft") b.live = next;
  else b.pending = same(next, b.live) ? null : next;
}

/** A state change by hand (state-edits.ts `moveEdit`). */
function moved(b: ModelBlog, to: "draft" | "released" | "removed"): void {
  if (b.status === to) return;
  if (to === "released") {
    b.status = "released";
    b.publishAt = null;
    return;
  }
  if (to === "draft") {
    b.live = working(b);
    b.pending = null;
  }
  b.status = to;
  b.publishAt = null;
  b.unreleaseAt = null;
}

/** Whatever is due at `now`, earliest first, as the scheduler does (state-edits.ts). */
function fired(b: ModelBlog, now: number): void {
  for (;;) {
    const due = [
      b.publishAt !== null && b.publishAt <= now ? (["publish", b.publishAt] as const) : null,
      b.unreleaseAt !== null && b.unreleaseAt <= now
        ? (["unrelease", b.unreleaseAt] as const)
        : null,
    ]
      .filter((d) => d !== null)
      .sort((x, y) => x[1] - y[1])[0];
    if (due === undefined || b.status === "removed") return;
    if (due[0] === "publish") {
      b.publishAt = null;
      if (b.status === "draft") moved(b, "released");
      else if (b.pending !== null) {
        b.live = b.pending;
        b.pending = null;
      }
    } else {
      b.unreleaseAt = null;
      if (b.status === "released") moved(b, "draft");
    }
  }
}

const pick = (blogs: ModelBlog[], i: number) => blogs[i % Math.max(blogs.length, 1)];

/** Runs `write`; true when it applied, false when the store refused it with a 4xx-kind error. */
async function tried(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "not_found" || code === "conflict" || code === "invalid") return false;
    throw err;
  }
}

async function apply(
  workspaceId: string,
  blogs: ModelBlog[],
  action: Step,
  stats: { races: number },
): Promise<void> {
  if (action.op === "create") {
    const doc = await s.blogs.create(workspaceId, {
      title: action.content.title,
      tags: action.content.tags,
      bodyMarkdown: "Body.",
      slug: `b${blogs.length}`,
    });
    blogs.push({
      id: doc._id,
      slug: doc.slug,
      status: "draft",
      live: { ...action.content },
      pending: null,
      publishAt: null,
      unreleaseAt: null,
    });
    return;
  }
  if (action.op === "tick") {
    clock += action.days * DAY;
    for (const b of blogs) {
      if (b.status === "removed") continue;
      // What the scheduler does for each blog due (blog-scheduler.ts), until nothing is due.
      for (let i = 0; i < 2; i++) await s.blogs.fireSchedule(workspaceId, b.id, new Date(clock));
      fired(b, clock);
    }
    return;
  }
  const b = pick(blogs, action.blog);
  if (b === undefined) return;
  const gone = b.status === "removed";
  switch (action.op) {
    case "edit": {
      const ok = await tried(() =>
        s.blogs.update(workspaceId, b.id, {
          title: action.content.title,
          tags: action.content.tags,
        }),
      );
      expect(ok).toBe(!gone);
      if (ok) edited(b, { ...action.content });
      return;
    }
    case "release":
    case "unrelease":
    case "remove": {
      const to =
        action.op === "release" ? "released" : action.op === "unrelease" ? "draft" : "removed";
      const ok = await tried(() => s.blogs.setStatus(workspaceId, b.id, to));
      expect(ok).toBe(!gone);
      if (ok) moved(b, to);
      return;
    }
    case "publish": {
      const ok = await tried(() => s.blogs.publish(workspaceId, b.id));
      expect(ok).toBe(!gone);
      if (ok && b.status === "released" && b.pending !== null) {
        b.live = b.pending;
        b.pending = null;
        b.publishAt = null;
      }
      return;
    }
    case "discard": {
      const ok = await tried(() => s.blogs.discard(workspaceId, b.id));
      expect(ok).toBe(!gone);
      if (ok && b.pending !== null) {
        b.pending = null;
        b.publishAt = null;
      }
      return;
    }
    case "schedule": {
      const publishAt = action.publishIn === null ? null : clock + action.publishIn * DAY;
      const unreleaseAt = action.unreleaseIn === null ? null : clock + action.unreleaseIn * DAY;
      const ok = await tried(() =>
        s.blogs.schedule(workspaceId, b.id, {
          publishAt: publishAt === null ? null : new Date(publishAt),
          unreleaseAt: unreleaseAt === null ? null : new Date(unreleaseAt),
        }),
      );
      if (gone) expect(ok).toBe(false);
      if (ok) {
        b.publishAt = publishAt;
        b.unreleaseAt = unreleaseAt;
      }
      return;
    }
    case "restore": {
      if (gone) return;
      const history = await s.blogs.revisions(workspaceId, b.id, 100);
      const summary = history.revisions[action.revision % history.revisions.length];
      if (summary === undefined) return;
      const revision = await s.blogs.revision(workspaceId, b.id, summary._id);
      await s.blogs.restore(workspaceId, b.id, summary._id);
      edited(b, { title: revision.content.title, tags: [...revision.content.tags] });
      return;
    }
    case "race": {
      if (gone) return;
      // Two writers read the same version and save at once: exactly one applies.
      const version = versionOf(await s.blogs.get(workspaceId, b.id));
      const outcomes = await Promise.allSettled(
        [action.a, action.b].map((c) =>
          s.blogs.update(workspaceId, b.id, { title: c.title, tags: c.tags }, [version]),
        ),
      );
      const won = outcomes.flatMap((o, i) => (o.status === "fulfilled" ? [i] : []));
      const lost = outcomes.filter((o) => o.status === "rejected");
      for (const o of lost)
        expect((o as PromiseRejectedResult).reason).toBeInstanceOf(StaleVersion);
      const winner = won[0];
      // An edit to what the blog says changes nothing and keeps the version, so the other
      // writer's applies too: both "won", one of them with no effect.
      if (won.length === 2) {
        const before = working(b);
        expect(same(action.a, before) || same(action.b, before)).toBe(true);
        edited(b, { ...(same(action.a, before) ? action.b : action.a) });
        return;
      }
      expect(won).toHaveLength(1);
      stats.races++;
      edited(b, { ...(winner === 0 ? action.a : action.b) });
      return;
    }
  }
}

interface Perspective {
  readonly base: "consumer" | "preview";
  readonly key: string;
}

async function walk(p: Perspective, tag: string | null): Promise<Blog[]> {
  const out: Blog[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: "2" });
    if (tag !== null) query.set("tag", tag);
    if (cursor !== null) query.set("cursor", cursor);
    const res = await get(`${server.url}/api/${p.base}/blogs?${query}`, { "x-api-key": p.key });
    expect(res.status).toBe(200);
    const page = res.body as { data: Blog[]; nextCursor: string | null };
    out.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return out;
}

const view = (blog: { id: string; title: string; tags: string[] }) =>
  `${blog.id}:${blog.title}:${blog.tags.join("+")}`;

/** Every answer of one perspective against what the model says it must be. */
async function check(p: Perspective, blogs: ModelBlog[], mirror: Mirror | null): Promise<void> {
  const live = p.base === "consumer";
  const visible = blogs
    .filter((b) => (live ? b.status === "released" : b.status !== "removed"))
    .map((b) => ({ id: b.id, ...(live ? b.live : working(b)) }));
  const expected = visible.map(view).sort();

  const listed = await walk(p, null);
  expect(listed.map(view).sort(), `${p.base} list`).toEqual(expected);
  for (const tag of ["news", "ops"]) {
    const tagged = await walk(p, tag);
    const want = visible
      .filter((b) => b.tags.includes(tag))
      .map(view)
      .sort();
    expect(tagged.map(view).sort(), `${p.base} list tag=${tag}`).toEqual(want);
  }
  for (const b of blogs) {
    const byId = await get(`${server.url}/api/${p.base}/blogs/${b.id}`, { "x-api-key": p.key });
    const shown = live ? b.status === "released" : b.status !== "removed";
    expect(byId.status, `${p.base} get ${b.id} (${b.status})`).toBe(shown ? 200 : 404);
    if (shown) {
      const body = byId.body as Blog;
      expect(view(body)).toBe(view({ id: b.id, ...(live ? b.live : working(b)) }));
      if (!live && b.status === "draft" && b.publishAt !== null) {
        expect(body.releasedAt).toBe(new Date(b.publishAt).toISOString());
      }
    }
    const bySlug = await get(`${server.url}/api/${p.base}/blogs/by-slug/${b.slug}`, {
      "x-api-key": p.key,
    });
    expect(bySlug.status, `${p.base} by-slug ${b.slug}`).toBe(shown ? 200 : 404);
  }
  const tags = await get(`${server.url}/api/${p.base}/tags`, { "x-api-key": p.key });
  const counts = new Map<string, number>();
  for (const b of visible) for (const tag of b.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  expect(
    Object.fromEntries(
      (tags.body as { data: { tag: string; count: number }[] }).data.map((d) => [d.tag, d.count]),
    ),
    `${p.base} tags`,
  ).toEqual(Object.fromEntries(counts));
  if (mirror !== null) {
    await mirror.drain();
    expect(mirror.sorted().map(view).sort(), `${p.base} changes mirror`).toEqual(expected);
  }
}

describe("live and preview perspectives as a property", () => {
  it(`after every step of random edits, stages, publishes, discards, schedules, restores, state changes and races, live answers are the released versions only and preview answers the working ones (${RUNS} runs)`, async () => {
    let steps = 0;
    const stats = { races: 0 };
    await fc.assert(
      fc.asyncProperty(plans, async (plan) => {
        const { _id: workspaceId } = await s.workspaces.create("perspectives");
        const liveKey = (await s.keys.mint(workspaceId, "site")).key;
        const previewKey = (await s.keys.mint(workspaceId, "preview", null, { kind: "preview" }))
          .key;
        const blogs: ModelBlog[] = [];
        const mirror = new Mirror(server.url, liveKey, 2);
        const previewMirror = new Mirror(server.url, previewKey, 2, {}, "preview");
        try {
          for (const action of plan) {
            await apply(workspaceId, blogs, action, stats);
            await check({ base: "consumer", key: liveKey }, blogs, mirror);
            await check({ base: "preview", key: previewKey }, blogs, previewMirror);
            steps++;
          }
        } finally {
          const c = collections(t.db);
          await Promise.all([
            c.blogs.deleteMany({ workspaceId }),
            c.blogStaged.deleteMany({ workspaceId }),
            c.blogRevisions.deleteMany({ workspaceId }),
            c.changes.deleteMany({ workspaceId }),
          ]);
        }
      }),
      { numRuns: RUNS },
    );
    console.log(
      `perspectives property: ${RUNS} runs, ${steps} steps checked, ${stats.races} races`,
    );
    expect(steps).toBeGreaterThanOrEqual(RUNS);
  }, 900_000);
});
