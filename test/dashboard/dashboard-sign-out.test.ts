// Signing out while the screen still loads: the requests on their way are answered before the
// session ends, so none comes back 401 — no failed request in the console of an ordinary sign-out
// (dashboard/README.md, "Tests": no console error or failed request in a normal session).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

let s: DashboardSession;
beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-sign-out" });
});
afterEach(() => s.assertNoProblems());
afterAll(() => s?.close());

describe("sign out", () => {
  it("Sign out while the keys screen's usage is still on its way: it is answered, not refused with 401", async () => {
    const { page } = s;
    let held = 0;
    // The usage request reaches the server only after the click: without the wait, after the
    // session has ended.
    await page.route("**/api/admin/workspaces/*/usage", async (route) => {
      held++;
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.goto(s.url(`/w/${s.ws}/keys`));
    await page.getByRole("heading", { name: "API keys", exact: true }).waitFor();
    await expect.poll(() => held).toBeGreaterThan(0);
    const usage = page.waitForResponse((r) => r.url().endsWith("/usage"));
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("You have signed out.").waitFor();
    expect((await usage).status()).toBe(200);
    await page.unroute("**/api/admin/workspaces/*/usage");
  });
});
