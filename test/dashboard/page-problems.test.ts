// What the browser suites count as a page's problems (test/support/page-problems.ts;
// CONTRIBUTING.md, "A dashboard screen": a screen's test fails on any console error or failed
// request): a request the page's own code cancels, or a missing image, is one; an image still
// loading when a step goes to another page is cancelled by the browser, as for anyone leaving a
// page mid-load, and is not. Real Chromium against a real HTTP server.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { type PageProblems, watchPageProblems } from "../support/page-problems.js";

const PAGES: Record<string, string> = {
  "/loading": '<img src="/held.png" alt="held"><img src="/missing.png" alt="missing">',
  "/cancels":
    "<script>const c = new AbortController(); fetch('/held.json', { signal: c.signal }).catch(() => {}); setTimeout(() => c.abort(), 100);</script>",
  "/other": "<p>Another page</p>",
};
/** Answers of requests held open until the test ends, by path. */
const held: { path: string; res: ServerResponse }[] = [];
const server = createServer((req, res) => {
  const path = req.url ?? "/";
  if (path.startsWith("/held")) return void held.push({ path, res });
  const page = PAGES[path];
  res.writeHead(page ? 200 : 404, { "content-type": "text/html" });
  res.end(page ? `<!doctype html><title>${path}</title>${page}` : "");
});
let url = "";
let browser: BrowserContext;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  problems = watchPageProblems(page);
});
afterAll(async () => {
  await browser?.close();
  for (const { res } of held) res.destroy();
  await new Promise((done) => server.close(done));
});

const heldAsked = (path: string) =>
  expect.poll(() => held.some((h) => h.path === path), { timeout: 10_000 }).toBe(true);

it("an image still loading when the page is left is not a problem; a missing one is", async () => {
  await page.goto(`${url}/loading`, { waitUntil: "domcontentloaded" });
  await heldAsked("/held.png");
  await page.goto(`${url}/other`);
  problems.expectProblems(
    new RegExp(`^response 404 GET ${url}/missing\\.png$`),
    /^console\.error Failed to load resource: .*404/,
  );
  await problems.assertNoProblems();
});

it("a request the page's own code cancels is a problem (unless the suite allows it)", async () => {
  const cancelled = page.waitForEvent("requestfailed");
  await page.goto(`${url}/cancels`);
  await cancelled;
  problems.expectProblems(new RegExp(`^requestfailed GET ${url}/held\\.json net::ERR_ABORTED$`));
  await problems.assertNoProblems();
});
