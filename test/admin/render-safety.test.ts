// No body the admin spec accepts may block the server or take unbounded time (README, "Fair
// sharing between tenants"; admin.yaml, BlogInput.bodyMarkdown).
// Markdown is rendered in worker threads with a time limit (server/src/blogs/render-pool.ts).
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { fill, PATHOLOGICAL } from "../support/pathological-markdown.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];

/** RENDER_TIMEOUT_MS of the test server. */
const TIMEOUT_MS = 1000;
/**
 * What a save may take on top of it here: the request, the validator over 200,000 characters
 * and, after each timed-out render, a fresh worker thread (loaded through tsx in the tests), all
 * on a loaded 2-core machine (up to 9 s seen beside other suites). On the request thread these
 * bodies took 25-50 s each.
 */
const SLACK_MS = 15_000;

let t: TestDb;
let server: TestServer;
let admin: AdminClient;
let ws: string;
let consumer: SeededWorkspace;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { RENDER_TIMEOUT_MS: String(TIMEOUT_MS) });
  admin = new AdminClient(server.url);
  ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  // Another tenant, whose consumers must not notice.
  consumer = await seedWorkspace(t.db, "Other tenant", 5);
});

const blogCount = () => t.db.collection("blogs").countDocuments({ workspaceId: ws });

describe("rendering: bounded time for every body the spec accepts", () => {
  for (const [family, body] of Object.entries(PATHOLOGICAL)) {
    it(`a save of ${family} ends within the render limit: 201, or 422 and nothing saved`, async () => {
      const before = await blogCount();
      const started = Date.now();
      const res = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
        title: family,
        bodyMarkdown: body,
      });
      const took = Date.now() - started;
      expect(took).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      expect([201, 422]).toContain(res.status);
      if (res.status === 422) {
        expect(res.body).toEqual({ message: expect.stringMatching(/Nothing was saved\.$/) });
        expect(await blogCount()).toBe(before);
      } else {
        expect(await blogCount()).toBe(before + 1);
      }
    }, 30_000);
  }

  it("an edit to a body that cannot be rendered in time is 422 and leaves the blog as it was", async () => {
    const created = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
      title: "Kept as it was",
      bodyMarkdown: "Fine *body*.",
    });
    expect(created.status).toBe(201);
    const patched = await admin.patch(
      `/workspaces/${ws}/blogs/${created.body.id}`,
      { bodyMarkdown: fill("_a") },
      ANY_VERSION,
    );
    expect(patched.status).toBe(422);
    expect(patched.body).toEqual({
      message: `bodyMarkdown could not be rendered within ${TIMEOUT_MS} ms. Nothing was saved.`,
    });
    const now = await admin.get<AdminBlog>(`/workspaces/${ws}/blogs/${created.body.id}`);
    expect(now.body).toEqual(created.body);
  });
});

describe("rendering: the nesting limit the spec states", () => {
  const quotes = (depth: number) => `${"> ".repeat(depth)}deep`;
  const lists = (depth: number) =>
    Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- level ${i + 1}`).join("\n");

  it("blockquotes and lists 32 levels deep are saved", async () => {
    for (const body of [quotes(32), lists(32)]) {
      const res = await admin.post(`/workspaces/${ws}/blogs`, {
        title: "Deep",
        bodyMarkdown: body,
      });
      expect(res.status).toBe(201);
    }
  });

  it("33 levels are refused with 422 naming the line, nothing saved", async () => {
    const before = await blogCount();
    const res = await admin.post(`/workspaces/${ws}/blogs`, {
      title: "Too deep",
      bodyMarkdown: `Intro\n\n${quotes(33)}`,
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message:
        "bodyMarkdown nests blockquotes or lists more than 32 levels deep (line 3). Nothing was saved.",
    });
    const list = await admin.post(`/workspaces/${ws}/blogs`, {
      title: "Too deep",
      bodyMarkdown: lists(40),
    });
    expect(list.status).toBe(422);
    expect(await blogCount()).toBe(before);
  });

  it("markers inside fenced code do not count", async () => {
    const res = await admin.post(`/workspaces/${ws}/blogs`, {
      title: "Code",
      bodyMarkdown: `\`\`\`\n${quotes(100)}\n\`\`\`\n`,
    });
    expect(res.status).toBe(201);
  });
});

describe("rendering: consumers are not blocked", () => {
  it("while another tenant saves the slowest body, consumer requests keep answering promptly", async () => {
    // A server whose render limit (3 s) is long beside a consumer request even on a loaded
    // machine: the same database, the same signed-in owner. No consumer rate limit: the loop
    // below sends requests back to back for those 3 s (hundreds once a list takes a few
    // milliseconds), and the key's default 1,200 a minute would answer 429 to the rest.
    const slowLimit = 3000;
    const other = await startTestServer(t.db, {
      RENDER_TIMEOUT_MS: String(slowLimit),
      CONSUMER_RATE_LIMIT: "off",
    });
    const owner = new AdminClient(other.url);
    owner.cookie = admin.cookie;
    const list = () =>
      get(`${other.url}/api/consumer/blogs?limit=5`, { "x-api-key": consumer.key });
    await list(); // warm
    let saveDone = false;
    const save = owner
      .post(`/workspaces/${ws}/blogs`, { title: "Slow", bodyMarkdown: fill("_a") })
      .finally(() => {
        saveDone = true;
      });
    const latencies: number[] = [];
    let answeredDuringSave = 0;
    while (!saveDone) {
      const started = Date.now();
      const res = await list();
      latencies.push(Date.now() - started);
      expect(res.status).toBe(200);
      if (!saveDone) answeredDuringSave++;
    }
    expect((await save).body).toEqual({
      message: `bodyMarkdown could not be rendered within ${slowLimit} ms. Nothing was saved.`,
    });
    // On the request thread this save blocked every consumer for 25-50 s: at most the one or
    // two requests answered before the render began.
    expect(answeredDuringSave).toBeGreaterThanOrEqual(10);
    expect(Math.max(...latencies)).toBeLessThan(slowLimit);
  }, 30_000);
});
