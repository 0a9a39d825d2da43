import { beforeAll, describe, expect, it } from "vitest";
import {
  type CacheEntry,
  type CacheStore,
  type ClientOptions,
  createClient,
  MemoryCacheStore,
  NotFoundError,
  type ResponseInfo,
} from "../../sdk/src/index.js";
import { type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type FaultServer, ok, PAGE, startFaultServer } from "../support/sdk-fault-server.js";
import { recordingFetch, rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let fault: FaultServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
const sdk = (apiKey: string, extra: Partial<ClientOptions> = {}) =>
  createClient({ apiKey, baseUrl: server.url, ...extra });

/** An async store (like a file or Redis) that records what it is asked. */
function spyStore(): CacheStore & { entries: Map<string, CacheEntry>; log: string[] } {
  const entries = new Map<string, CacheEntry>();
  const log: string[] = [];
  return {
    entries,
    log,
    async get(key) {
      log.push(`get ${key}`);
      return entries.get(key);
    },
    async set(key, entry) {
      log.push(`set ${key}`);
      entries.set(key, entry);
    },
    async delete(key) {
      log.push(`delete ${key}`);
      entries.delete(key);
    },
  };
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  fault = await startFaultServer();
  a = await seedWorkspace(t.db, "Alpha", 5);
  b = await seedWorkspace(t.db, "Beta", 2);
});

describe("ETag revalidation against the real server (sdk/README.md, Caching for periodic syncs)", () => {
  it("a repeated list sends If-None-Match, gets a bodiless 304 and returns the cached page flagged", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch });
    const first = await client.blogs.list({ limit: 3 });
    const second = await client.blogs.list({ limit: 3 });
    expect(first.notModified).toBe(false);
    expect(second.notModified).toBe(true);
    expect(second.data).toEqual(first.data);
    expect(second.nextCursor).toBe(first.nextCursor);
    const [one, two] = recorder.exchanges;
    expect([one?.status, two?.status]).toEqual([200, 304]);
    expect(one?.bodyBytes).toBeGreaterThan(100);
    expect(two?.bodyBytes).toBe(0);
    expect(one?.request.headers.get("if-none-match")).toBeNull();
    expect(two?.request.headers.get("if-none-match")).toBe(one?.responseHeaders?.get("etag"));
  });

  it("a repeated get is revalidated too; onResponse reports it as not modified", async () => {
    const infos: ResponseInfo[] = [];
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch, onResponse: (i) => infos.push(i) });
    const id = a.released[0] ?? "";
    const first = await client.blogs.get(id);
    const second = await client.blogs.get(id);
    expect(second).toEqual(first);
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 304]);
    expect(infos.map((i) => [i.status, i.notModified, i.attempts])).toEqual([
      [200, false, 1],
      [200, true, 1],
    ]);
    expect(infos[1]?.requestId).toBe(recorder.exchanges[1]?.responseHeaders?.get("x-request-id"));
  });

  it("a cached copy is never shared: mutating a returned page does not change the next one", async () => {
    const client = sdk(a.key);
    const first = await client.blogs.list({ limit: 2 });
    first.data.splice(0, 2);
    const second = await client.blogs.list({ limit: 2 });
    expect(second.notModified).toBe(true);
    expect(second.data).toHaveLength(2);
  });

  it("a change on the server gives a 200 with the new content, and the entry is replaced", async () => {
    const store = spyStore();
    const recorder = recordingFetch();
    const client = sdk(b.key, { fetch: recorder.fetch, cache: { store } });
    const before = await client.blogs.list();
    const fresh = await stores(t.db).blogs.create(b.workspaceId, {
      title: "Fresh",
      bodyMarkdown: "new",
      release: true,
    });
    const after = await client.blogs.list();
    expect(after.notModified).toBe(false);
    expect(after.data.map((x) => x.id)).toEqual([fresh._id, ...before.data.map((x) => x.id)]);
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 200]);
    const again = await client.blogs.list();
    expect(again.notModified).toBe(true);
    expect(again.data.map((x) => x.id)[0]).toBe(fresh._id);
    expect(store.entries.size).toBe(1);
  });

  it("a blog that disappears: 404 on revalidation throws NotFoundError and drops the entry", async () => {
    const store = spyStore();
    const client = sdk(a.key, { cache: { store } });
    const blog = await stores(t.db).blogs.create(a.workspaceId, {
      title: "Brief",
      bodyMarkdown: "x",
      release: true,
    });
    await client.blogs.get(blog._id);
    expect(store.entries.size).toBe(1);
    await stores(t.db).blogs.setStatus(a.workspaceId, blog._id, "draft");
    expect(await rejectionOf(client.blogs.get(blog._id))).toBeInstanceOf(NotFoundError);
    expect(store.entries.size).toBe(0);
  });

  it("cache: false on a call neither sends If-None-Match nor stores the answer", async () => {
    const store = spyStore();
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch, cache: { store } });
    await client.blogs.list({ limit: 4 });
    const uncached = await client.blogs.list({ limit: 4, cache: false });
    expect(uncached.notModified).toBe(false);
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 200]);
    expect(recorder.exchanges[1]?.request.headers.get("if-none-match")).toBeNull();
    expect(store.log.filter((l) => l.startsWith("set"))).toHaveLength(1);
  });

  it("cache: false on the client turns revalidation off", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch, cache: false });
    await client.blogs.list({ limit: 4 });
    const second = await client.blogs.list({ limit: 4 });
    expect(second.notModified).toBe(false);
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 200]);
  });
});

describe("cache keys: two API keys never share an entry, and the raw key is never stored", () => {
  it("a shared store keeps each key's pages apart", async () => {
    const store = spyStore();
    const recorder = recordingFetch();
    const ofA = sdk(a.key, { fetch: recorder.fetch, cache: { store } });
    const ofB = sdk(b.key, { fetch: recorder.fetch, cache: { store } });
    const pageA = await ofA.blogs.list({ limit: 2 });
    const pageB = await ofB.blogs.list({ limit: 2 });
    expect(pageB.notModified).toBe(false);
    expect(recorder.exchanges[1]?.request.headers.get("if-none-match")).toBeNull();
    expect(pageB.data.map((x) => x.id)).not.toEqual(pageA.data.map((x) => x.id));
    expect(store.entries.size).toBe(2);
    expect((await ofA.blogs.list({ limit: 2 })).notModified).toBe(true);
    expect((await ofB.blogs.list({ limit: 2 })).notModified).toBe(true);
  });

  it("keys hold a SHA-256 of the API key, the method and the URL — not the key", async () => {
    const store = spyStore();
    await sdk(a.key, { cache: { store } }).blogs.list({ limit: 2 });
    const [key] = [...store.entries.keys()];
    expect(key).toMatch(
      new RegExp(
        `^k[0-9a-f]{64} GET ${server.url.replace(/[.]/g, "\\.")}/api/consumer/blogs\\?limit=2$`,
      ),
    );
    const everything = JSON.stringify([...store.entries]);
    expect(everything).not.toContain(a.key);
    expect(everything).not.toContain(a.key.slice(8));
  });
});

describe("the in-memory store is bounded (LRU by entry count)", () => {
  it("keeps the most recently used entries", () => {
    const store = new MemoryCacheStore({ maxEntries: 2 });
    const entry = (etag: string): CacheEntry => ({ etag, body: "{}", storedAt: 0 });
    store.set("a", entry("1"));
    store.set("b", entry("2"));
    expect(store.get("a")?.etag).toBe("1");
    store.set("c", entry("3"));
    expect(store.size).toBe(2);
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")?.etag).toBe("1");
    expect(store.get("c")?.etag).toBe("3");
  });

  it("an evicted page is simply fetched in full again", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch, cache: { maxEntries: 1 } });
    await client.blogs.list({ limit: 1 });
    await client.blogs.list({ limit: 2 });
    await client.blogs.list({ limit: 1 });
    await client.blogs.list({ limit: 1 });
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 200, 200, 304]);
  });

  it("refuses a size below 1", () => {
    expect(() => new MemoryCacheStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});

describe("cache robustness (fault server)", () => {
  it("a 304 to a request sent without If-None-Match is fetched again, unconditionally", async () => {
    fault.script({ status: 304 }, ok(PAGE, { etag: '"v2"' }));
    const store = spyStore();
    const client = createClient({ apiKey: a.key, baseUrl: fault.url, cache: { store } });
    const page = await client.blogs.list();
    expect(page).toEqual({ data: [], nextCursor: null, notModified: false });
    expect(fault.requests).toHaveLength(2);
    expect(fault.requests[0]?.headers["if-none-match"]).toBeUndefined();
    expect(fault.requests[1]?.headers["if-none-match"]).toBeUndefined();
    expect(fault.requests[1]?.headers["cache-control"]).toBe("no-cache");
    expect([...store.entries.values()].map((e) => e.etag)).toEqual(['"v2"']);
  });

  it("a corrupt stored entry is ignored: no If-None-Match, and the fresh answer replaces it", async () => {
    fault.script(ok(PAGE, { etag: '"v3"' }));
    const store = spyStore();
    const client = createClient({ apiKey: a.key, baseUrl: fault.url, cache: { store } });
    await client.blogs.list();
    const [key] = [...store.entries.keys()];
    store.entries.set(key ?? "", { etag: '"v3"', body: "{not json", storedAt: 0 });
    fault.script(ok(PAGE, { etag: '"v3"' }));
    const page = await client.blogs.list();
    expect(page.notModified).toBe(false);
    expect(fault.requests[0]?.headers["if-none-match"]).toBeUndefined();
    expect(store.entries.get(key ?? "")?.body).toBe(JSON.stringify(PAGE));
  });

  it("a 200 without an ETag is not stored, and drops an older entry", async () => {
    const store = spyStore();
    const client = createClient({ apiKey: a.key, baseUrl: fault.url, cache: { store } });
    fault.script(ok(PAGE));
    await client.blogs.list();
    expect(store.entries.size).toBe(1);
    fault.script({ status: 200, body: PAGE });
    await client.blogs.list();
    expect(fault.requests[0]?.headers["if-none-match"]).toBe('"v1"');
    expect(store.entries.size).toBe(0);
  });

  it("the cache is on by default, in memory", async () => {
    fault.script(ok(PAGE));
    const client = createClient({ apiKey: a.key, baseUrl: fault.url });
    await client.blogs.list();
    fault.script({ status: 304, headers: { etag: '"v1"' } });
    const page = await client.blogs.list();
    expect(page.notModified).toBe(true);
    expect(fault.requests[0]?.headers["if-none-match"]).toBe('"v1"');
  });
});
