// The SDK's preview (sdk/README.md, "Preview"; openapi.yaml, "Preview"): a `cp_preview_…` key
// (or `preview: true`, which must agree with the key) reads the preview perspective through the
// same typed `blogs` and `changes` calls (a preview sync mirrors the preview perspective); a
// live client exchanges a preview link's token for the blog as edited, typed `Blog`, with
// 400 and 410 as the errors a site must handle.
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  BadRequestError,
  type Blog,
  createClient,
  MemorySyncStore,
  NotFoundError,
  PressroomError,
} from "../../sdk/src/index.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { previewTokens } from "../../server/src/preview/preview-tokens.js";
import { type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let previewKey = "";

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha", 3);
  previewKey = (await stores(t.db).keys.mint(a.workspaceId, "Preview", null, { kind: "preview" }))
    .key;
});

const live = () => createClient({ apiKey: a.key, baseUrl: server.url });
const preview = (extra: { preview?: boolean } = {}) =>
  createClient({ apiKey: previewKey, baseUrl: server.url, ...extra });

describe("a preview key reads the preview perspective through the same typed calls", () => {
  it("drafts are found by a preview client and not by a live one", async () => {
    const client = preview();
    expect(client.preview).toBe(true);
    const draft = await client.blogs.get(a.draft);
    expectTypeOf(draft).toEqualTypeOf<Blog>();
    expect(draft.id).toBe(a.draft);
    const ids: string[] = [];
    for await (const blog of client.blogs.listAll({ limit: 2 })) ids.push(blog.id);
    expect(ids).toContain(a.draft);
    expect(ids).not.toContain(a.removed);
    await expect(live().blogs.get(a.draft)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.blogs.listTags()).data.length).toBeGreaterThan(0);
  });

  it("`preview: true` with a preview key is the same client; with a live key, or false with a preview key, a TypeError", async () => {
    expect(preview({ preview: true }).preview).toBe(true);
    expect(() => createClient({ apiKey: a.key, baseUrl: server.url, preview: true })).toThrow(
      TypeError,
    );
    expect(() => preview({ preview: false })).toThrow(TypeError);
    expect(live().preview).toBe(false);
    // The key never shows, previewing or not.
    expect(JSON.stringify(preview())).toBe(JSON.stringify({ baseUrl: server.url, preview: true }));
    expect(JSON.stringify(preview())).not.toContain(previewKey);
  });

  it("a baseUrl ending in /api/preview or /api/consumer is the same server", async () => {
    for (const base of [`${server.url}/api/preview`, `${server.url}/api/consumer/`]) {
      const client = createClient({ apiKey: previewKey, baseUrl: base });
      expect((await client.blogs.get(a.draft)).id).toBe(a.draft);
    }
  });

  it("a preview client's changes.sync mirrors the preview perspective: the draft too, not the removed blog", async () => {
    const store = new MemorySyncStore();
    const result = await preview().changes.sync({ store });
    expect(result).toMatchObject({ restarted: false });
    expect(store.blogs.has(a.draft)).toBe(true);
    expect(store.blogs.has(a.removed)).toBe(false);
    const live = new MemorySyncStore();
    await createClient({ apiKey: a.key, baseUrl: server.url }).changes.sync({ store: live });
    expect(live.blogs.has(a.draft)).toBe(false);
    expect([...live.blogs.keys()].every((id) => store.blogs.has(id))).toBe(true);
  });
});

describe("previewLinks.exchange: a preview link's token, sent with the site's live key", () => {
  it("answers the blog as edited, typed Blog; a bad token is a BadRequestError, an expired one a 410", async () => {
    const tokens = previewTokens(collections(t.db));
    const { token } = await tokens.mint(a.workspaceId, a.draft);
    const blog = await live().previewLinks.exchange(token);
    expectTypeOf(blog).toEqualTypeOf<Blog>();
    expect(blog.id).toBe(a.draft);

    const bad = await rejectionOf(live().previewLinks.exchange(`${token}x`));
    expect(bad).toBeInstanceOf(BadRequestError);
    const old = await previewTokens(collections(t.db), {
      now: () => Date.now() - 7_200_000,
    }).mint(a.workspaceId, a.draft);
    const expired = await rejectionOf(live().previewLinks.exchange(old.token));
    expect(expired).toBeInstanceOf(PressroomError);
    expect((expired as PressroomError).status).toBe(410);
    await expect(preview().previewLinks.exchange(token)).rejects.toBeInstanceOf(TypeError);
  });
});
