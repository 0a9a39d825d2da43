// An import reaches consumers when it is written, whatever the source's times (README, "Import
// and export"; server/src/transfer/import-apply.ts): imported blogs keep their old timestamps, yet
// a webhook endpoint created since gets one delivery per released blog, and a consumer following
// the changes feed from a token taken before the import sees each of them.
import { beforeAll, describe, expect, it } from "vitest";
import { inlineRenderer } from "../../server/src/blogs/render-pool.js";
import { type Collections, collections } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";
import { applyImport } from "../../server/src/transfer/import-apply.js";
import { importBlogId } from "../../server/src/transfer/import-identity.js";
import { planImport } from "../../server/src/transfer/import-plan.js";
import type { ImportBlog, ImportSet } from "../../server/src/transfer/import-set.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { get } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { type Receiver, startReceiver, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, endpointsOf, newWorkspace } from "../webhooks/support.js";

let t: TestDb;
let c: Collections;
let server: TestServer;
let admin: AdminClient;

beforeAll(async () => {
  t = await useTestDb();
  c = collections(t.db);
  server = await startTestServer(t.db, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" });
  admin = new AdminClient(server.url);
  expect((await admin.post("/setup", OWNER)).status).toBe(201);
}, 60_000);

/** Six entries last changed in 2019: even ones released, odd ones drafts. */
const longAgo = (i: number) => new Date(Date.UTC(2019, 4, 1, 12, 0, i));
const sourceSet = (title = (i: number) => `Old post ${i}`): ImportSet => ({
  format: "pressroom",
  blogs: Array.from(
    { length: 6 },
    (_, i): ImportBlog => ({
      sourceKey: `pressroom:b_old${i}`,
      origin: `blogs[${i}]`,
      title: title(i),
      slug: `old-post-${i}`,
      status: i % 2 === 0 ? "released" : "draft",
      bodyMarkdown: `Written in 2019 (${i}).`,
      excerpt: undefined,
      tags: [],
      authorName: "Ada",
      coverImageUrl: null,
      coverImageAlt: null,
      featured: false,
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImageUrl: null,
      createdAt: longAgo(i),
      updatedAt: longAgo(i),
      releasedAt: i % 2 === 0 ? longAgo(i) : null,
      removedAt: null,
    }),
  ),
  skipped: [],
  notes: [],
});

const typesOf = (r: Receiver) =>
  r.unique().map((d) => (JSON.parse(d.body) as { type: string; data: { slug: string } }).type);

describe("happy: imported blogs with old timestamps reach today's consumers", () => {
  it("an endpoint created before the import gets one blog.released per released blog, then one blog.updated per changed released blog; the feed from an earlier token lists them", async () => {
    const ws = await newWorkspace(admin, "Imported long ago");
    const receiver = await startReceiver();
    await endpointsOf(t.db).create(ws, { url: receiver.url, events: ALL_EVENTS }, null);
    const key = (await createStores(t.db).keys.mint(ws, "Mirror")).key;
    const start = await get(`${server.url}/api/consumer/changes`, { "x-api-key": key });
    const token = (start.body as { nextToken: string }).nextToken;

    const first = sourceSet();
    await applyImport(c, await planImport(c, inlineRenderer, ws, first), {
      source: "old",
      now: new Date(),
    });
    await waitFor("three blog.released deliveries", () => receiver.unique().length >= 3);
    // The blogs keep the source's times.
    const stored = await c.blogs.findOne({ _id: importBlogId(ws, "pressroom:b_old0") });
    expect(stored?.updatedAt).toEqual(longAgo(0));
    const changes = await get(
      `${server.url}/api/consumer/changes?since=${encodeURIComponent(token)}`,
      { "x-api-key": key },
    );
    const upserts = (
      changes.body as { changes: { type: string; blog?: { slug: string } }[] }
    ).changes
      .filter((ch) => ch.type === "upsert")
      .map((ch) => ch.blog?.slug)
      .sort();
    expect(upserts).toEqual(["old-post-0", "old-post-2", "old-post-4"]);

    // The source edits every entry, still with 2019 times: released ones make blog.updated.
    const edited = sourceSet((i) => `Old post ${i}, edited`);
    await applyImport(c, await planImport(c, inlineRenderer, ws, edited), {
      source: "old",
      now: new Date(),
    });
    await waitFor("three blog.updated deliveries", () => receiver.unique().length >= 6);
    expect(typesOf(receiver)).toEqual([
      "blog.released",
      "blog.released",
      "blog.released",
      "blog.updated",
      "blog.updated",
      "blog.updated",
    ]);
    await receiver.close();
  });
});
