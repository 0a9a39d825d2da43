import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  type Blog,
  type BlogPage,
  type ClientOptions,
  createClient,
  NotFoundError,
  type PressroomClient,
} from "../../sdk/src/index.js";
import { type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { recordingFetch, rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
const sdk = (apiKey: string, extra: Partial<ClientOptions> = {}): PressroomClient =>
  createClient({ apiKey, baseUrl: server.url, ...extra });

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha", 25);
  b = await seedWorkspace(t.db, "Beta", 2);
});

describe("blogs.list — one page of released blogs", () => {
  it("returns the newest released blogs first, with a cursor to the next page", async () => {
    const page = await sdk(a.key).blogs.list({ limit: 10 });
    expectTypeOf(page).toEqualTypeOf<BlogPage>();
    expect(page.data.map((x) => x.id)).toEqual(a.released.slice(0, 10));
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(page.notModified).toBe(false);
  });

  it("the cursor of one page gives the next page; the last page's cursor is null", async () => {
    const client = sdk(a.key);
    const first = await client.blogs.list({ limit: 20 });
    const second = await client.blogs.list({ limit: 20, cursor: first.nextCursor });
    expect(second.data.map((x) => x.id)).toEqual(a.released.slice(20));
    expect(second.nextCursor).toBeNull();
  });

  it("never lists drafts, removed blogs or another workspace's blogs", async () => {
    const ids = (await sdk(b.key).blogs.list({ limit: 100 })).data.map((x) => x.id);
    expect(ids).toEqual(b.released);
    expect(ids).not.toContain(b.draft);
    expect(ids).not.toContain(b.removed);
  });
});

describe("blogs.listAll — walks every page", () => {
  it("yields all 25 released blogs in order across 3 pages of 10", async () => {
    const recorder = recordingFetch();
    const seen: Blog[] = [];
    for await (const blog of sdk(a.key, { fetch: recorder.fetch }).blogs.listAll({ limit: 10 })) {
      seen.push(blog);
    }
    expect(seen.map((x) => x.id)).toEqual(a.released);
    const urls = recorder.exchanges.map((e) => new URL(e.request.url));
    expect(urls).toHaveLength(3);
    expect(urls.map((u) => u.searchParams.get("limit"))).toEqual(["10", "10", "10"]);
    expect(urls[0]?.searchParams.has("cursor")).toBe(false);
    expect(urls[1]?.searchParams.get("cursor")).toEqual(expect.any(String));
  });

  it("pages() yields the pages themselves, the last with nextCursor null", async () => {
    const sizes: number[] = [];
    let last: BlogPage | undefined;
    for await (const page of sdk(a.key).blogs.pages({ limit: 10 })) {
      sizes.push(page.data.length);
      last = page;
    }
    expect(sizes).toEqual([10, 10, 5]);
    expect(last?.nextCursor).toBeNull();
  });

  it("stopping early sends no further requests", async () => {
    const recorder = recordingFetch();
    for await (const blog of sdk(a.key, { fetch: recorder.fetch }).blogs.listAll({ limit: 10 })) {
      if (blog.id === a.released[12]) break;
    }
    expect(recorder.exchanges).toHaveLength(2);
  });
});

describe("blogs.get — one released blog", () => {
  it("returns the blog as listed, every field typed from the spec", async () => {
    const client = sdk(a.key);
    const id = a.released[3] ?? "";
    const blog = await client.blogs.get(id);
    expectTypeOf(blog).toEqualTypeOf<Blog>();
    expectTypeOf(blog.coverImageUrl).toEqualTypeOf<string | null>();
    const listed = (await client.blogs.list({ limit: 10 })).data.find((x) => x.id === id);
    expect(blog).toEqual(listed);
    expect(blog).toMatchObject({ id, title: "Post 21", tags: ["news"], coverImageUrl: null });
  });

  it("an ID is path-encoded, so operator-like text is just a blog that does not exist", async () => {
    const error = await rejectionOf(sdk(a.key).blogs.get('{"$ne":null}/../x?y=1'));
    expect(error).toBeInstanceOf(NotFoundError);
  });
});

describe("errors — typed, with status, request id and attempts, never retried", () => {
  it("a revoked key → AuthenticationError after one attempt, with the server's request id", async () => {
    const { workspaceId } = a;
    const s = stores(t.db);
    const minted = await s.keys.mint(workspaceId, "short-lived");
    const client = sdk(minted.key);
    await client.blogs.list({ limit: 1 });
    await s.keys.revoke(workspaceId, minted.id);
    const recorder = recordingFetch();
    const error = await rejectionOf(
      sdk(minted.key, { fetch: recorder.fetch }).blogs.list({ limit: 1 }),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, attempts: 1 });
    expect(recorder.exchanges).toHaveLength(1);
    const requestId = recorder.exchanges[0]?.responseHeaders?.get("x-request-id");
    expect(requestId).toBeTruthy();
    expect((error as AuthenticationError).requestId).toBe(requestId);
    expect((error as Error).message).toContain("Invalid or missing API key.");
  });

  it("an unknown key → AuthenticationError after one attempt", async () => {
    const recorder = recordingFetch();
    const unknown = `cp_live_${"x".repeat(42)}`;
    const error = await rejectionOf(sdk(unknown, { fetch: recorder.fetch }).blogs.get("b_1"));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, attempts: 1 });
    expect(recorder.exchanges).toHaveLength(1);
  });

  for (const [name, id] of [
    ["a draft", () => a.draft],
    ["a removed blog", () => a.removed],
    ["another workspace's blog", () => b.released[0] ?? ""],
  ] as const) {
    it(`${name} → NotFoundError after one attempt`, async () => {
      const recorder = recordingFetch();
      const error = await rejectionOf(sdk(a.key, { fetch: recorder.fetch }).blogs.get(id()));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, attempts: 1, requestId: expect.any(String) });
      expect((error as Error).message).toContain("Blog not found.");
      expect(recorder.exchanges).toHaveLength(1);
    });
  }

  it("an invalid limit → BadRequestError carrying the server's message", async () => {
    const error = await rejectionOf(sdk(a.key).blogs.list({ limit: 1000 }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, attempts: 1 });
    expect((error as Error).message).toContain("limit must be <= 100");
  });

  it("a bad ID or options are refused before any request", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch });
    await expect(client.blogs.get("")).rejects.toThrow(TypeError);
    await expect(client.blogs.get("..")).rejects.toThrow(TypeError);
    expect(() => createClient({ apiKey: "", baseUrl: server.url })).toThrow(TypeError);
    expect(() => createClient({ apiKey: a.key, baseUrl: "not a url" })).toThrow(TypeError);
    expect(() => createClient({ apiKey: a.key, baseUrl: "ftp://host" })).toThrow(TypeError);
    expect(recorder.exchanges).toHaveLength(0);
  });
});

describe("baseUrl", () => {
  it("accepts the server address with or without /api/consumer and trailing slashes", async () => {
    for (const base of [server.url, `${server.url}/`, `${server.url}/api/consumer/`]) {
      const client = createClient({ apiKey: b.key, baseUrl: base });
      expect(client.baseUrl).toBe(server.url);
      expect((await client.blogs.list()).data.map((x) => x.id)).toEqual(b.released);
    }
  });
});
