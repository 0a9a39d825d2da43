// Renders are admitted per workspace (README, "Production": the render pool; admin.yaml, the
// Busy and PreviewBusy answers of createBlog, updateBlog and previewBlogBody): one workspace's
// slow bodies cost that workspace alone. Another workspace's saves keep succeeding beside a flood
// of them, and the flooding workspace (or, for previews, the flooding person) is the one refused
// with 503 and Retry-After, past its own limit.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, type AdminResponse, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { fill } from "../support/pathological-markdown.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];

/** RENDER_TIMEOUT_MS of the test server: each slow body holds a thread this long. */
const TIMEOUT_MS = 1000;
/** RENDER_WORKSPACE_PENDING and RENDER_PREVIEW_PER_USER as documented by default. */
const WORKSPACE_PENDING = 8;
const PREVIEW_PER_USER = 2;
/** A body that takes far longer than the limit to render: every render of it times out. */
const SLOW = fill("_a");

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let wsA: string;
let wsB: string;

beforeAll(async () => {
  t = await useTestDb();
  // Two threads, as the default gives a 2-core machine, whatever this machine has.
  server = await startTestServer(t.db, {
    RENDER_TIMEOUT_MS: String(TIMEOUT_MS),
    RENDER_THREADS: "2",
  });
  owner = new AdminClient(server.url);
  wsA = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  wsB = (await owner.post<{ id: string }>("/workspaces", { name: "Flooding tenant" })).body.id;
});

afterAll(async () => {
  await server?.stop();
});

let people = 0;
/** A new member of `ws`, signed in. */
async function member(ws: string): Promise<AdminClient> {
  people += 1;
  const email = `writer${people}@example.com`;
  const password = `password of writer ${people}`;
  const user = await stores(t.db).users.create({ email, name: `Writer ${people}`, password });
  await stores(t.db).workspaces.join(ws, user._id, "member");
  const client = new AdminClient(server.url);
  expect((await client.post("/session", { email, password })).status).toBe(200);
  return client;
}

/** `send` repeated by `parallel` loops until `stop()`; the first 503 resolves `refused`. */
function flood(parallel: number, send: () => Promise<AdminResponse<{ message: string }>>) {
  const answers: AdminResponse<{ message: string }>[] = [];
  let stopping = false;
  let onRefused: () => void = () => {};
  const refused = new Promise<void>((resolve) => {
    onRefused = resolve;
  });
  const loops = Array.from({ length: parallel }, async () => {
    while (!stopping) {
      const res = await send();
      answers.push(res);
      if (res.status === 503) {
        onRefused();
        // Keep the workspace at its limit without spinning on the server.
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  return {
    answers,
    refused,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/**
 * A POST whose body never finishes: its headers promise `declared` bytes, a few are sent, and
 * the rest never are. Resolves with the answer's status line and body if one comes while the
 * body is still unsent (the server refused before reading it), or status 0 after `waitMs`.
 */
function unfinishedPost(
  base: string,
  path: string,
  cookie: string,
  waitMs: number,
): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    let raw = "";
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST /api/admin${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${base}\r\n` +
          `Cookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n` +
          `{"title":"Never finished","bodyMarkdown":"`,
      );
    });
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = "", body = ""] = raw.split("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        retryAfter: /\r\nretry-after: *(\S+)/i.exec(head)?.[1],
        body,
      });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (d: Buffer) => {
      raw += d.toString("utf8");
      const [head, body] = raw.split("\r\n\r\n");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head ?? "")?.[1] ?? Number.NaN);
      if (body !== undefined && Buffer.byteLength(body) >= length) finish();
    });
    socket.on("error", finish);
  });
}

describe("render admission: one workspace's slow bodies cost that workspace alone", () => {
  it("while workspace B floods slow saves, every save of workspace A succeeds promptly and B is refused past its own limit", async () => {
    const b = flood(WORKSPACE_PENDING + 4, () =>
      owner.post<{ message: string }>(`/workspaces/${wsB}/blogs`, {
        title: "Slow",
        bodyMarkdown: SLOW,
      }),
    );
    // B is at its limit before A starts.
    await b.refused;
    const saves: { status: number; ms: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const started = Date.now();
      const res = await owner.post(`/workspaces/${wsA}/blogs`, {
        title: `A's blog ${i}`,
        bodyMarkdown: `Some *text* of blog ${i}.`,
      });
      saves.push({ status: res.status, ms: Date.now() - started });
    }
    await b.stop();

    expect(saves.map((s) => s.status)).toEqual(Array(10).fill(201));
    // A never waits behind B's renders: with them in one queue, each save waited for up to eight
    // of B's (8 s). Generous for a loaded machine: a thread restarting after each of B's
    // timeouts, validators, the database.
    expect(Math.max(...saves.map((s) => s.ms))).toBeLessThan(4 * TIMEOUT_MS);

    const refusals = b.answers.filter((r) => r.status === 503);
    expect(refusals.length).toBeGreaterThan(0);
    for (const r of refusals) {
      expect(r.headers.get("retry-after")).toBe(String(TIMEOUT_MS / 1000));
      expect(r.body).toEqual({
        message: `This workspace already has ${WORKSPACE_PENDING} blog bodies rendering or waiting to render, the most one workspace may have at once; retry shortly.`,
      });
    }
    // Everything else B sent was rendered until the limit and refused: nothing of B's saved.
    for (const r of b.answers.filter((a) => a.status !== 503)) expect(r.status).toBe(422);
    expect(await t.db.collection("blogs").countDocuments({ workspaceId: wsB })).toBe(0);
  }, 120_000);

  it("one person's flood of slow previews is refused past their own limit; another member's preview is rendered", async () => {
    const [bob, carol] = [await member(wsB), await member(wsB)];
    const preview = (client: AdminClient, bodyMarkdown: string) =>
      client.post<{ message: string }>(`/workspaces/${wsB}/blogs/preview`, { bodyMarkdown });
    const flooding = Promise.all(
      Array.from({ length: PREVIEW_PER_USER + 3 }, () => preview(bob, SLOW)),
    );
    const carols = await preview(carol, "Carol's *preview*.");
    const bobs = await flooding;

    expect(carols.status).toBe(200);
    const refused = bobs.filter((r) => r.status === 503);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.headers.get("retry-after")).toBe(String(TIMEOUT_MS / 1000));
      expect(r.body).toEqual({
        message: `You already have ${PREVIEW_PER_USER} previews rendering or waiting to render, the most one person may have at once; retry shortly.`,
      });
    }
    expect(bobs.filter((r) => r.status === 422)).toHaveLength(PREVIEW_PER_USER);
  }, 60_000);
  it("a session repeating a refused request is refused again without a lookup, answered once the Retry-After has passed, then looked up again", async () => {
    const dave = await member(wsB);
    const cookie = dave.cookie;
    const sameSession = () => {
      const client = new AdminClient(server.url);
      client.cookie = cookie;
      return client;
    };
    const preview = (client: AdminClient) =>
      client.post<{ message: string }>(`/workspaces/${wsB}/blogs/preview`, { bodyMarkdown: SLOW });
    // One more of Dave's previews than he may have: the first refusal ends the wait.
    const d = flood(PREVIEW_PER_USER + 1, () => preview(dave));
    await d.refused;
    const refused = d.answers.find((a) => a.status === 503);
    // Signed out (from a copy of the client: Dave's keeps sending the cookie): from now on a
    // lookup of this session says 401.
    expect((await sameSession().delete("/session")).status).toBe(204);

    // The refused request again, at once: its refusal as given, the session not looked up.
    const replayed = await preview(sameSession());
    expect(replayed.status).toBe(503);
    expect(replayed.headers.get("retry-after")).toBe(String(TIMEOUT_MS / 1000));
    expect(replayed.body).toEqual(refused?.body);
    // Another request of the session is looked up as ever.
    expect((await sameSession().get("/me")).status).toBe(401);
    // Answered once the refusal's Retry-After had passed, so the next one is looked up.
    expect((await preview(sameSession())).status).toBe(401);
    await d.stop();
  }, 60_000);

  it("a create or preview of a workspace at its render limit is refused before its body is read; a stranger's body is never read", async () => {
    const b = flood(WORKSPACE_PENDING + 4, () =>
      owner.post<{ message: string }>(`/workspaces/${wsB}/blogs`, {
        title: "Slow",
        bodyMarkdown: SLOW,
      }),
    );
    await b.refused;
    const cookie = owner.cookie ?? "";
    // The body never arrives: only an answer given before reading it can come back at all.
    const [create, preview] = await Promise.all([
      unfinishedPost(server.url, `/workspaces/${wsB}/blogs`, cookie, 10_000),
      unfinishedPost(server.url, `/workspaces/${wsB}/blogs/preview`, cookie, 10_000),
    ]);
    await b.stop();
    for (const answer of [create, preview]) {
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe(String(TIMEOUT_MS / 1000));
      expect(JSON.parse(answer.body)).toEqual({
        message: `This workspace already has ${WORKSPACE_PENDING} blog bodies rendering or waiting to render, the most one workspace may have at once; retry shortly.`,
      });
    }
    // Someone who is not a member of the workspace is answered 404 before the body, too.
    const stranger = await member(wsA);
    const notMember = await unfinishedPost(
      server.url,
      `/workspaces/${wsB}/blogs`,
      stranger.cookie ?? "",
      10_000,
    );
    expect(notMember.status).toBe(404);
  }, 120_000);
});
