// What the browser suites count as a page's problems (test/support/page-problems.ts;
// CONTRIBUTING.md, "A dashboard screen": a screen's test fails on any console error or failed
// request): a request the page's own code cancels, or a missing image, is one; an image still
// loading when a step goes to another page is cancelled by the browser, as for anyone leaving a
// page mid-load, and is not; nor is what a page's timer sends while the next page is on its way,
// cut off as that page takes over. Real Chromium against a real HTTP server.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { type PageProblems, watchPageProblems } from "../support/page-problems.js";

const PAGES: Record<string, string> = {
  "/loading": '<img src="/held.png" alt="held"><img src="/missing.png" alt="missing">',
  "/cancels":
    "<script>const c = new AbortController(); fetch('/held.json', { signal: c.signal }).catch(() => {}); setTimeout(() => c.abort(), 100);</script>",
  "/cancels-in-app":
    "<script>const c = new AbortController(); fetch('/held-in-app.json', { signal: c.signal }).catch(() => {}); setTimeout(() => { history.pushState({}, '', '/cancels-in-app/next'); c.abort(); }, 100);</script>",
  "/polls":
    "<script>setInterval(() => fetch('/late-poll-' + Date.now() + '.json').catch(() => {}), 100);</script>",
  "/other": "<p>Another page</p>",
};
/**
 * Answers sent this late, in ms: a page on its way while the one being left still runs (its polls,
 * every 100 ms, sent meanwhile), and those polls: answered, not held, and about 5 at a time, so
 * that the browser's 6 connections to a host are never all taken.
 */
const LATE_MS = { page: 1000, poll: 500 };
/** Paths of the late requests asked. */
const asked: string[] = [];
/** Answers of requests held open until the test ends, by path. */
const held: { path: string; res: ServerResponse }[] = [];
const server = createServer((req, res) => {
  const path = req.url ?? "/";
  if (path.startsWith("/held")) return void held.push({ path, res });
  if (path === "/other-slowly") {
    return void setTimeout(() => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><title>${path}</title><p>Late</p>`);
    }, LATE_MS.page);
  }
  if (path.startsWith("/late-")) {
    asked.push(path);
    return void setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    }, LATE_MS.poll);
  }
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
  // The missing image's 404 and its console error both reached the test before the page is
  // left: the browser loads the two images side by side, and either may come last.
  const missingAnswered = page.waitForResponse(`${url}/missing.png`);
  const missingLogged = page.waitForEvent("console", (m) => m.text().includes("404"));
  await page.goto(`${url}/loading`, { waitUntil: "domcontentloaded" });
  await heldAsked("/held.png");
  await Promise.all([missingAnswered, missingLogged]);
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

it("what a page sends while the next page is on its way, cut off as that page takes over, is not a problem", async () => {
  await page.goto(`${url}/polls`);
  await expect.poll(() => asked.length, { timeout: 10_000 }).toBeGreaterThan(0);
  const sentMeanwhile: string[] = [];
  const whileOnItsWay = (r: Request) => sentMeanwhile.push(r.url());
  const cutOff: string[] = [];
  const onFailed = (r: Request) => {
    if (r.failure()?.errorText === "net::ERR_ABORTED") cutOff.push(r.url());
  };
  page.on("requestfailed", onFailed);
  const navigation = page.goto(`${url}/other-slowly`);
  await page.waitForEvent("request", (r) => r.url().endsWith("/other-slowly"));
  page.on("request", whileOnItsWay);
  await navigation;
  page.off("request", whileOnItsWay);
  page.off("requestfailed", onFailed);
  // The case this proves happened: polls sent after the navigation started, and cut off.
  const polls = sentMeanwhile.filter((u) => u.includes("/late-poll-"));
  expect(polls.length).toBeGreaterThan(0);
  expect(cutOff.filter((u) => polls.includes(u)).length).toBeGreaterThan(0);
  await problems.assertNoProblems();
});

it("a request the page's own code cancels after a navigation within the app is still a problem", async () => {
  const cancelled = page.waitForEvent("requestfailed");
  await page.goto(`${url}/cancels-in-app`);
  await cancelled;
  await expect.poll(() => new URL(page.url()).pathname).toBe("/cancels-in-app/next");
  problems.expectProblems(
    new RegExp(`^requestfailed GET ${url}/held-in-app\\.json net::ERR_ABORTED$`),
  );
  await problems.assertNoProblems();
});
