import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import type { Blog, BlogList } from "../../server/src/platform/http/consumer-types.js";
import { get, stores } from "../support/fixtures.js";
import { propertyRuns } from "../support/property-runs.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
});

const blogState = fc.constantFrom("draft", "released", "removed", "unreleased");
const world = fc.array(
  fc.record({
    blogs: fc.array(blogState, { maxLength: 4 }),
    keys: fc.array(fc.constantFrom("active", "revoked"), { minLength: 1, maxLength: 2 }),
  }),
  { minLength: 1, maxLength: 3 },
);
type World = {
  workspaceId: string;
  blogs: { id: string; slug: string; visible: boolean }[];
  keys: { key: string; active: boolean }[];
}[];
const RUNS = propertyRuns();

describe("isolation as a property: drafts, removed blogs and other workspaces' blogs are never returned (openapi.yaml, description; getBlog's and getBlogBySlug's 404)", () => {
  it(`for any workspaces, blogs in any state and keys active or revoked, a key sees exactly the released blogs of its own workspace (${RUNS} runs)`, async () => {
    const s = stores(t.db);
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(world, async (spec) => {
        // Build the world through the same stores the product uses.
        const built: World = [];
        for (const [i, w] of spec.entries()) {
          const { _id: workspaceId } = await s.workspaces.create(`ws ${i}`);
          const blogs: { id: string; slug: string; visible: boolean }[] = [];
          for (const state of w.blogs) {
            const blog = await s.blogs.create(workspaceId, {
              title: "p",
              bodyMarkdown: "b",
              release: state !== "draft",
            });
            if (state === "removed") await s.blogs.setStatus(workspaceId, blog._id, "removed");
            if (state === "unreleased") await s.blogs.setStatus(workspaceId, blog._id, "draft");
            blogs.push({ id: blog._id, slug: blog.slug, visible: state === "released" });
          }
          const keys: { key: string; active: boolean }[] = [];
          for (const k of w.keys) {
            const minted = await s.keys.mint(workspaceId, "k");
            if (k === "revoked") await s.keys.revoke(workspaceId, minted.id);
            keys.push({ key: minted.key, active: k === "active" });
          }
          built.push({ workspaceId, blogs, keys });
        }
        const everyBlog = built.flatMap((w, wi) => w.blogs.map((b) => ({ ...b, wi })));
        try {
          await check(built, everyBlog);
        } finally {
          // Keep collections small: the embedded database scans them for non-_id filters.
          const workspaceIds = built.map((w) => w.workspaceId);
          const c = collections(t.db);
          await c.blogs.deleteMany({ workspaceId: { $in: workspaceIds } });
          await c.apiKeys.deleteMany({ workspaceId: { $in: workspaceIds } });
          await c.workspaces.deleteMany({ _id: { $in: workspaceIds } });
        }
      }),
      { numRuns: RUNS },
    );
    console.log(`isolation property: ${RUNS} runs, ${requests} requests checked`);
    expect(requests).toBeGreaterThan(RUNS);

    async function check(
      built: World,
      everyBlog: { id: string; slug: string; visible: boolean; wi: number }[],
    ) {
      for (const [wi, w] of built.entries()) {
        for (const { key, active } of w.keys) {
          const listed = await get(`${server.url}/api/consumer/blogs?limit=100`, {
            "x-api-key": key,
          });
          requests++;
          if (!active) {
            expect(listed.status).toBe(401);
          } else {
            expect(listed.status).toBe(200);
            const ids = (listed.body as BlogList).data.map((b) => b.id).sort();
            expect(ids).toEqual(
              w.blogs
                .filter((b) => b.visible)
                .map((b) => b.id)
                .sort(),
            );
          }
          for (const blog of everyBlog) {
            const res = await get(`${server.url}/api/consumer/blogs/${blog.id}`, {
              "x-api-key": key,
            });
            requests++;
            expect(res.status).toBe(!active ? 401 : blog.wi === wi && blog.visible ? 200 : 404);
            // Every blog is titled "p": the same slugs (p, p-2…) recur in every workspace, so a
            // slug names a blog of the key's own workspace or nothing (getBlogBySlug).
            const bySlug = await get(`${server.url}/api/consumer/blogs/by-slug/${blog.slug}`, {
              "x-api-key": key,
            });
            requests++;
            const own = w.blogs.find((b) => b.slug === blog.slug && b.visible);
            expect(bySlug.status).toBe(!active ? 401 : own === undefined ? 404 : 200);
            if (own !== undefined && active) expect((bySlug.body as Blog).id).toBe(own.id);
          }
        }
      }
    }
  }, 300_000);
});
