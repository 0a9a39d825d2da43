/**
 * The consumer API's fast path for periodic syncs (openapi.yaml, "Caching and limits"): ETags derived from each blog's
 * validator (revision + times), so an unchanged get or list answers 304 without reading any blog
 * content, and every change to what a response would contain changes its ETag. Whole blogs are
 * read with a projection of what the view is made of (server/embedded-db/README.md, "Projections
 * read only their fields").
 */
import { beforeAll, describe, expect, it } from "vitest";
import { editLive, get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
const api = (path: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": a.key, ...headers });

/**
 * The webhook outbox relay's sweep, which reads `blogs` on its own timer (every RELAY_SWEEP_MS,
 * server/src/webhooks/outbox-relay.ts): not a read of the request being measured. On a loaded
 * machine one landed inside a request's window and was counted as its second read.
 */
const isRelaySweep = (command: Record<string, unknown>) =>
  (command.filter as Record<string, unknown> | undefined)?.webhookPending === true;
/**
 * The schedule poller's look for due blogs (`dueAt`, server/src/blogs/blog-scheduler.ts, every
 * 5 s): another background read of `blogs`, counted once as a request's second read on Node 22
 * under the whole suite's load.
 */
const isSchedulePoll = (command: Record<string, unknown>) =>
  (command.filter as Record<string, unknown> | undefined)?.dueAt !== undefined;

/** The blog reads (`find` on `blogs`) sent while `run` ran, with their projections. */
async function blogReads(run: () => Promise<unknown>) {
  const from = t.commands.length;
  await run();
  return t.commands
    .slice(from)
    .filter(
      (c) =>
        c.name === "find" &&
        c.collection === "blogs" &&
        !isRelaySweep(c.command) &&
        !isSchedulePoll(c.command),
    )
    .map((c) => c.command.projection as Record<string, unknown> | undefined);
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Perf", 5);
});

describe("conditional requests read no blog content", () => {
  it("a matching If-None-Match on get, get by slug and list is answered from a projection without bodies", async () => {
    for (const path of [`/blogs/${a.released[1]}`, "/blogs/by-slug/post-3", "/blogs?limit=3"]) {
      const etag = (await api(path)).headers.get("etag") ?? "";
      const reads = await blogReads(async () => {
        const again = await api(path, { "if-none-match": etag });
        expect(again.status).toBe(304);
        expect(again.headers.get("etag")).toBe(etag);
      });
      expect(reads.length).toBeGreaterThan(0);
      for (const projection of reads) {
        expect(projection).toBeDefined();
        expect(Object.keys(projection ?? {})).not.toContain("bodyMarkdown");
        expect(Object.keys(projection ?? {})).not.toContain("bodyHtml");
      }
    }
  });

  it("a whole blog is read with the view's projection: none of the editor's fields", async () => {
    // A list page not asked before: one asked again unchanged is sent from memory after a read
    // of its validators alone (answer-cache.test.ts).
    for (const path of [`/blogs/${a.released[1]}`, "/blogs/by-slug/post-3", "/blogs?limit=4"]) {
      const reads = await blogReads(async () => expect((await api(path)).status).toBe(200));
      expect(reads.length).toBe(1);
      const fields = Object.keys(reads[0] ?? {});
      expect(fields).toEqual(
        expect.arrayContaining(["_id", "bodyHtml", "bodyMarkdown", "revision"]),
      );
      for (const editorOnly of ["searchTerms", "titleKey", "webhookOutbox", "createdAt"]) {
        expect(fields).not.toContain(editorOnly);
      }
    }
  });

  it("a blog that is not released still answers 404 to a conditional get", async () => {
    for (const id of [a.draft, a.removed]) {
      expect((await api(`/blogs/${id}`, { "if-none-match": "*" })).status).toBe(404);
    }
  });
});

describe("every change to a response changes its ETag", () => {
  it("editing a released blog changes the ETag of its get and of the list page holding it", async () => {
    const id = a.released[0] ?? "";
    const before = [
      (await api(`/blogs/${id}`)).headers.get("etag") ?? "",
      (await api("/blogs?limit=2")).headers.get("etag") ?? "",
    ];
    // Two edits back to back (possibly in the same millisecond): each one is a new revision.
    await editLive(stores(t.db).blogs, a.workspaceId, id, { title: "Edited once" });
    const middle = await api(`/blogs/${id}`);
    await editLive(stores(t.db).blogs, a.workspaceId, id, { title: "Edited twice" });
    for (const [path, etag] of [
      [`/blogs/${id}`, before[0] ?? ""],
      ["/blogs?limit=2", before[1] ?? ""],
      [`/blogs/${id}`, middle.headers.get("etag") ?? ""],
    ] as const) {
      const res = await api(path, { "if-none-match": etag });
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).not.toBe(etag);
    }
  });

  it("a page whose next page disappears changes its ETag (nextCursor becomes null)", async () => {
    const s = stores(t.db);
    const released = (await api("/blogs?limit=100")).body as { data: { id: string }[] };
    const count = released.data.length;
    const path = `/blogs?limit=${count - 1}`;
    const first = await api(path);
    expect((first.body as { nextCursor: string | null }).nextCursor).not.toBeNull();
    const last = released.data.at(-1)?.id ?? "";
    await s.blogs.setStatus(a.workspaceId, last, "draft");
    const after = await api(path, { "if-none-match": first.headers.get("etag") ?? "" });
    expect(after.status).toBe(200);
    expect((after.body as { nextCursor: string | null }).nextCursor).toBeNull();
    await s.blogs.setStatus(a.workspaceId, last, "released");
  });

  it("the same content answers the same ETag, whichever key of the workspace asks", async () => {
    const other = await stores(t.db).keys.mint(a.workspaceId, "Second integration");
    const path = `/blogs/${a.released[2]}`;
    const mine = (await api(path)).headers.get("etag");
    const theirs = (
      await get(`${server.url}/api/consumer${path}`, { "x-api-key": other.key })
    ).headers.get("etag");
    expect(theirs).toBe(mine);
  });
});
