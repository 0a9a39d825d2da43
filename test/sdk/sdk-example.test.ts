import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { previewTokens } from "../../server/src/preview/preview-tokens.js";
import { editLive, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { assertBuiltSdk, SDK_DIR } from "../support/sdk-build.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** sdk/examples/sync.ts, run as its README says (tsx, a new process each time). */

const TSX = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));
const SYNC = path.join(SDK_DIR, "examples/sync.ts");

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let dir: string;

function sync(apiKey: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [SYNC, dir],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          PRESSROOM_API_KEY: apiKey,
          PRESSROOM_BASE_URL: server.url,
          PRESSROOM_PAGE_SIZE: "2",
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
      },
    );
  });
}

/** Statuses of the consumer requests the server logged since `from` (its access log). */
function statusesSince(from: number): number[] {
  return server.logLines
    .slice(from)
    .map((line) => JSON.parse(line) as { msg?: string; path?: string; status?: number })
    .filter((entry) => entry.msg === "request" && entry.path === "/api/consumer/changes")
    .map((entry) => entry.status ?? 0);
}

const files = async () => (await readdir(dir)).filter((n) => !n.startsWith(".")).sort();

beforeAll(async () => {
  await assertBuiltSdk();
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Mirror", 5);
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-sync-"));
});

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("examples/sync.ts — a periodic sync on the changes feed", () => {
  it("the first run writes one file per released blog and keeps the feed's token", async () => {
    const from = server.logLines.length;
    const run = await sync(a.key);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toBe(
      `synced ${dir}: written 5, deleted 0, unchanged 0; pages 3, requests 3`,
    );
    expect(await files()).toEqual(a.released.map((id) => `${id}.json`).sort());
    const blog = JSON.parse(await readFile(path.join(dir, `${a.released[0]}.json`), "utf8"));
    expect(blog).toMatchObject({ id: a.released[0], title: "Post 4" });
    expect(statusesSince(from)).toEqual([200, 200, 200]);
    const token = await readFile(path.join(dir, ".pressroom-sync-token"), "utf8");
    expect(token.trim()).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain(a.key.slice(8));
  });

  it("a second process asks only for changes: one request, nothing written", async () => {
    const from = server.logLines.length;
    const run = await sync(a.key);
    expect(run.stdout).toBe(
      `synced ${dir}: written 0, deleted 0, unchanged 0; pages 1, requests 1`,
    );
    expect(statusesSince(from)).toEqual([200]);
  });

  it("a blog edited since the last run is rewritten, and only it", async () => {
    const edited = a.released[2] ?? "";
    await editLive(stores(t.db).blogs, a.workspaceId, edited, { title: "Edited since" });
    const run = await sync(a.key);
    expect(run.stdout).toContain("written 1, deleted 0, unchanged 0; pages 1");
    const file = path.join(dir, `${edited}.json`);
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ title: "Edited since" });
  });

  it("a blog no longer released has its file deleted", async () => {
    const gone = a.released[4] ?? "";
    await stores(t.db).blogs.setStatus(a.workspaceId, gone, "removed");
    const run = await sync(a.key);
    expect(run.stdout).toContain("written 0, deleted 1, unchanged 0");
    expect(await files()).not.toContain(`${gone}.json`);
    expect(await files()).toHaveLength(4);
  });

  it("a failed run exits 1 with the typed error, never the key, and deletes nothing", async () => {
    const s = stores(t.db);
    const minted = await s.keys.mint(a.workspaceId, "revoked soon");
    await s.keys.revoke(a.workspaceId, minted.id);
    const before = await files();
    const run = await sync(minted.key);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^sync failed: AuthenticationError: Invalid or missing API key\./);
    expect(run.stderr).not.toContain(minted.key.slice(8));
    expect(await files()).toEqual(before);
  });
});

/** sdk/examples/preview-route.ts, run as its header says, on a port of its own. */
describe("examples/preview-route.ts — a site's preview route", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill();
  });

  it("renders a preview link's blog as edited, never cached, and refuses bad or expired tokens", async () => {
    child = spawn(TSX, [path.join(SDK_DIR, "examples/preview-route.ts")], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        PRESSROOM_API_KEY: a.key,
        PRESSROOM_BASE_URL: server.url,
        PORT: "0",
      },
    });
    const origin = await new Promise<string>((resolve, reject) => {
      let out = "";
      child?.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        const port = /localhost:(\d+)/.exec(out)?.[1];
        if (port !== undefined) resolve(`http://127.0.0.1:${port}`);
      });
      child?.once("exit", (code) => reject(new Error(`preview-route exited ${code}`)));
    });
    const s = stores(t.db);
    const draft = await s.blogs.create(a.workspaceId, {
      title: "Draft <with> markup",
      bodyMarkdown: "Unpublished **words**.",
    });
    const tokens = previewTokens(collections(t.db));
    const { token } = await tokens.mint(a.workspaceId, draft._id);
    const page = await fetch(`${origin}/api/preview?slug=${draft.slug}&token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await page.text();
    expect(html).toContain("<h1>Draft &#60;with&#62; markup</h1>");
    expect(html).toContain("<strong>words</strong>");

    expect((await fetch(`${origin}/api/preview?token=${token}x`)).status).toBe(400);
    const expired = await previewTokens(collections(t.db), {
      now: () => Date.now() - 7_200_000,
    }).mint(a.workspaceId, draft._id);
    const gone = await fetch(`${origin}/api/preview?token=${expired.token}`);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toMatch(/open the preview again/);
  });
});
