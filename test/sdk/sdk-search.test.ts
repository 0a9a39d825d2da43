import { beforeAll, describe, expect, it } from "vitest";
import { BadRequestError, createClient, type FetchLike } from "../../sdk/src/index.js";
import { createStores } from "../../server/src/stores.js";
import { type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { recordingFetch, rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// sdk/README.md, "Search": blogs.list({ q }), pages and listAll keep q across pages, against a
// real server; a bad q is the server's 400 as a BadRequestError, a q that is not a string a
// TypeError before any request.
let t: TestDb;
let server: TestServer;
let w: SeededWorkspace;
/** Released blogs about the release notes, newest first. */
const notes: string[] = [];

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  w = await seedWorkspace(t.db, "Searched", 1);
  const s = createStores(t.db);
  for (let i = 0; i < 5; i++) {
    const blog = await s.blogs.create(w.workspaceId, {
      title: i % 2 === 0 ? `Release notes ${i}` : `Something else ${i}`,
      bodyMarkdown: i === 1 ? "These are Release Notes too." : "Other words.",
      release: true,
    });
    if (i !== 3) notes.unshift(blog._id);
    await new Promise((r) => setTimeout(r, 2));
  }
});

const sdk = (fetch?: FetchLike) =>
  createClient({ apiKey: w.key, baseUrl: server.url, ...(fetch ? { fetch } : {}) });

describe("search (sdk/README.md, Search)", () => {
  it("listAll({ q }) keeps q on every page and sees each match once, in the list's order", async () => {
    const recorder = recordingFetch();
    const seen: string[] = [];
    for await (const blog of sdk(recorder.fetch).blogs.listAll({
      q: "Release no",
      limit: 2,
      fields: ["title"],
    })) {
      seen.push(blog.id);
    }
    expect(seen).toEqual(notes);
    const sent = recorder.exchanges.map((e) => new URL(e.request.url).searchParams.get("q"));
    expect(sent).toEqual(["Release no", "Release no"]);
  });

  it("a bad q is a BadRequestError; a q that is not a string a TypeError, unsent", async () => {
    const recorder = recordingFetch();
    const client = sdk(recorder.fetch);
    expect(await rejectionOf(client.blogs.list({ q: "" }))).toBeInstanceOf(BadRequestError);
    const nine = "a b c d e f g h i";
    const refused = await rejectionOf(client.blogs.list({ q: nine }));
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toContain("at most 8 words");
    const sentBefore = recorder.exchanges.length;
    const wrong = { q: 42 } as unknown as { q: string };
    expect(await rejectionOf(client.blogs.list(wrong))).toBeInstanceOf(TypeError);
    expect(recorder.exchanges.length).toBe(sentBefore);
  });
});
