// Imported blogs in the dashboard (README, "Import and export"): after
// `pressroom import` the Blogs screen, in headless Chromium, lists the imported titles.
import { existsSync, statSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { launchChromium } from "../support/chromium.js";
import { runCli } from "../support/cli.js";
import { newestFileTime } from "../support/dashboard-build.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const DIST_INDEX = "dashboard/dist/index.html";
const at = "2026-03-01T10:00:00.000Z";
const entry = (id: string, title: string, status: "released" | "draft") => ({
  id,
  slug: id,
  title,
  status,
  bodyMarkdown: `The body of ${title}.`,
  excerpt: null,
  tags: ["imported"],
  authorName: "Ada",
  coverImageUrl: null,
  createdAt: at,
  updatedAt: at,
  releasedAt: status === "released" ? at : null,
  removedAt: null,
});

let t: TestDb;
let server: TestServer;
let browser: BrowserContext;
let owner: AdminClient;
let ws: string;

beforeAll(async () => {
  if (!existsSync(DIST_INDEX) || newestFileTime("dashboard/src") > statSync(DIST_INDEX).mtimeMs) {
    throw new Error(`${DIST_INDEX} is missing or stale: npm run build -w dashboard`);
  }
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ws =
    (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]?.id ??
    "";
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** `pressroom import --workspace ws …args`, then the owner's Blogs screen in Chromium. */
async function importAndOpenBlogs(args: string[]): Promise<Page> {
  const result = await runCli(["import", "--workspace", ws, ...args], {
    MONGODB_URI: t.uri,
    MONGODB_DB: t.name,
  });
  expect(result.code, result.stderr).toBe(0);
  const [name = "", value = ""] = (owner.cookie ?? "").split("=");
  await browser.addCookies([{ name, value, url: server.url }]);
  const page = await browser.newPage();
  await page.goto(`${server.url}/dashboard/w/${ws}/blogs`);
  await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
  return page;
}

describe("happy: imported blogs appear on the dashboard's Blogs screen", () => {
  it("lists an imported released blog and an imported draft by title", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "pressroom-dash-import-"));
    const file = path.join(dir, "ws.json");
    await writeFile(
      file,
      JSON.stringify({
        format: "pressroom.workspace-export",
        version: 1,
        blogs: [
          entry("imported-one", "Imported from the archive", "released"),
          entry("imported-two", "An imported draft", "draft"),
        ],
      }),
    );
    const page = await importAndOpenBlogs([file]);
    await page.getByText("Imported from the archive").first().waitFor({ timeout: 10_000 });
    await page.getByText("An imported draft").first().waitFor({ timeout: 10_000 });
  });

  it("lists the posts of a real Ghost export, published and draft alike, and none of its pages", async () => {
    const ghost = fileURLToPath(new URL("../fixtures/ghost-6.65-export.json", import.meta.url));
    const page = await importAndOpenBlogs(["--from", "ghost", ghost]);
    // A published post (released) and a draft, each by its Ghost title.
    await page.getByText("Hello, world").first().waitFor({ timeout: 10_000 });
    await page.getByText("Draft: roadmap").first().waitFor({ timeout: 10_000 });
    expect(await page.getByText("About this site").count()).toBe(0); // a Ghost page
  });
});
