// The keys screen keeping its state true and addressable (dashboard/README.md, "API keys": keys
// refresh "so “last used” moves without a reload", each row's actions in an "Actions for <key>"
// menu; `router.ts`: every screen's address can be reloaded and shared), in Chromium against the
// real server, at 1280×800 and at 390×844: the usage dialog asks again while it is open; a
// revoke shows in the rolling panel at once; a key's expiry says its exact date and time; the
// status filter is in the address, so a reload and Back keep it; a rolled key and its successor
// (one name) have menus with different names. Each state is held to axe.
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

type MintedKey = components["schemas"]["MintedKey"];
const DAY = 86_400_000;

describe.each(["desktop", "phone"] as const)("the keys screen at %s width", (width) => {
  let s: DashboardSession;
  let page: Page;

  beforeAll(async () => {
    s = await openDashboardSession({ shots: "dashboard-keys-screen-state", viewport: width });
    page = s.page;
    page.setDefaultTimeout(10_000);
  });
  afterEach(async () => {
    await s.assertNoProblems();
  });
  afterAll(async () => {
    await s?.close();
  });

  const mint = async (name: string, expiresAt?: string) => {
    const made = await s.owner.post<MintedKey>(`/workspaces/${s.ws}/keys`, { name, expiresAt });
    expect(made.status).toBe(201);
    return made.body;
  };
  const open = async (query = "") => {
    await page.goto(s.url(`/w/${s.ws}/keys${query}`));
    await page.getByRole("heading", { name: "API keys", exact: true }).waitFor();
  };
  const menuOf = (key: MintedKey["key"]) =>
    page.getByRole("button", { name: `Actions for ${key.name} (${key.prefix}…)`, exact: true });
  const choose = async (key: MintedKey["key"], item: string) => {
    await menuOf(key).click();
    await page.getByRole("menuitem", { name: item }).click();
  };
  const filter = () => page.getByRole("radiogroup", { name: "Show keys" });
  const radio = (name: string) => filter().getByRole("radio", { name });
  const check = (name: string) => (width === "desktop" ? s.checkScreen(name) : Promise.resolve());
  const textOf = (target: Locator) => target.evaluate((el) => el.textContent ?? "");

  it("the usage dialog asks again while open: requests made with the key show in its chart without closing it", async () => {
    const key = await mint(`Live chart ${width}`);
    await open();
    await choose(key.key, "View usage");
    const dialog = page.getByRole("dialog", { name: `Usage of “${key.key.name}”` });
    await dialog.getByText("No requests in the last 30 days.").waitFor();
    await check("usage-dialog");
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${s.server.url}/api/consumer/blogs`, {
        headers: { "x-api-key": key.secret },
      });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    }
    // The next refresh (every 10 s while open) brings them; nothing is clicked meanwhile.
    await dialog
      .getByText(/^2 requests in the last 30 days: 2 served/)
      .waitFor({ timeout: 25_000 });
    await dialog.getByRole("button", { name: "Close" }).click();
  }, 40_000);

  it("a key's expiry says its exact date and time beside “expires in …”, in the table and the rolling panel", async () => {
    const expiresAt = new Date(Date.now() + 3 * DAY).toISOString();
    const key = await mint(`Dated ${width}`, expiresAt);
    await open();
    const cell = page.locator("tbody tr", { hasText: key.key.prefix }).locator("td.expires");
    await expect(cell.locator("time").getAttribute("datetime")).resolves.toBe(expiresAt);
    await expect(textOf(cell.locator("time"))).resolves.toBe("expires in 3 days");
    const day = await page.evaluate(
      (iso) =>
        new Date(iso).toLocaleDateString(undefined, {
          year: "numeric",
          month: "short",
          day: "numeric",
        }),
      expiresAt,
    );
    await expect(textOf(cell.locator(".exact-time"))).resolves.toMatch(
      new RegExp(`^${day}, .*\\d:\\d\\d.*GMT`),
    );
  });

  it("a rolled key and its successor have differently named menus; a revoke shows in the rolling panel at once", async () => {
    const old = await mint(`Mobile ${width}`);
    await open();
    await choose(old.key, "Roll key");
    const roll = page.getByRole("dialog", { name: `Roll “${old.key.name}”` });
    await roll.getByRole("button", { name: "Roll key" }).click();
    const shown = page.getByRole("dialog", { name: "Copy your new key now" });
    await shown.getByRole("button", { name: /^Copy API key/ }).click();
    await shown.getByText("Copied to the clipboard.").waitFor();
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.waitFor({ state: "detached" });

    // Two keys of one name: each menu names its own, by prefix.
    const menus = page.getByRole("button", { name: new RegExp(`^Actions for ${old.key.name} `) });
    await expect.poll(() => menus.count()).toBe(2);
    const names = await menus.evaluateAll((els) => els.map((el) => el.textContent?.trim() ?? ""));
    expect(new Set(names).size, names.join(" | ")).toBe(2);
    expect(names).toContain(`Actions for ${old.key.name} (${old.key.prefix}…)`);

    const panel = page.getByRole("region", { name: `Rolling “${old.key.name}”` });
    const state = panel.locator(".roll-state");
    await expect(textOf(state)).resolves.toMatch(/^Once the old key's last use stops moving/);
    await expect(textOf(panel.getByLabel("Old key").locator(".exact-time"))).resolves.toMatch(
      /GMT/,
    );
    // The old key revoked: the panel says so as soon as the confirmation closes, not at the
    // next 10 s refresh.
    await choose(old.key, "Revoke key");
    const confirm = page.getByRole("dialog", { name: `Revoke “${old.key.name}”?` });
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    const revokedAt = Date.now();
    await expect
      .poll(() => textOf(panel.getByLabel("Old key").locator(".badge")), { timeout: 5000 })
      .toBe("Revoked");
    await expect
      .poll(() => textOf(state), { timeout: 5000 })
      .toBe("The old key no longer works (revoked): every consumer must use the new key now.");
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    await check("rolling-after-revoke");
  });

  it("the status filter is in the address: a reload and Back keep it", async () => {
    await open();
    await filter().getByText("Revoked").click();
    await expect.poll(() => new URL(page.url()).search).toBe("?status=revoked");
    const rows = page.getByRole("table", { name: /^API keys of / }).locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(1);
    await page.reload();
    await expect.poll(() => radio("Revoked").isChecked()).toBe(true);
    await expect.poll(() => rows.count()).toBe(1);
    await expect(textOf(rows.locator(".badge"))).resolves.toBe("Revoked");
    await check("keys-filtered");
    await page.getByRole("link", { name: "Blogs" }).click();
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await page.goBack();
    await expect.poll(() => radio("Revoked").isChecked()).toBe(true);
    await expect(new URL(page.url()).search).toBe("?status=revoked");
    await filter().getByText("All").click();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    // An address names it as a link would: ?status=active shows the active keys only.
    await open("?status=active");
    await expect.poll(() => radio("Active").isChecked()).toBe(true);
  });
});
