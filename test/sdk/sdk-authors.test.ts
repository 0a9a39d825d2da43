import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  type Author,
  BadRequestError,
  createClient,
  type FetchLike,
  NotFoundError,
} from "../../sdk/src/index.js";
import { createStores } from "../../server/src/stores.js";
import { type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { recordingFetch, rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// sdk/README.md, "Authors": Blog.authors, authors.list(), authors.getBySlug(slug) and
// blogs.list({ author }), against a real server.
let t: TestDb;
let server: TestServer;
let w: SeededWorkspace;
/** Released blogs naming Ada, newest first. */
const byAda: string[] = [];

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  w = await seedWorkspace(t.db, "Authored", 1);
  const s = createStores(t.db);
  const ada = await s.authors.create(w.workspaceId, { name: "Ada Lovelace" });
  const grace = await s.authors.create(w.workspaceId, { name: "Grace Hopper" });
  for (let i = 0; i < 5; i++) {
    const blog = await s.blogs.create(w.workspaceId, {
      title: `By Ada ${i}`,
      bodyMarkdown: "x",
      authorIds: i % 2 === 0 ? [ada._id] : [grace._id, ada._id],
      release: true,
    });
    byAda.unshift(blog._id);
    await new Promise((r) => setTimeout(r, 2));
  }
});

const sdk = (fetch?: FetchLike) =>
  createClient({ apiKey: w.key, baseUrl: server.url, ...(fetch ? { fetch } : {}) });

describe("authors (sdk/README.md, Authors)", () => {
  it("authors.list() lists them by name, typed, and a repeat is a 304 from the cache", async () => {
    const client = sdk();
    const first = await client.authors.list();
    expect(first.data.map((a) => a.slug)).toEqual(["ada-lovelace", "grace-hopper"]);
    expect(first.notModified).toBe(false);
    expectTypeOf(first.data).toEqualTypeOf<Author[]>();
    expect((await client.authors.list()).notModified).toBe(true);
  });

  it("authors.getBySlug: the author; NotFoundError for a slug none has; BadRequestError for no slug", async () => {
    const client = sdk();
    expect((await client.authors.getBySlug("grace-hopper")).name).toBe("Grace Hopper");
    expect(await rejectionOf(client.authors.getBySlug("nobody"))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(client.authors.getBySlug("Not A Slug"))).toBeInstanceOf(
      BadRequestError,
    );
    expect(await rejectionOf(client.authors.getBySlug(""))).toBeInstanceOf(TypeError);
  });

  it("blogs.listAll({ author }) keeps the author across pages; fields narrow to authors", async () => {
    const recorder = recordingFetch();
    const client = sdk(recorder.fetch);
    const seen: string[] = [];
    for await (const blog of client.blogs.listAll({
      author: "ada-lovelace",
      limit: 2,
      fields: ["authors"],
    })) {
      expectTypeOf(blog).toEqualTypeOf<{ id: string; authors: Author[] }>();
      expect(blog.authors.some((a) => a.slug === "ada-lovelace")).toBe(true);
      seen.push(blog.id);
    }
    expect(seen).toEqual(byAda);
    const urls = recorder.exchanges.map((e) => new URL(e.request.url).searchParams.get("author"));
    expect(urls).toEqual(["ada-lovelace", "ada-lovelace", "ada-lovelace"]);
  });
});
