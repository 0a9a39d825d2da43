import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  BadRequestError,
  type Blog,
  type CacheEntry,
  type CacheStore,
  type ClientOptions,
  createClient,
  NotFoundError,
  type ResponseInfo,
  ServerError,
  type Slug,
} from "../../sdk/src/index.js";
import { type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type FaultServer, ok, startFaultServer } from "../support/sdk-fault-server.js";
import { recordingFetch, recordingSleep, rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let fault: FaultServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
let betaOnly: string;
const sdk = (apiKey: string, extra: Partial<ClientOptions> = {}) =>
  createClient({ apiKey, baseUrl: server.url, ...extra });
const FAULT_BLOG = {
  id: "b_1",
  slug: "one",
  title: "One",
  excerpt: "",
  bodyMarkdown: "",
  bodyHtml: "",
  tags: [],
  authorName: "A",
  coverImageUrl: null,
  releasedAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-01T00:00:00.000Z",
};

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  fault = await startFaultServer();
  a = await seedWorkspace(t.db, "Alpha", 4);
  b = await seedWorkspace(t.db, "Beta", 1);
  betaOnly = (
    await stores(t.db).blogs.create(b.workspaceId, {
      title: "Beta only",
      bodyMarkdown: "x",
      release: true,
    })
  ).slug;
});

describe("blogs.getBySlug — one released blog by its slug (sdk/README.md, The calls)", () => {
  it("takes fields as blogs.get does: only those properties and id, the type narrowed to them", async () => {
    const client = sdk(a.key, { cache: false });
    const [first] = (await client.blogs.list({ limit: 1 })).data;
    if (first === undefined) throw new Error("no released blog");
    const partial = await client.blogs.getBySlug(first.slug, { fields: ["title"] });
    expectTypeOf(partial).toEqualTypeOf<Pick<Blog, "id" | "title">>();
    expect(partial).toEqual({ id: first.id, title: first.title });
    expect(await client.blogs.getBySlug(first.slug, { fields: ["title"] })).toEqual(
      await client.blogs.get(first.id, { fields: ["title"] }),
    );
  });

  it("returns the same Blog as blogs.get, typed from the spec, from GET /blogs/by-slug/{slug}", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch });
    const byId = await client.blogs.get(a.released[1] ?? "");
    const bySlug = await client.blogs.getBySlug(byId.slug);
    expectTypeOf(bySlug).toEqualTypeOf<Blog>();
    expectTypeOf(client.blogs.getBySlug).parameter(0).toEqualTypeOf<Slug>();
    expect(bySlug).toEqual(byId);
    const url = new URL(recorder.exchanges[1]?.request.url ?? "");
    expect(url.pathname).toBe(`/api/consumer/blogs/by-slug/${byId.slug}`);
    expect(url.search).toBe("");
  });

  it("a repeated call is revalidated with the ETag: a bodiless 304, the cached blog, notModified reported", async () => {
    const infos: ResponseInfo[] = [];
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch, onResponse: (i) => infos.push(i) });
    const first = await client.blogs.getBySlug("post-2");
    const second = await client.blogs.getBySlug("post-2");
    expect(second).toEqual(first);
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 304]);
    expect(recorder.exchanges[1]?.bodyBytes).toBe(0);
    expect(recorder.exchanges[1]?.request.headers.get("if-none-match")).toBe(
      recorder.exchanges[0]?.responseHeaders?.get("etag"),
    );
    expect(infos.map((i) => [i.status, i.notModified, i.attempts])).toEqual([
      [200, false, 1],
      [200, true, 1],
    ]);
  });

  it("a blog withdrawn after it was cached: NotFoundError on revalidation, and the entry is dropped", async () => {
    const entries = new Map<string, CacheEntry>();
    const store: CacheStore = {
      get: (k) => entries.get(k),
      set: (k, e) => void entries.set(k, e),
      delete: (k) => void entries.delete(k),
    };
    const client = sdk(a.key, { cache: { store } });
    const blog = await stores(t.db).blogs.create(a.workspaceId, {
      title: "Short lived",
      bodyMarkdown: "x",
      release: true,
    });
    await client.blogs.getBySlug(blog.slug);
    expect(entries.size).toBe(1);
    await stores(t.db).blogs.setStatus(a.workspaceId, blog._id, "draft");
    expect(await rejectionOf(client.blogs.getBySlug(blog.slug))).toBeInstanceOf(NotFoundError);
    expect(entries.size).toBe(0);
  });

  for (const [name, slug] of [
    ["a draft's slug", () => "alpha-draft"],
    ["a removed blog's slug", () => "post-101"],
    ["another workspace's slug", () => betaOnly],
    ["a slug no blog has", () => "never-written"],
  ] as const) {
    it(`${name} → NotFoundError "Blog not found." after one attempt`, async () => {
      const recorder = recordingFetch();
      const error = await rejectionOf(
        sdk(a.key, { fetch: recorder.fetch }).blogs.getBySlug(slug()),
      );
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, attempts: 1, requestId: expect.any(String) });
      expect((error as Error).message).toContain("Blog not found.");
      expect(recorder.exchanges).toHaveLength(1);
    });
  }

  it("a string that cannot be a slug → BadRequestError naming the parameter, after one attempt", async () => {
    for (const slug of ["Post-1", "post_1", "ｐｏｓｔ-１", "a".repeat(101), "post-1/../x?y=1"]) {
      const recorder = recordingFetch();
      const error = await rejectionOf(sdk(a.key, { fetch: recorder.fetch }).blogs.getBySlug(slug));
      expect(error, slug).toBeInstanceOf(BadRequestError);
      expect((error as Error).message).toContain("slug");
      expect(recorder.exchanges).toHaveLength(1);
    }
  });

  it("an empty slug, '.' or '..' (which a URL would resolve into another path) is refused before any request", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch });
    for (const slug of ["", ".", ".."]) {
      await expect(client.blogs.getBySlug(slug)).rejects.toThrow(TypeError);
    }
    expect(recorder.exchanges).toHaveLength(0);
  });
});

describe("blogs.getBySlug is retried as blogs.get is (sdk/README.md, Retries)", () => {
  it("a 503 then a 200: two attempts, one 250 ms wait, the blog", async () => {
    const sleep = recordingSleep();
    const client = createClient({
      apiKey: `cp_live_${"r".repeat(42)}`,
      baseUrl: fault.url,
      cache: false,
      sleep: sleep.sleep,
      retry: { jitter: 0 },
    });
    fault.script({ status: 503, body: { message: "Service unavailable." } }, ok(FAULT_BLOG));
    expect(await client.blogs.getBySlug("one")).toEqual(FAULT_BLOG);
    expect(fault.requests.map((r) => r.url)).toEqual([
      "/api/consumer/blogs/by-slug/one",
      "/api/consumer/blogs/by-slug/one",
    ]);
    expect(sleep.waits).toEqual([250]);
  });

  it("a 500 every time: 4 attempts, then ServerError", async () => {
    const sleep = recordingSleep();
    const client = createClient({
      apiKey: `cp_live_${"r".repeat(42)}`,
      baseUrl: fault.url,
      cache: false,
      sleep: sleep.sleep,
      retry: { jitter: 0 },
    });
    fault.script({ status: 500, body: { message: "Internal server error." } });
    const error = await rejectionOf(client.blogs.getBySlug("one"));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, attempts: 4 });
    expect(sleep.waits).toEqual([250, 500, 1000]);
  });

  it("a 404 is not retried", async () => {
    const client = createClient({
      apiKey: `cp_live_${"r".repeat(42)}`,
      baseUrl: fault.url,
      cache: false,
    });
    fault.script({ status: 404, body: { message: "Blog not found." } });
    expect(await rejectionOf(client.blogs.getBySlug("one"))).toBeInstanceOf(NotFoundError);
    expect(fault.requests).toHaveLength(1);
  });
});
