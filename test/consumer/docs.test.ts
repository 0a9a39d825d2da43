import { mkdir } from "node:fs/promises";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { get } from "../support/fixtures.js";
import { useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let server: TestServer;
let browser: BrowserContext;

beforeAll(async () => {
  server = await startTestServer((await useTestDb()).db);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("consumer docs", () => {
  it("the root address leads people to the dashboard", async () => {
    const res = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard/");
  });

  it("serves the spec at /openapi.yaml", async () => {
    const res = await get(`${server.url}/openapi.yaml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/yaml/);
    expect(res.text).toContain("operationId: listBlogs");
  });

  it("/docs renders every operation in headless Chromium with the network off", async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    // Only this server is reachable: anything else the page asks for is recorded and refused.
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(server.url) || url.startsWith("data:") || url.startsWith("blob:")) {
        return route.continue();
      }
      outside.push(url);
      return route.abort();
    });
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    const res = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"]).toContain("default-src 'none'");
    await page.getByText("List released blogs").first().waitFor({ timeout: 15_000 });
    await page.getByText("Get one released blog").first().waitFor({ timeout: 15_000 });
    // The operations are listed under the Blogs tag of the menu, each rendered when opened.
    await page.getByText("Blogs", { exact: true }).first().click();
    for (const summary of [
      "List released blogs",
      "Get one released blog",
      "Get one released blog by its slug",
      "List the tags of released blogs",
    ]) {
      await page.getByText(summary, { exact: true }).first().waitFor({ timeout: 15_000 });
    }
    await page.getByText("Get one released blog by its slug", { exact: true }).first().click();
    await page
      .getByRole("heading", { name: "Get one released blog by its slug" })
      .waitFor({ timeout: 15_000 });
    await page.getByText("/blogs/by-slug/{slug}").first().waitFor({ timeout: 15_000 });
    // listTags' page, with its path and the examples of its answer; listBlogs' tag parameter.
    await page.getByText("List the tags of released blogs", { exact: true }).first().click();
    await page
      .getByRole("heading", { name: "List the tags of released blogs" })
      .waitFor({ timeout: 15_000 });
    await page.getByText("/tags", { exact: true }).first().waitFor({ timeout: 15_000 });
    // The changes feed, under its own tag, with its examples (first call, removal, unchanged).
    await page.getByText("Sync", { exact: true }).first().click();
    await page
      .getByText("Changes since a token (incremental sync)", { exact: true })
      .first()
      .click();
    await page
      .getByRole("heading", { name: "Changes since a token (incremental sync)" })
      .waitFor({ timeout: 15_000 });
    await page.getByText("/changes").first().waitFor({ timeout: 15_000 });
    await page.getByText("Syncing a mirror").first().waitFor({ timeout: 15_000 });
    await expect(page.title()).resolves.toContain("Pressroom");
    await mkdir("test-output", { recursive: true });
    await page.screenshot({ path: "test-output/docs.png", fullPage: false });
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
