// The connection notice (dashboard/README.md, "Offline": `components/offline-banner.tsx`, above
// every screen), in Chromium against the real server, at 1280×800 and at 390×844: a server that
// does not answer while the browser is online reads "Can't reach Pressroom", not "You are
// offline"; the page checks again by itself in the background (`GET /session`, after 3 s, then
// twice as long each time) and the notice goes by itself once the server answers, with no click;
// the browser offline reads "You are offline", and nothing is asked of the server meanwhile.
import type { Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RECHECK_FIRST_MS } from "../../dashboard/src/components/reconnect.js";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

const ADMIN_API = /\/api\/admin\//;

describe.each(["desktop", "phone"] as const)("the connection notice at %s width", (width) => {
  let s: DashboardSession;
  let page: Page;
  /** The background checks the page sent (GET /api/admin/session), with when they ended. */
  const checks: { at: number; answered: boolean }[] = [];

  beforeAll(async () => {
    s = await openDashboardSession({ shots: "dashboard-offline-recheck", viewport: width });
    page = s.page;
    page.setDefaultTimeout(10_000);
    const isCheck = (r: Request) =>
      r.method() === "GET" && new URL(r.url()).pathname === "/api/admin/session";
    page.on("requestfinished", (r) => {
      if (isCheck(r)) checks.push({ at: Date.now(), answered: true });
    });
    page.on("requestfailed", (r) => {
      if (isCheck(r)) checks.push({ at: Date.now(), answered: false });
    });
  });
  afterEach(async () => {
    await s.browser.setOffline(false);
    await page.unroute(ADMIN_API);
    await s.assertNoProblems();
  });
  afterAll(async () => {
    await s?.close();
  });

  const banner = () => page.locator(".offline-banner");
  const heading = (name: string) => page.getByRole("heading", { name, exact: true });

  it("a server that does not answer reads “Can't reach Pressroom”, and the notice goes by itself once a background check is answered", async () => {
    await page.goto(s.url(`/w/${s.ws}/members`));
    await heading("Members").waitFor();
    await page.route(ADMIN_API, (route) => route.abort("connectionrefused"));
    s.expectProblems(
      /^requestfailed GET .*\/api\/admin\/.* net::ERR_CONNECTION_REFUSED$/,
      /^console\.error Failed to load resource: net::ERR_CONNECTION_REFUSED/,
    );
    const downAt = Date.now();
    await page.getByRole("link", { name: "Webhooks" }).click();
    await heading("Webhooks").waitFor();
    const status = page.getByRole("status").filter({ has: banner() });
    await expect.poll(() => status.textContent()).toContain("Can't reach Pressroom.");
    await expect(status.textContent()).resolves.not.toContain("You are offline");
    await expect(status.textContent()).resolves.toContain(
      "Changes you make will not be saved until the connection is back",
    );
    await s.checkScreen(`${width}-unreachable`);

    // The first background check goes out after RECHECK_FIRST_MS and is not answered either.
    await expect
      .poll(() => checks.filter((c) => c.at > downAt).length, { timeout: RECHECK_FIRST_MS * 3 })
      .toBeGreaterThan(0);
    const first = checks.find((c) => c.at > downAt);
    expect(first?.answered).toBe(false);
    expect((first?.at ?? 0) - downAt).toBeGreaterThanOrEqual(RECHECK_FIRST_MS);
    await expect(banner().count()).resolves.toBe(1);

    // The server answers again: the next check (twice as late) ends the notice, with no click.
    const backAt = Date.now();
    await page.unroute(ADMIN_API);
    await banner().waitFor({ state: "detached", timeout: RECHECK_FIRST_MS * 4 });
    expect(checks.filter((c) => c.at > backAt && c.answered)).toHaveLength(1);
    // What failed meanwhile still offers "Try again", which now loads.
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByText("No endpoints yet.").waitFor();
  }, 60_000);

  it("the browser offline reads “You are offline”, and the page asks the server nothing until it is back", async () => {
    await page.goto(s.url(`/w/${s.ws}/members`));
    await heading("Members").waitFor();
    // The screen's loads done first: going offline would cut them off mid-way.
    await page.getByRole("list", { name: /^Members of / }).waitFor();
    await page.getByText("None. Invited people show here until they join.").waitFor();
    await s.browser.setOffline(true);
    const offlineAt = Date.now();
    const status = page.getByRole("status").filter({ has: banner() });
    await expect.poll(() => status.textContent()).toContain("You are offline.");
    await expect(status.textContent()).resolves.not.toContain("Can't reach Pressroom");
    if (width === "desktop") await s.checkScreen("offline");
    await new Promise((resolve) => setTimeout(resolve, RECHECK_FIRST_MS + 1000));
    expect(checks.filter((c) => c.at > offlineAt)).toEqual([]);
    await s.browser.setOffline(false);
    await banner().waitFor({ state: "detached" });
  }, 30_000);
});
