import { existsSync, statSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { axeViolations } from "../support/dashboard-axe.js";
import { newestFileTime } from "../support/dashboard-build.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// A key's usage chart in the dashboard, in headless Chromium against the real server: a key
// limited to a few requests (by its owner, in the key's Limit dialog) is used past its limit, and its chart shows the 429s in their own colour (README, "Rate
// limits"; admin.yaml, getKeyUsage).

const DIST_INDEX = "dashboard/dist/index.html";
const OWNER = {
  name: "Ula Usage",
  email: "ula@example.com",
  password: "correct horse battery staple",
  workspaceName: "Usage Newsroom",
};
const KEY_NAME = "Busy website";

let t: TestDb;
let server: TestServer;
let browser: BrowserContext;
let page: Page;

const everyViolation = async () =>
  (await axeViolations(page)).map(
    (v) => `${v.impact} ${v.id}: ${v.help} — ${v.targets.join(", ")}`,
  );

beforeAll(async () => {
  if (!existsSync(DIST_INDEX) || newestFileTime("dashboard/src") > statSync(DIST_INDEX).mtimeMs) {
    throw new Error(`${DIST_INDEX} is missing or stale: npm run build -w dashboard`);
  }
  t = await useTestDb();
  server = await startTestServer(t.db, { LAST_USED_FLUSH_MS: "100" });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
});
afterAll(async () => {
  await browser?.close();
});

describe("dashboard: a key's usage, with its 429s, in Chromium", () => {
  it("a key used past its limit shows its 429s in red in its usage chart; the workspace total counts them; axe finds nothing", async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByLabel("Workspace name").fill(OWNER.workspaceName);
    await page.getByRole("button", { name: "Create account and workspace" }).click();
    // A workspace opens on Blogs (shell.tsx); this test is about its keys.
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "API keys", exact: true }).waitFor();

    // Mint through the admin API with the page's own session.
    const me = (await (await page.request.get(`${server.url}/api/admin/me`)).json()) as {
      workspaces: { id: string }[];
    };
    const ws = me.workspaces[0]?.id ?? "";
    const minted = (await (
      await page.request.post(`${server.url}/api/admin/workspaces/${ws}/keys`, {
        data: { name: KEY_NAME },
        headers: { origin: server.url },
      })
    ).json()) as { key: { id: string }; secret: string };
    // The owner limits the key to 3 requests a day, in the dashboard.
    await page.reload();
    await page.getByRole("button", { name: `Actions for ${KEY_NAME}` }).click();
    await page.getByRole("menuitem", { name: "Set limit" }).click();
    const limitDialog = page.getByRole("dialog", { name: `Rate limit of “${KEY_NAME}”` });
    await limitDialog.getByRole("radiogroup", { name: "Limit" }).getByText("Its own limit").click();
    await limitDialog.getByLabel("Requests").fill("3");
    await limitDialog.getByLabel("Per window of (seconds)").fill("86400");
    await limitDialog.getByRole("button", { name: "Save limit" }).click();
    await limitDialog.waitFor({ state: "detached" });
    await page.getByText(`Limit of “${KEY_NAME}” saved.`).waitFor();

    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${server.url}/api/consumer/blogs`, {
        headers: { "x-api-key": minted.secret },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    // The counts are flushed within LAST_USED_FLUSH_MS.
    const end = Date.now() + 5000;
    while (Date.now() < end) {
      const stored = await t.db
        .collection<{ rateLimited: number }>("keyUsage")
        .findOne({ _id: { $regex: `^${minted.key.id}/d/` } } as never);
      if (stored?.rateLimited === 5) break;
      await new Promise((r) => setTimeout(r, 50));
    }

    await page.reload();
    const total = page.locator("#workspace-usage-title + figure, section.usage figure");
    await page.getByText("8 requests in the last 30 days", { exact: false }).first().waitFor();
    expect(await total.locator('rect[data-outcome="rateLimited"]').count()).toBe(1);
    expect(await everyViolation()).toEqual([]);

    await page.getByRole("button", { name: `Actions for ${KEY_NAME}` }).click();
    await page.getByRole("menuitem", { name: "View usage" }).click();
    const dialog = page.getByRole("dialog", { name: `Usage of “${KEY_NAME}”` });
    await dialog.waitFor();
    const chart = dialog.getByRole("img", { name: /Requests of “Busy website” per day/ });
    await chart.waitFor();
    const limited = chart.locator('rect[data-outcome="rateLimited"]');
    expect(await limited.count()).toBe(1);
    await expect(limited.getAttribute("data-count")).resolves.toBe("5");
    await expect(limited.getAttribute("fill")).resolves.toBe("#b42318");
    await expect(
      chart.locator('rect[data-outcome="served"]').getAttribute("data-count"),
    ).resolves.toBe("3");
    await dialog
      .getByText(
        "8 requests in the last 30 days: 3 served (200, 304), 0 not found (404), 0 other errors, 5 rate limited (429).",
      )
      .waitFor();
    // The numbers, as a table, behind the disclosure.
    await dialog.getByText("Show the numbers").click();
    const row = dialog.locator("tbody tr");
    await expect(row.count()).resolves.toBe(1);
    await expect(row.locator("td").allTextContents()).resolves.toEqual(["3", "0", "0", "5", "0"]);
    expect(await everyViolation()).toEqual([]);

    // Per hour too.
    await dialog.getByLabel("Per hour, last 24 hours").check();
    await dialog.getByRole("img", { name: /per hour/ }).waitFor();
    expect(await dialog.locator('svg[role="img"] rect[data-outcome="rateLimited"]').count()).toBe(
      1,
    );
    expect(await everyViolation()).toEqual([]);
    await page.screenshot({ path: "test-output/dashboard/key-usage.png", fullPage: true });
  });
});
