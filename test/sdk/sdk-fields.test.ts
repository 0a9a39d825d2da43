import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  BadRequestError,
  type Blog,
  type BlogPage,
  type ClientOptions,
  createClient,
  type PressroomClient,
} from "../../sdk/src/index.js";
import { editLive, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { recordingFetch, rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// sdk/README.md, "Choosing fields"; openapi.yaml, "Choosing fields".
let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
const sdk = (extra: Partial<ClientOptions> = {}): PressroomClient =>
  createClient({ apiKey: a.key, baseUrl: server.url, ...extra });
const firstId = () => a.released[0] ?? "";

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha", 5);
});

describe("blogs.list/get with fields (sdk/README.md): only the fields asked for, and id", () => {
  it("list({ fields }) returns partial blogs typed Pick<Blog, F | 'id'>", async () => {
    const page = await sdk().blogs.list({ limit: 2, fields: ["slug", "title"] });
    expectTypeOf(page.data[0]).toEqualTypeOf<Pick<Blog, "id" | "slug" | "title"> | undefined>();
    expect(page.data.map((b) => Object.keys(b))).toEqual([
      ["id", "slug", "title"],
      ["id", "slug", "title"],
    ]);
    expect(page.data.map((b) => b.id)).toEqual(a.released.slice(0, 2));
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("get(id, { fields }) returns a partial blog; a const tuple of names narrows the same way", async () => {
    const names = ["title", "updatedAt"] as const;
    const blog = await sdk().blogs.get(firstId(), { fields: names });
    expectTypeOf(blog).toEqualTypeOf<Pick<Blog, "id" | "title" | "updatedAt">>();
    expect(Object.keys(blog)).toEqual(["id", "title", "updatedAt"]);
    const whole = await sdk().blogs.get(firstId());
    expect(blog).toEqual({ id: whole.id, title: whole.title, updatedAt: whole.updatedAt });
  });

  it("without fields the types are the whole Blog and BlogPage, as before", async () => {
    const client = sdk();
    expectTypeOf(await client.blogs.get(firstId())).toEqualTypeOf<Blog>();
    expectTypeOf(await client.blogs.list()).toEqualTypeOf<BlogPage>();
  });

  it("the presentation fields narrow like any other, and list() takes featured and an archive range", async () => {
    const recorder = recordingFetch();
    const client = sdk({ fetch: recorder.fetch, cache: false });
    const page = await client.blogs.list({
      featured: false,
      releasedAfter: new Date("2000-01-01T00:00:00Z"),
      releasedBefore: "2100-01-01T00:00:00Z",
      fields: ["metaTitle", "featured", "readingTimeMinutes"],
    });
    expectTypeOf(page.data[0]).toEqualTypeOf<
      Pick<Blog, "id" | "featured" | "metaTitle" | "readingTimeMinutes"> | undefined
    >();
    expect(page.data.map((b) => b.id)).toEqual(a.released);
    expect(page.data[0]).toEqual({
      id: firstId(),
      featured: false,
      metaTitle: null,
      readingTimeMinutes: 1,
    });
    const sent = new URL(recorder.exchanges[0]?.request.url ?? "").searchParams;
    expect(Object.fromEntries(sent)).toEqual({
      featured: "false",
      releasedAfter: "2000-01-01T00:00:00.000Z",
      releasedBefore: "2100-01-01T00:00:00Z",
      fields: "id,featured,metaTitle,readingTimeMinutes",
    });
    await expect(client.blogs.list({ releasedAfter: new Date("nope") })).rejects.toThrow(TypeError);
  });

  it("fields: [] asks for id alone", async () => {
    const page = await sdk().blogs.list({ limit: 1, fields: [] });
    expect(page.data).toEqual([{ id: firstId() }]);
  });

  it("listAll({ fields }) walks every page with the same fields", async () => {
    const seen: string[] = [];
    for await (const blog of sdk().blogs.listAll({ limit: 2, fields: ["slug"] })) {
      expectTypeOf(blog).toEqualTypeOf<Pick<Blog, "id" | "slug">>();
      expect(Object.keys(blog)).toEqual(["id", "slug"]);
      seen.push(blog.id);
    }
    expect(seen).toEqual(a.released);
  });

  it("fields go out in the spec's order, each once, id first: one set is one URL", async () => {
    const recorder = recordingFetch();
    const client = sdk({ fetch: recorder.fetch, cache: false });
    await client.blogs.get(firstId(), { fields: ["title", "slug", "title"] });
    await client.blogs.list({ fields: ["updatedAt", "id", "slug"] });
    const queries = recorder.exchanges.map((x) =>
      new URL(x.request.url).searchParams.get("fields"),
    );
    expect(queries).toEqual(["id,slug,title", "id,slug,updatedAt"]);
  });

  it("an unknown name (from untyped code) is the server's BadRequestError naming it", async () => {
    const untyped = { fields: ["title", "workspaceId"] } as unknown as { fields: ["title"] };
    const error = await rejectionOf(sdk().blogs.list(untyped));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(
      /^Unknown field\(s\) in fields: workspaceId\. \(HTTP 400/,
    );
  });
});

describe("the ETag cache with fields (sdk/README.md): the field set is part of the entry", () => {
  it("each field set is cached apart: a 304 only ever reuses the same set's body", async () => {
    const recorder = recordingFetch();
    const client = sdk({ fetch: recorder.fetch });
    const partial = await client.blogs.get(firstId(), { fields: ["title"] });
    const whole = await client.blogs.get(firstId());
    expect(Object.keys(partial)).toEqual(["id", "title"]);
    expect(whole.bodyHtml).toEqual(expect.any(String));
    expect(recorder.exchanges.map((x) => x.status)).toEqual([200, 200]);
    const again = await client.blogs.get(firstId(), { fields: ["title", "title"] });
    const wholeAgain = await client.blogs.get(firstId());
    expect(recorder.exchanges.map((x) => x.status)).toEqual([200, 200, 304, 304]);
    expect(again).toEqual(partial);
    expect(wholeAgain).toEqual(whole);
  });

  it("an edit changes the partial blog's ETag: the cache gets the new fields", async () => {
    const s = stores(t.db);
    const { workspaceId, released, key } = await seedWorkspace(t.db, "Edited", 1);
    const id = released[0] ?? "";
    const client = createClient({ apiKey: key, baseUrl: server.url });
    expect((await client.blogs.get(id, { fields: ["title"] })).title).toBe("Post 0");
    await editLive(s.blogs, workspaceId, id, { title: "Renamed" });
    expect(await client.blogs.get(id, { fields: ["title"] })).toEqual({ id, title: "Renamed" });
  });
});
