import { beforeAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  type Change,
  createClient,
  MemorySyncStore,
  type SyncStore,
} from "../../sdk/src/index.js";
import { releasedBlogs, signedToken } from "../support/changes-mirror.js";
import { editLive, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let ws: SeededWorkspace;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  ws = await seedWorkspace(t.db, "sdk sync", 5);
});

const sdk = (extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ apiKey: ws.key, baseUrl: server.url, sleep: async () => {}, ...extra });
const sorted = (store: MemorySyncStore) =>
  [...store.blogs.values()].sort((x, y) => x.id.localeCompare(y.id));

describe('SDK changes.sync keeps a store equal to the released set (sdk/README.md, "Sync")', () => {
  it("a first sync fills an empty store; an unchanged workspace then costs one page and changes nothing", async () => {
    const store = new MemorySyncStore();
    const first = await sdk().changes.sync({ store, limit: 2 });
    expect(first).toMatchObject({ upserts: 5, deletes: 0, pages: 3, restarted: false });
    expect(sorted(store)).toEqual(await releasedBlogs(server.url, ws.key));
    const again = await sdk().changes.sync({ store });
    expect(again).toMatchObject({ upserts: 0, deletes: 0, pages: 1 });
    expect(store.token).toBe(again.token);
  });

  it("edits, unreleases and removals reach the store on the next sync", async () => {
    const s = stores(t.db);
    const store = new MemorySyncStore();
    await sdk().changes.sync({ store });
    const [first, second] = ws.released;
    await editLive(s.blogs, ws.workspaceId, first ?? "", { title: "Edited through the feed" });
    await s.blogs.setStatus(ws.workspaceId, second ?? "", "draft");
    const result = await sdk().changes.sync({ store });
    expect(result).toMatchObject({ upserts: 1, deletes: 1 });
    expect(store.blogs.get(first ?? "")?.title).toBe("Edited through the feed");
    expect(store.blogs.has(second ?? "")).toBe(false);
    expect(sorted(store)).toEqual(await releasedBlogs(server.url, ws.key));
    await s.blogs.setStatus(ws.workspaceId, second ?? "", "released");
  });

  it("an expired token (410) clears the store and syncs again from scratch, once", async () => {
    const store = new MemorySyncStore();
    const since = Date.now() - 40 * 86_400_000;
    store.token = await signedToken(t.db, { workspaceId: ws.workspaceId, seq: 1, since });
    store.blogs.set("b_stale", {
      ...(await releasedBlogs(server.url, ws.key))[0],
      id: "b_stale",
    } as never);
    const result = await sdk().changes.sync({ store });
    expect(result.restarted).toBe(true);
    expect(store.blogs.has("b_stale")).toBe(false);
    expect(sorted(store)).toEqual(await releasedBlogs(server.url, ws.key));
  });

  it("a 5xx is retried with backoff like every call", async () => {
    let failed = 0;
    const flaky = async (request: Request) => {
      if (request.url.includes("/changes") && failed < 2) {
        failed++;
        return new Response(JSON.stringify({ message: "busy" }), { status: 503 });
      }
      return fetch(request);
    };
    const store = new MemorySyncStore();
    await sdk({ fetch: flaky }).changes.sync({ store });
    expect(failed).toBe(2);
    expect(sorted(store)).toEqual(await releasedBlogs(server.url, ws.key));
  });

  it("a store that fails keeps its old token: the next sync repeats the page and still ends equal", async () => {
    const inner = new MemorySyncStore();
    let failOnce = true;
    const store: SyncStore = {
      getToken: () => inner.getToken(),
      clear: () => inner.clear(),
      apply(changes: readonly Change[], nextToken: string) {
        if (failOnce && inner.token !== undefined) {
          failOnce = false;
          throw new Error("disk full");
        }
        inner.apply(changes, nextToken);
      },
    };
    await expect(sdk().changes.sync({ store, limit: 2 })).rejects.toThrow("disk full");
    await sdk().changes.sync({ store, limit: 2 });
    expect(sorted(inner)).toEqual(await releasedBlogs(server.url, ws.key));
  });

  it("pages() walks every page until hasMore is false; a made-up token is a BadRequestError", async () => {
    const ids: string[] = [];
    for await (const page of sdk().changes.pages({ limit: 2 })) {
      for (const change of page.changes) if (change.type === "upsert") ids.push(change.blog.id);
    }
    expect(ids.sort()).toEqual([...ws.released].sort());
    await expect(sdk().changes.page({ since: "abc.def" })).rejects.toBeInstanceOf(BadRequestError);
  });
});
