import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_AUTHORS } from "../../server/src/blogs/blog-authors.js";
import { toBlog } from "../../server/src/blogs/blog-view.js";
import { MAX_RECORDED_PER_CALL } from "../../server/src/changes/change-recorder.js";
import { collections } from "../../server/src/platform/db/collections.js";
import type { Blog } from "../../server/src/platform/http/consumer-types.js";
import { createStores } from "../../server/src/stores.js";
import { Mirror, releasedBlogs } from "../support/changes-mirror.js";
import { editLive, stores } from "../support/fixtures.js";
import { importReleased } from "../support/import-released.js";
import { propertyRuns } from "../support/property-runs.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { startWorkersServer } from "../support/workers-server.js";

let t: TestDb;
let server: TestServer;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
});

const RUNS = propertyRuns();

/** What can happen to a workspace between (and during) a consumer's syncs. */
const step = fc.oneof(
  fc.record({ op: fc.constant("create" as const), release: fc.boolean() }),
  fc.record({
    op: fc.constantFrom("edit", "release", "unrelease", "remove"),
    blog: fc.nat({ max: 7 }),
  }),
  fc.record({ op: fc.constant("sync" as const) }),
);
const rounds = fc.array(fc.array(step, { maxLength: 12 }), { minLength: 1, maxLength: 3 });

async function cleanUp(workspaceId: string): Promise<void> {
  const c = collections(t.db);
  await c.blogs.deleteMany({ workspaceId });
  await c.apiKeys.deleteMany({ workspaceId });
  await c.changes.deleteMany({ workspaceId });
  await c.workspaces.deleteMany({ _id: workspaceId });
}

/**
 * Where the mirror syncs: this file's server, or two workers on its database, each call on a
 * connection of its own so that calls alternate between the workers' processes, which then
 * record the feed in turn (README, "Workers").
 */
const TARGETS = [
  { name: "one server process", start: async () => ({ url: server.url, headers: {} }) },
  {
    name: 'two workers on one database (README, "Workers")',
    start: async () => ({
      url: (await startWorkersServer("2", { MONGODB_URI: t.uri, MONGODB_DB: t.name })).url,
      headers: { connection: "close" },
    }),
  },
];

describe.each(TARGETS)(
  'changes feed as a property: a mirror that applies every page ends equal to the released set (openapi.yaml, "Syncing a mirror"), $name',
  ({ start }) => {
    let url: string;
    let headers: Record<string, string>;
    beforeAll(async () => {
      ({ url, headers } = await start());
    });

    it(`random release / edit / unrelease / remove / re-release interleaved with sync pages: after each round the drained mirror equals the truth (${RUNS} runs)`, async () => {
      const s = stores(t.db);
      let compared = 0;
      let pages = 0;
      await fc.assert(
        fc.asyncProperty(rounds, fc.integer({ min: 1, max: 3 }), async (plan, pageSize) => {
          const { _id: workspaceId } = await s.workspaces.create("property");
          const { key } = await s.keys.mint(workspaceId, "mirror");
          const blogs: string[] = [];
          const mirror = new Mirror(url, key, pageSize, headers);
          try {
            for (const round of plan) {
              for (const action of round) {
                if (action.op === "sync") {
                  await mirror.step();
                  continue;
                }
                if (action.op === "create") {
                  const created = await s.blogs.create(workspaceId, {
                    title: `Blog ${blogs.length}`,
                    bodyMarkdown: "Body.",
                    release: action.release,
                  });
                  blogs.push(created._id);
                  continue;
                }
                const id = blogs[action.blog % Math.max(blogs.length, 1)];
                if (id === undefined) continue;
                // A removed blog is "not found" to every later write: the product's own rule.
                const write =
                  action.op === "edit"
                    ? editLive(s.blogs, workspaceId, id, { title: `Edited ${Math.random()}` })
                    : s.blogs.setStatus(
                        workspaceId,
                        id,
                        action.op === "release"
                          ? "released"
                          : action.op === "unrelease"
                            ? "draft"
                            : "removed",
                      );
                await write.catch((err: unknown) => {
                  if ((err as { code?: string }).code !== "not_found") throw err;
                });
              }
              await mirror.drain();
              expect(mirror.sorted()).toEqual(await releasedBlogs(url, key, headers));
              compared++;
            }
          } finally {
            pages += mirror.pages;
            await cleanUp(workspaceId);
          }
        }),
        { numRuns: RUNS },
      );
      console.log(`changes property: ${RUNS} runs, ${compared} rounds compared, ${pages} pages`);
      expect(compared).toBeGreaterThanOrEqual(RUNS);
    }, 600_000);
  },
);

describe("changes feed with several server instances and no transactions (change-log.ts, change-recorder.ts)", () => {
  it("a write that lands between an entry and the clearing of its mark keeps the mark: the blog comes again, as written", async () => {
    const s = stores(t.db);
    const { _id: workspaceId } = await s.workspaces.create("race");
    // Instance B writes; instance A records, and is held between its entry and the clearing.
    const b = createStores(t.db);
    const blog = await b.blogs.create(workspaceId, {
      title: "v1",
      bodyMarkdown: "x",
      release: true,
    });
    let held = false;
    const a = createStores(t.db, {
      afterFeedAppend: async (blogId) => {
        if (blogId !== blog._id || held) return;
        held = true;
        await editLive(b.blogs, workspaceId, blog._id, { title: "v2" });
      },
    });
    const mirror = new Map<string, Blog>();
    const apply = (page: Awaited<ReturnType<typeof a.changes.page>>) => {
      for (const c of page.changes) {
        if (c.type === "upsert") mirror.set(c.blog._id, toBlog(c.blog, NO_AUTHORS));
        else mirror.delete(c.id);
      }
      return page;
    };
    let page = apply(await a.changes.page(workspaceId, undefined, 100));
    // The first call's walk has read the blog; the write made during the recording left its mark.
    expect(held).toBe(true);
    expect((await collections(t.db).blogs.findOne({ _id: blog._id }))?.feedPending).toBe(true);
    while (page.hasMore) page = apply(await a.changes.page(workspaceId, page.nextToken, 100));
    page = apply(await a.changes.page(workspaceId, page.nextToken, 100));
    expect(mirror.get(blog._id)?.title).toBe("v2");
    // Now a write held the same way unreleases it: the next call brings the delete.
    held = false;
    await editLive(b.blogs, workspaceId, blog._id, { title: "v3" });
    const unrelease = createStores(t.db, {
      afterFeedAppend: async () => {
        if (held) return;
        held = true;
        await b.blogs.setStatus(workspaceId, blog._id, "draft");
      },
    });
    page = apply(await unrelease.changes.page(workspaceId, page.nextToken, 100));
    page = apply(await a.changes.page(workspaceId, page.nextToken, 100));
    expect(page.hasMore).toBe(false);
    expect(mirror.has(blog._id)).toBe(false);
    await cleanUp(workspaceId);
  });

  it("an import of more blogs than one call records, between sync pages: the feed says hasMore until every one is recorded, and the mirror ends equal to the truth", async () => {
    const s = stores(t.db);
    const { _id: workspaceId } = await s.workspaces.create("bulk import");
    const { key } = await s.keys.mint(workspaceId, "mirror");
    for (let i = 0; i < 3; i++) {
      await s.blogs.create(workspaceId, { title: `before ${i}`, bodyMarkdown: "x", release: true });
    }
    const first = new Mirror(server.url, key, 2);
    expect((await first.step()).hasMore).toBe(true); // mid-walk
    // The same mirror goes on with pages of 100 (the rate limit would stop pages of 2).
    const mirror = new Mirror(server.url, key, 100);
    mirror.token = first.token;
    for (const [id, blog] of first.blogs) mirror.blogs.set(id, blog);

    const imported = MAX_RECORDED_PER_CALL + 500;
    const at = new Date(Date.UTC(2026, 0, 1));
    expect(
      await importReleased(
        t.db,
        workspaceId,
        Array.from({ length: imported }, (_, i) => ({
          name: `bulk${i}`,
          releasedAt: at,
          tags: ["bulk"],
        })),
      ),
    ).toBe(imported);
    const c = collections(t.db);
    const pending = () => c.blogs.countDocuments({ workspaceId, feedPending: true });
    expect(await pending()).toBe(imported);

    // The next call records one call's share and says there is more; the rest is recorded
    // ahead meanwhile (changes-record-ahead.test.ts proves the call's share is all it waits for).
    expect((await mirror.step()).hasMore).toBe(true);
    expect(await pending()).toBeLessThanOrEqual(imported - MAX_RECORDED_PER_CALL);
    await mirror.drain(5_000);
    expect(await pending()).toBe(0);
    expect(mirror.sorted()).toEqual(await releasedBlogs(server.url, key));
    expect(mirror.blogs.size).toBe(imported + 3);
    await cleanUp(workspaceId);
  }, 600_000);

  it("three instances recording one workspace at once take every entry number once, and record every blog", async () => {
    const s = stores(t.db);
    const { _id: workspaceId } = await s.workspaces.create("numbering");
    const { key } = await s.keys.mint(workspaceId, "mirror");
    const mirror = new Mirror(server.url, key);
    await mirror.drain();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push(
        (await s.blogs.create(workspaceId, { title: `n${i}`, bodyMarkdown: "x", release: true }))
          ._id,
      );
    }
    const instances = [createStores(t.db), createStores(t.db), createStores(t.db)];
    const answers = await Promise.all(
      instances.map((instance) => instance.changes.page(workspaceId, mirror.token, 100)),
    );
    const entries = await collections(t.db)
      .changes.find({ workspaceId })
      .sort({ _id: 1 })
      .toArray();
    const numbers = entries.map((e) => Number(e._id.split("/")[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(new Set(entries.map((e) => e.blogId))).toEqual(new Set(ids));
    expect(await collections(t.db).blogs.countDocuments({ workspaceId, feedPending: true })).toBe(
      0,
    );
    for (const answer of answers) expect(answer.changes.length).toBeGreaterThan(0);
    await mirror.drain();
    expect(mirror.sorted()).toEqual(await releasedBlogs(server.url, key));
    await cleanUp(workspaceId);
  });
});
