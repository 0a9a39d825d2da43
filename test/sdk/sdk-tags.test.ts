import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  BadRequestError,
  type ClientOptions,
  createClient,
  type ResponseInfo,
  ServerError,
  type TagCount,
} from "../../sdk/src/index.js";
import { type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type FaultServer, ok, startFaultServer } from "../support/sdk-fault-server.js";
import { recordingFetch, recordingSleep, rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// sdk/README.md, "The calls": blogs.list({ tag }) and blogs.listTags().
let t: TestDb;
let server: TestServer;
let fault: FaultServer;
let a: SeededWorkspace;
/** Alpha's released blogs tagged "c++", newest first; and those tagged "go". */
const cpp: string[] = [];
const go: string[] = [];
const sdk = (apiKey: string, extra: Partial<ClientOptions> = {}) =>
  createClient({ apiKey, baseUrl: server.url, ...extra });

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  fault = await startFaultServer();
  a = await seedWorkspace(t.db, "Alpha", 2); // tagged "news"
  const s = stores(t.db);
  for (let i = 0; i < 7; i++) {
    const tags = i % 2 === 0 ? ["c++"] : ["go", "c++"];
    const blog = await s.blogs.create(a.workspaceId, {
      title: `Tagged ${i}`,
      bodyMarkdown: "x",
      tags,
      release: true,
    });
    cpp.unshift(blog._id);
    if (tags.includes("go")) go.unshift(blog._id);
    await new Promise((r) => setTimeout(r, 2));
  }
  await s.blogs.create(a.workspaceId, { title: "Draft", bodyMarkdown: "x", tags: ["hidden"] });
});

describe("blogs.list({ tag }) — released blogs with a tag (sdk/README.md, The calls)", () => {
  it("one tag: only its blogs; several: any of them; as tag=… parameters, sorted and once each", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch, cache: false });
    const one = await client.blogs.list({ tag: "go", limit: 100 });
    expect(one.data.map((b) => b.id)).toEqual(go);
    const many = await client.blogs.list({ tag: ["news", "go", "c++", "go"], limit: 100 });
    expect(many.data.map((b) => b.id)).toEqual([...cpp, ...a.released]);
    const urls = recorder.exchanges.map((e) => new URL(e.request.url).search);
    expect(urls).toEqual(["?limit=100&tag=go", "?limit=100&tag=c%2B%2B&tag=go&tag=news"]);
  });

  it("pages and listAll keep the tag while following the cursor: each tagged blog once", async () => {
    const client = sdk(a.key);
    const seen: string[] = [];
    for await (const blog of client.blogs.listAll({ tag: "c++", limit: 2, fields: ["title"] })) {
      expectTypeOf(blog).toEqualTypeOf<{ id: string; title: string }>();
      seen.push(blog.id);
    }
    expect(seen).toEqual(cpp);
  });

  it("a tag page is revalidated with its own ETag: 304, the cached page, notModified", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch });
    const first = await client.blogs.list({ tag: "go" });
    const plain = await client.blogs.list();
    const second = await client.blogs.list({ tag: ["go"] });
    expect(second.data).toEqual(first.data);
    expect(second.notModified).toBe(true);
    expect(plain.data.length).toBeGreaterThan(first.data.length);
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 200, 304]);
  });

  it("a tag not in normal form → BadRequestError telling the normal form, after one attempt", async () => {
    const recorder = recordingFetch();
    const error = await rejectionOf(
      sdk(a.key, { fetch: recorder.fetch }).blogs.list({ tag: "C++" }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('use "c++"');
    expect(recorder.exchanges).toHaveLength(1);
  });

  it("an empty array or a non-string tag is refused before any request", async () => {
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch });
    await expect(client.blogs.list({ tag: [] })).rejects.toThrow(TypeError);
    await expect(client.blogs.list({ tag: [1 as unknown as string] })).rejects.toThrow(TypeError);
    expect(recorder.exchanges).toHaveLength(0);
  });
});

describe("blogs.listTags — tags of released blogs with counts (sdk/README.md, The calls)", () => {
  it("most used first; drafts never counted; typed as the spec's TagCount", async () => {
    const tags = await sdk(a.key, { cache: false }).blogs.listTags();
    expectTypeOf(tags.data).toEqualTypeOf<TagCount[]>();
    expect(tags).toEqual({
      data: [
        { tag: "c++", count: 7 },
        { tag: "go", count: 3 },
        { tag: "news", count: 2 },
      ],
      notModified: false,
    });
  });

  it("a repeated call is revalidated with the ETag: a bodiless 304 and the cached list", async () => {
    const infos: ResponseInfo[] = [];
    const recorder = recordingFetch();
    const client = sdk(a.key, { fetch: recorder.fetch, onResponse: (i) => infos.push(i) });
    const first = await client.blogs.listTags();
    const second = await client.blogs.listTags();
    expect(second.data).toEqual(first.data);
    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 304]);
    expect(recorder.exchanges[1]?.bodyBytes).toBe(0);
    expect(infos.map((i) => [i.status, i.notModified])).toEqual([
      [200, false],
      [200, true],
    ]);
  });

  it("is retried like every call: a 503 then a 200, and 4 attempts of 500 end in ServerError", async () => {
    const sleep = recordingSleep();
    const client = createClient({
      apiKey: `cp_live_${"r".repeat(42)}`,
      baseUrl: fault.url,
      cache: false,
      sleep: sleep.sleep,
      retry: { jitter: 0 },
    });
    const body = { data: [{ tag: "go", count: 1 }] };
    fault.script({ status: 503, body: { message: "Service unavailable." } }, ok(body));
    expect((await client.blogs.listTags()).data).toEqual(body.data);
    expect(fault.requests.map((r) => r.url)).toEqual(["/api/consumer/tags", "/api/consumer/tags"]);
    expect(sleep.waits).toEqual([250]);
    fault.script({ status: 500, body: { message: "Internal server error." } });
    const error = await rejectionOf(client.blogs.listTags());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, attempts: 4 });
  });
});
