import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import type { ChangePage } from "../../server/src/platform/http/consumer-types.js";
import { Mirror, releasedBlogs, signedToken } from "../support/changes-mirror.js";
import { editLive, get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let ws: SeededWorkspace;
let other: SeededWorkspace;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  ws = await seedWorkspace(t.db, "changes", 5);
  other = await seedWorkspace(t.db, "changes other", 2);
});

const changes = (key: string, query = "") =>
  get(`${server.url}/api/consumer/changes${query === "" ? "" : `?${query}`}`, { "x-api-key": key });

const post = (i: number) => ({ title: `Feed ${i}`, bodyMarkdown: `Body ${i}.` });

describe('changes feed, happy paths (openapi.yaml, "Syncing a mirror")', () => {
  it("a first sync without since returns the current released set as upserts, and nothing else", async () => {
    const mirror = new Mirror(server.url, ws.key);
    await mirror.drain();
    expect(mirror.sorted()).toEqual(await releasedBlogs(server.url, ws.key));
    expect([...mirror.blogs.keys()].sort()).toEqual([...ws.released].sort());
  });

  it("a first sync in pages of 2 walks every released blog once and then reports hasMore: false", async () => {
    const seen: string[] = [];
    let token: string | undefined;
    for (;;) {
      const res = await changes(ws.key, `limit=2${token === undefined ? "" : `&since=${token}`}`);
      expect(res.status).toBe(200);
      const page = res.body as ChangePage;
      expect(page.changes.length).toBeLessThanOrEqual(2);
      for (const c of page.changes) if (c.type === "upsert") seen.push(c.blog.id);
      token = page.nextToken;
      if (!page.hasMore) break;
    }
    expect(seen.sort()).toEqual([...ws.released].sort());
  });

  it("an unchanged workspace answers an empty page, hasMore false, never cached, in a few hundred bytes", async () => {
    const mirror = new Mirror(server.url, ws.key);
    await mirror.drain();
    const res = await changes(ws.key, `since=${mirror.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ changes: [], hasMore: false });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("etag")).toBeNull();
    expect(res.text.length).toBeLessThan(400);
  });

  it("edits, unreleases, removals and re-releases reach the mirror; draft edits never appear", async () => {
    const s = stores(t.db);
    const kept = await s.blogs.create(ws.workspaceId, { ...post(1), release: true });
    const pulled = await s.blogs.create(ws.workspaceId, { ...post(2), release: true });
    const removed = await s.blogs.create(ws.workspaceId, { ...post(3), release: true });
    const draft = await s.blogs.create(ws.workspaceId, post(4));
    const mirror = new Mirror(server.url, ws.key);
    await mirror.drain();

    await editLive(s.blogs, ws.workspaceId, kept._id, { title: "Feed 1, edited" });
    await s.blogs.setStatus(ws.workspaceId, pulled._id, "draft");
    await s.blogs.setStatus(ws.workspaceId, removed._id, "removed");
    await editLive(s.blogs, ws.workspaceId, draft._id, { title: "Still a draft" });
    const page = await mirror.step();
    expect(page.hasMore).toBe(false);
    const byId = new Map(page.changes.map((c) => [c.type === "upsert" ? c.blog.id : c.id, c]));
    expect(byId.get(kept._id)).toMatchObject({ type: "upsert", blog: { title: "Feed 1, edited" } });
    expect(byId.get(pulled._id)).toMatchObject({ type: "delete", id: pulled._id });
    expect(byId.get(removed._id)).toMatchObject({ type: "delete", id: removed._id });
    expect(byId.has(draft._id)).toBe(false);
    expect(page.changes).toHaveLength(3);
    const deleted = page.changes.find((c) => c.type === "delete" && c.id === removed._id);
    expect(deleted?.type === "delete" && Number.isNaN(Date.parse(deleted.at))).toBe(false);

    await s.blogs.setStatus(ws.workspaceId, pulled._id, "released");
    await mirror.drain();
    expect(mirror.sorted()).toEqual(await releasedBlogs(server.url, ws.key));
    expect(mirror.blogs.has(pulled._id)).toBe(true);
  });

  it("a blog edited many times between two calls comes once, as it is at the call", async () => {
    const s = stores(t.db);
    const blog = await s.blogs.create(ws.workspaceId, { ...post(5), release: true });
    const mirror = new Mirror(server.url, ws.key);
    await mirror.drain();
    for (let i = 0; i < 5; i++)
      await editLive(s.blogs, ws.workspaceId, blog._id, { title: `v${i}` });
    const page = await mirror.step();
    expect(page.changes).toEqual([
      { type: "upsert", blog: expect.objectContaining({ id: blog._id, title: "v4" }) },
    ]);
  });

  it("changes made during a first walk come after it: the mirror still ends equal", async () => {
    const s = stores(t.db);
    const mirror = new Mirror(server.url, ws.key, 2);
    await mirror.step(); // first page of the walk
    const fresh = await s.blogs.create(ws.workspaceId, { ...post(6), release: true });
    const [first] = await releasedBlogs(server.url, ws.key);
    if (first === undefined) throw new Error("no released blog");
    await editLive(s.blogs, ws.workspaceId, ws.released[4] ?? "", { title: "edited mid-walk" });
    await s.blogs.setStatus(ws.workspaceId, fresh._id, "draft");
    await mirror.drain();
    expect(mirror.sorted()).toEqual(await releasedBlogs(server.url, ws.key));
  });
});

describe("changes feed, bad input: 400 or 410 with a message, never a 500 (openapi.yaml, listChanges)", () => {
  const INVALID =
    "Invalid query parameter since: pass a nextToken unchanged, or call without since to start over.";

  it("an edited, forged or cut token is a 400 with one message", async () => {
    const mirror = new Mirror(server.url, ws.key);
    await mirror.drain();
    const token = mirror.token ?? "";
    const [payload = "", mac = ""] = token.split(".");
    const edited = Buffer.from(payload, "base64url")
      .toString("utf8")
      .replace(/,(\d+),/, ",0,");
    const tries = [
      `${Buffer.from(edited).toString("base64url")}.${mac}`,
      // The MAC's first character changed: its first byte differs whatever the MAC is (a
      // fixed ending such as "AA" is the MAC itself once in 256 tokens).
      `${payload}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`,
      `${payload}.${mac.slice(0, 10)}`,
      `${payload}.${Buffer.alloc(16).toString("base64url")}`,
      `${Buffer.from("[1]").toString("base64url")}.${mac}`,
    ];
    for (const since of tries) {
      const res = await changes(ws.key, `since=${since}`);
      expect(res.status, since).toBe(400);
      expect(res.body).toEqual({ message: INVALID });
    }
  });

  it("a token of another workspace is a 400, never a read of that workspace", async () => {
    const theirs = new Mirror(server.url, other.key);
    await theirs.drain();
    const res = await changes(ws.key, `since=${theirs.token}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: INVALID });
  });

  it("a token older than the retention is a 410 telling the client to start again", async () => {
    const old = Date.now() - 31 * 86_400_000;
    const res = await changes(
      ws.key,
      `since=${await signedToken(t.db, { workspaceId: ws.workspaceId, seq: 1, since: old })}`,
    );
    expect(res.status).toBe(410);
    expect((res.body as { message: string }).message).toMatch(/expired.*without since/);
  });

  it("a token from the future or past the end of the feed is a 400", async () => {
    const { workspaceId } = ws;
    const future = await signedToken(t.db, { workspaceId, seq: 1, since: Date.now() + 3_600_000 });
    const ahead = await signedToken(t.db, { workspaceId, seq: 999_999, since: Date.now() });
    for (const since of [future, ahead]) {
      const res = await changes(ws.key, `since=${since}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: INVALID });
    }
  });

  it("malformed parameters are refused: since twice, empty, not a token, limit out of range, unknown names", async () => {
    const mirror = new Mirror(server.url, ws.key);
    await mirror.drain();
    for (const query of [
      `since=${mirror.token}&since=${mirror.token}`,
      "since=",
      "since=not-a-token",
      `since=${"a".repeat(300)}.${"b".repeat(200)}`,
      "limit=0",
      "limit=101",
      "limit=1e2",
      "cursor=abc",
      "tag=news",
    ]) {
      const res = await changes(ws.key, query);
      expect(res.status, query).toBe(400);
      expect(typeof (res.body as { message: unknown }).message).toBe("string");
    }
  });
});

describe("changes feed, security", () => {
  it("without a valid key: the seed's 401", async () => {
    const attempts: Record<string, string>[] = [{}, { "x-api-key": "cp_live_nope" }];
    for (const headers of attempts) {
      const res = await get(`${server.url}/api/consumer/changes`, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Invalid or missing API key." });
    }
  });

  it("never names a draft, nor another workspace's blog, in any change", async () => {
    const s = stores(t.db);
    const mirror = new Mirror(server.url, ws.key);
    await mirror.drain();
    const draft = await s.blogs.create(ws.workspaceId, post(7));
    await editLive(s.blogs, ws.workspaceId, draft._id, { title: "draft edit" });
    await s.blogs.setStatus(ws.workspaceId, draft._id, "removed");
    const foreign = await s.blogs.create(other.workspaceId, { ...post(8), release: true });
    await s.blogs.setStatus(other.workspaceId, foreign._id, "draft");
    const page = await mirror.step();
    const named = page.changes.map((c) => (c.type === "upsert" ? c.blog.id : c.id));
    expect(named).not.toContain(draft._id);
    expect(named).not.toContain(foreign._id);
    expect(named).not.toContain(other.released[0]);
  });

  it("the token key stays in the database: no response or log line carries it", async () => {
    const marker = await collections(t.db).markers.findOne({ _id: "changes-token-key" });
    expect(marker?.value).toBeDefined();
    const res = await changes(ws.key);
    expect(res.text).not.toContain(marker?.value);
    expect(server.logLines.join("\n")).not.toContain(marker?.value);
  });
});
