/**
 * List pages and feeds asked again unchanged are sent from memory (README, "Production": answer
 * cache; server/src/platform/http/answer-cache.ts): the server reads the page's validators, as
 * for a 304, and sends the bytes it sent before under the same ETag. Whatever changes what a page
 * shows changes its ETag (openapi.yaml, "Caching and limits"), so the next answer is new.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedUrlsOf } from "../../server/src/feeds/feed-urls.js";
import { createStores } from "../../server/src/stores.js";
import {
  editLive,
  get,
  type JsonResponse,
  type SeededWorkspace,
  seedWorkspace,
  stores,
} from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let uncached: TestServer;
let a: SeededWorkspace;
let b: SeededWorkspace;

const PAGES = [
  "/blogs?limit=3",
  "/blogs?limit=3&fields=id,slug,title",
  "/blogs?limit=3&tag=news",
  "/blogs?limit=3&fields=id,authors,coverImage",
];

/** What an ETag is made of (server/src/blogs/blog-reads.ts): a read of these reads no content. */
const VALIDATORS = new Set([
  "_id",
  "updatedAt",
  "releasedAt",
  "revision",
  "authorIds",
  "coverImageUrl",
]);

/** The `find`s on `blogs` sent while `run` ran, and how many of them read content. */
async function blogReads(run: () => Promise<unknown>): Promise<{ bodies: number; all: number }> {
  const from = t.commands.length;
  await run();
  const reads = t.commands.slice(from).filter(
    (c) =>
      c.name === "find" &&
      c.collection === "blogs" &&
      // Background loops' reads (the relay's sweep, the scheduler's poll): not the request's.
      (c.command.filter as Record<string, unknown> | undefined)?.webhookPending !== true &&
      (c.command.filter as Record<string, unknown> | undefined)?.dueAt === undefined,
  );
  const content = (c: (typeof reads)[number]) =>
    Object.keys((c.command.projection as Record<string, unknown> | undefined) ?? {}).some(
      (field) => !VALIDATORS.has(field),
    );
  return { all: reads.length, bodies: reads.filter(content).length };
}

const api = (at: TestServer, w: SeededWorkspace, path: string) =>
  get(`${at.url}/api/consumer${path}`, { "x-api-key": w.key });

const sameAnswer = (again: JsonResponse, first: JsonResponse) => {
  expect(again.status).toBe(200);
  expect(again.text).toBe(first.text);
  expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
  expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
  expect(again.headers.get("content-length")).toBe(first.headers.get("content-length"));
};

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  uncached = await startTestServer(t.db, { ANSWER_CACHE_BYTES: "0" });
  a = await seedWorkspace(t.db, "Kept", 5);
  b = await seedWorkspace(t.db, "Other", 5);
});

afterAll(async () => {
  await server?.stop();
  await uncached?.stop();
});

describe("a list page asked again unchanged is sent from memory", () => {
  it("the same bytes and headers, after a read of the page's validators alone", async () => {
    for (const path of PAGES) {
      let first: JsonResponse | undefined;
      expect((await blogReads(async () => (first = await api(server, a, path)))).bodies).toBe(1);
      let again: JsonResponse | undefined;
      const reads = await blogReads(async () => (again = await api(server, a, path)));
      expect(reads, path).toEqual({ all: 1, bodies: 0 });
      sameAnswer(again as JsonResponse, first as JsonResponse);
    }
  });

  it("another workspace's same page is its own answer, never the one kept for the first", async () => {
    const ours = await api(server, a, PAGES[0] as string);
    const theirs = await api(server, b, PAGES[0] as string);
    expect(theirs.text).not.toBe(ours.text);
    const ids = (r: JsonResponse) => (r.body as { data: { id: string }[] }).data.map((x) => x.id);
    expect(ids(theirs)).toEqual(b.released.slice(0, 3));
    expect(ids(await api(server, b, PAGES[0] as string))).toEqual(b.released.slice(0, 3));
  });

  it("an edit, a release and an unrelease are in the very next answer", async () => {
    const s = stores(t.db);
    const path = PAGES[0] as string;
    const titles = (r: JsonResponse) =>
      (r.body as { data: { title: string }[] }).data.map((x) => x.title);
    await api(server, a, path);
    await api(server, a, path);
    await editLive(s.blogs, a.workspaceId, a.released[0] as string, { title: "Edited once" });
    expect(titles(await api(server, a, path))[0]).toBe("Edited once");
    const added = await s.blogs.create(a.workspaceId, {
      title: "Released since",
      bodyMarkdown: "New.",
      release: true,
    });
    expect(titles(await api(server, a, path))[0]).toBe("Released since");
    await s.blogs.setStatus(a.workspaceId, added._id, "draft");
    expect(titles(await api(server, a, path))[0]).toBe("Edited once");
    // Each of them served again from memory, unchanged.
    const kept = await api(server, a, path);
    expect((await blogReads(() => api(server, a, path))).bodies).toBe(0);
    sameAnswer(await api(server, a, path), kept);
  });

  it("with ANSWER_CACHE_BYTES=0 every answer is read whole", async () => {
    for (const path of PAGES) {
      const first = await api(uncached, a, path);
      let again: JsonResponse | undefined;
      expect((await blogReads(async () => (again = await api(uncached, a, path)))).bodies).toBe(1);
      sameAnswer(again as JsonResponse, first);
    }
  });

  it("kept and uncached answers are the same bytes", async () => {
    for (const path of PAGES) {
      await api(server, a, path);
      sameAnswer(await api(server, a, path), await api(uncached, a, path));
    }
  });
});

describe("a feed asked again unchanged is sent from memory", () => {
  it("each format: the same bytes and headers after a read of the validators alone, and an edit in the very next one", async () => {
    const on = await createStores(t.db).publicFeeds.turnOn(
      a.workspaceId,
      "https://example.com/{slug}",
    );
    const feedId = on.workspace.feedId ?? "";
    const s = stores(t.db);
    for (const format of ["rss", "atom", "json"] as const) {
      const url = feedUrlsOf(server.url, feedId)[format];
      let first: JsonResponse | undefined;
      expect((await blogReads(async () => (first = await get(url)))).bodies).toBe(1);
      let again: JsonResponse | undefined;
      const reads = await blogReads(async () => (again = await get(url)));
      expect(reads, format).toEqual({ all: 1, bodies: 0 });
      sameAnswer(again as JsonResponse, first as JsonResponse);

      const title = `Feed edit ${format}`;
      await editLive(s.blogs, a.workspaceId, a.released[1] as string, { title });
      const edited = await get(url);
      expect(edited.status).toBe(200);
      expect(edited.text, format).toContain(title);
      expect(edited.headers.get("etag")).not.toBe(first?.headers.get("etag"));
      sameAnswer(await get(url), edited);

      // ANSWER_CACHE_BYTES=0: each answer read whole, the same document.
      const off = feedUrlsOf(uncached.url, feedId)[format];
      const offFirst = await get(off);
      let offAgain: JsonResponse | undefined;
      expect((await blogReads(async () => (offAgain = await get(off)))).bodies).toBe(1);
      sameAnswer(offAgain as JsonResponse, offFirst);
    }
  });
});
