// A signed-in dashboard session in headless Chromium against the real server and database, for
// the browser suites of the dashboard's flows: an owner made through the admin API, the session
// cookie handed to the browser, every problem the page shows a person with the console open
// recorded, and `checkScreen`, which holds a screen to axe and writes its screenshots at both of
// the widths the dashboard is built for.
import { existsSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import type { AppDeps } from "../../server/src/app.js";
import { AdminClient } from "./admin-client.js";
import { launchChromium } from "./chromium.js";
import { axeViolations } from "./dashboard-axe.js";
import { newestFileTime } from "./dashboard-build.js";
import { watchPageProblems } from "./page-problems.js";
import { useTestDb } from "./test-db.js";
import { startTestServer, type TestServer } from "./test-server.js";

const DIST_INDEX = "dashboard/dist/index.html";

/** The two widths every screen is checked at: a desk and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export interface DashboardSessionOptions {
  /** Folder under test-output/ for this suite's screenshots. */
  shots: string;
  /** The owner made by `/setup` (and signed in); defaults below. */
  owner?: { name: string; email: string; password: string; workspaceName: string };
  env?: Record<string, string>;
  extras?: Pick<AppDeps, "testHooks" | "mailer">;
  /** Starting width; default desktop. */
  viewport?: ViewportName;
}

export interface DashboardSession {
  server: TestServer;
  browser: BrowserContext;
  page: Page;
  /** The owner's admin client (its session is the browser's too). */
  owner: AdminClient;
  /** The owner's first workspace. */
  ws: string;
  /** `${server.url}/dashboard` + path. */
  url(path: string): string;
  /**
   * Declares problems the current test provokes on purpose (a refused save…); each must be seen
   * at least once before `assertNoProblems`.
   */
  expectProblems(...patterns: RegExp[]): void;
  /**
   * Fails on any console error or warning, uncaught error, failed request or response ≥ 400 the
   * page showed since the last call that was not declared, or any declared one not seen. Call it
   * in `afterEach`.
   */
  assertNoProblems(): Promise<void>;
  /**
   * At 1280×800 and then 390×844: no sideways scrolling, no axe violation (any impact), and a
   * full-page screenshot `test-output/<shots>/<name>-desktop.png` / `-phone.png`. The viewport
   * is put back as it was.
   */
  checkScreen(name: string): Promise<void>;
  /** Sets the viewport and waits for the layout to follow. */
  setViewport(name: ViewportName): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_OWNER = {
  name: "Fern Owner",
  email: "fern@example.com",
  password: "a long enough password",
  workspaceName: "Fern Weekly",
};

export async function openDashboardSession(
  options: DashboardSessionOptions,
): Promise<DashboardSession> {
  if (!existsSync(DIST_INDEX) || newestFileTime("dashboard/src") > statSync(DIST_INDEX).mtimeMs) {
    throw new Error(`${DIST_INDEX} is missing or stale: npm run build -w dashboard`);
  }
  const shots = `test-output/${options.shots}`;
  await mkdir(shots, { recursive: true });
  const server = await startTestServer(
    (await useTestDb()).db,
    { LAST_USED_FLUSH_MS: "100", ...options.env },
    options.extras,
  );
  const owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>(
    "/setup",
    options.owner ?? DEFAULT_OWNER,
  );
  if (setup.status !== 201 && setup.status !== 200) {
    throw new Error(`setup answered ${setup.status}: ${JSON.stringify(setup.body)}`);
  }
  const ws = setup.body.workspaces[0]?.id ?? "";
  const browser = await launchChromium();
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const [name = "", value = ""] = (owner.cookie ?? "").split("=");
  await browser.addCookies([{ name, value, url: server.url }]);
  const page = await browser.newPage();
  let current: ViewportName = options.viewport ?? "desktop";
  await page.setViewportSize(VIEWPORTS[current]);

  const problems = watchPageProblems(page);
  // Nothing outside the server is ever fetched: a request elsewhere is refused and reported.
  await page.route("**/*", (route) => {
    if (route.request().url().startsWith(server.url)) return route.continue();
    problems.record(`outside request ${route.request().url()}`);
    return route.abort();
  });

  const nextFrame = () =>
    page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
  const setViewport = async (to: ViewportName) => {
    current = to;
    await page.setViewportSize(VIEWPORTS[to]);
    await nextFrame();
  };

  return {
    server,
    browser,
    page,
    owner,
    ws,
    url: (path) => `${server.url}/dashboard${path}`,
    expectProblems: problems.expectProblems,
    assertNoProblems: problems.assertNoProblems,
    async checkScreen(screen) {
      const before = current;
      for (const name of ["desktop", "phone"] as const) {
        await setViewport(name);
        const { width } = VIEWPORTS[name];
        await expect(
          page.evaluate(() => document.documentElement.scrollWidth),
          `${screen} scrolls sideways at ${width} px`,
        ).resolves.toBeLessThanOrEqual(width);
        const found = await axeViolations(page);
        expect(
          found.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.targets.join(", ")}`),
          `axe on ${screen} at ${name} width`,
        ).toEqual([]);
        await page.screenshot({ path: `${shots}/${screen}-${name}.png`, fullPage: true });
      }
      await setViewport(before);
    },
    setViewport,
    async close() {
      await browser.close();
      await server.stop();
    },
  };
}
