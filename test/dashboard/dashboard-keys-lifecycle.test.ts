// The keys screen's lifecycle features, in headless Chromium against the real server (README,
// "API keys"): minting with an expiry, a key seen to expire, rolling a key and watching the old
// one go from Active to Expired, limit settings for the owner (read-only for members), the
// activity list; axe finds no violation on each new screen and dialog, at 1280×800 and 390×844.
// The server's clock is moved forward (an injected offset) instead of waiting out a grace period;
// the short expiry uses the tests-only lower floor (`minKeyLifetimeMs`), never an env variable.
import { existsSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient } from "../support/admin-client.js";
import { launchChromium } from "../support/chromium.js";
import { axeViolations } from "../support/dashboard-axe.js";
import { newestFileTime } from "../support/dashboard-build.js";
import { stores } from "../support/fixtures.js";
import { HOUR, offsetClock } from "../support/test-clock.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type MintedKey = components["schemas"]["MintedKey"];

const DIST_INDEX = "dashboard/dist/index.html";
const SHOTS = "test-output/dashboard-keys";
const OWNER = {
  name: "Olga Owner",
  email: "olga@example.com",
  password: "a long enough password",
  workspaceName: "Lifecycle News",
};
const MEMBER = { name: "Mo Member", email: "mo@example.com", password: "mo's long password" };

let t: TestDb;
let server: TestServer;
let browser: BrowserContext;
let page: Page;
let owner: AdminClient;
let ws: string;
const clock = offsetClock();
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(DIST_INDEX) || newestFileTime("dashboard/src") > statSync(DIST_INDEX).mtimeMs) {
    throw new Error(`${DIST_INDEX} is missing or stale: npm run build -w dashboard`);
  }
  t = await useTestDb();
  server = await startTestServer(
    t.db,
    { LAST_USED_FLUSH_MS: "100" },
    { testHooks: { now: clock.now, minKeyLifetimeMs: 1000 } },
  );
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  page.on("pageerror", (err) => problems.push(`pageerror ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") problems.push(msg.text());
  });
  await signInAs(owner);
  await mkdir(SHOTS, { recursive: true });
});
afterEach(async () => {
  await page.evaluate(() => 0);
  expect(problems.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
});

/** The browser takes over a client's session cookie. */
async function signInAs(client: AdminClient) {
  const [name = "", value = ""] = (client.cookie ?? "").split("=");
  await browser.clearCookies();
  await browser.addCookies([{ name, value, url: server.url }]);
  await page.goto(`${server.url}/dashboard/w/${ws}/keys`);
  await heading("API keys").waitFor();
}

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const heading = (name: string) => page.getByRole("heading", { name, exact: true });
const rows = (name: string): Locator => page.locator("tbody tr", { hasText: name });
/** Opens a row's Actions menu and chooses `item` in it. */
async function rowAction(row: Locator, name: string, item: string) {
  await row.getByRole("button", { name: `Actions for ${name}` }).click();
  await page
    .getByRole("menu", { name: `Actions for ${name}` })
    .getByRole("menuitem", { name: item })
    .click();
}
/** The items of a row's Actions menu (the menu is closed again). */
async function rowActions(row: Locator, name: string): Promise<string[]> {
  await row.getByRole("button", { name: `Actions for ${name}` }).click();
  const menu = page.getByRole("menu", { name: `Actions for ${name}` });
  await menu.waitFor();
  const items = await menu.getByRole("menuitem").allTextContents();
  await page.keyboard.press("Escape");
  return items;
}
const consumerStatus = async (key: string) =>
  (await fetch(`${server.url}/api/consumer/blogs`, { headers: { "x-api-key": key } })).status;

async function expectNoAxeViolations(what: string) {
  const found = await axeViolations(page);
  expect(
    found.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.targets.join(", ")}`),
    `axe on ${what}`,
  ).toEqual([]);
}

async function expectFits(what: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(
    page.evaluate(() => document.documentElement.scrollWidth),
    `${what} at 390 px`,
  ).resolves.toBeLessThanOrEqual(390);
  await expectNoAxeViolations(`${what} at 390×844`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe("keys screen — expiry", () => {
  it("the mint dialog offers 7, 30 or 90 days (chosen), a date, or never; the key then expires in 3 months", async () => {
    await page.getByRole("button", { name: "Mint key" }).click();
    const dialog = page.getByRole("dialog", { name: "Mint an API key" });
    await dialog.waitFor();
    const expires = dialog.getByRole("radiogroup", { name: "Expires" });
    for (const choice of ["7 days", "30 days", "90 days", "On a date", "Never"]) {
      await expect(expires.getByRole("radio", { name: choice }).count()).resolves.toBe(1);
    }
    await expect(expires.getByRole("radio", { name: "90 days" }).isChecked()).resolves.toBe(true);
    await expires.getByText("On a date").click();
    await dialog.getByLabel("Expiry date").waitFor();
    await expectNoAxeViolations("the mint dialog with a date");
    await shot("01-mint-expiry");
    await expires.getByText("90 days").click();
    await dialog.getByLabel("Key name").fill("Quarterly site");
    await dialog.getByRole("button", { name: "Mint key" }).click();
    await page.getByRole("dialog", { name: "Copy your new key now" }).waitFor();
    // Done without a copy asks first.
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Close without copying" }).click();
    await expect(rows("Quarterly site").locator("td.expires time").textContent()).resolves.toBe(
      "expires in 3 months",
    );
  });

  it("a key given a short expiry through the API shows Active, and after it, Expired; the filter finds it", async () => {
    const minted = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, {
      name: "Short-lived",
      expiresAt: new Date(clock.now() + 2000).toISOString(),
    });
    expect(minted.status).toBe(201);
    await page.reload();
    await expect(rows("Short-lived").locator(".badge").textContent()).resolves.toBe("Active");
    await expect(rows("Short-lived").locator("td.expires time").textContent()).resolves.toMatch(
      /^expires in \d seconds$/,
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(await consumerStatus(minted.body.secret)).toBe(401);
    await page.reload();
    await expect(rows("Short-lived").locator(".badge").textContent()).resolves.toBe("Expired");
    await expect(rows("Short-lived").locator("td.expires time").textContent()).resolves.toBe(
      "expired just now",
    );
    await page.getByRole("radiogroup", { name: "Show keys" }).getByText("Expired").click();
    await expect(page.locator("tbody tr").count()).resolves.toBe(1);
    await shot("02-expired-filter");
    await expectNoAxeViolations("the keys screen filtered to expired keys");
    await page.getByRole("radiogroup", { name: "Show keys" }).getByText("All").click();
  });
});

describe("keys screen — rolling", () => {
  it("Roll key shows the new key once, then both keys side by side; the old one goes from Active to Expired", async () => {
    const old = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Mobile app" });
    expect(await consumerStatus(old.body.secret)).toBe(200);
    await page.reload();
    await expect
      .poll(() => rows("Mobile app").locator("td.last-used").textContent(), { timeout: 15_000 })
      .not.toBe("never");
    await rowAction(rows("Mobile app"), "Mobile app", "Roll key");
    const dialog = page.getByRole("dialog", { name: "Roll “Mobile app”" });
    await dialog.waitFor();
    const grace = dialog.getByRole("radiogroup", { name: "The old key keeps working for" });
    for (const choice of ["1 hour", "24 hours", "7 days", "30 days"]) {
      await expect(grace.getByRole("radio", { name: choice }).count()).resolves.toBe(1);
    }
    await expect(grace.getByRole("radio", { name: "24 hours" }).isChecked()).resolves.toBe(true);
    await expectNoAxeViolations("the roll dialog");
    await shot("03-roll-dialog");
    await grace.getByText("1 hour").click();
    await dialog.getByRole("button", { name: "Roll key" }).click();
    const secretDialog = page.getByRole("dialog", { name: "Copy your new key now" });
    await secretDialog.waitFor();
    const secret = await page.getByLabel("API key “Mobile app”").inputValue();
    expect(secret).toMatch(/^cp_live_/);
    expect(secret).not.toBe(old.body.secret);
    await expectNoAxeViolations("the rolled key's secret");
    await secretDialog.getByRole("button", { name: "Done" }).click();
    await secretDialog.getByRole("button", { name: "Close without copying" }).click();
    await secretDialog.waitFor({ state: "detached" });
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    // The focus stays on the page (the old key's Actions, or the notice), not fallen to <body>:
    // read two frames on, once the screen's own focus fix-up has run.
    await expect(
      page.evaluate(
        () =>
          new Promise((done) =>
            requestAnimationFrame(() =>
              requestAnimationFrame(() => done(document.activeElement?.tagName ?? "none")),
            ),
          ),
      ),
    ).resolves.not.toMatch(/^(BODY|none)$/);

    const overview = page.getByRole("region", { name: "Rolling “Mobile app”" });
    const oldSide = overview.getByRole("definition").first();
    await overview.waitFor();
    await expect(overview.getByLabel("Old key").textContent()).resolves.toContain(
      old.body.key.prefix,
    );
    await expect(overview.getByLabel("Old key").locator(".last-used time").count()).resolves.toBe(
      1,
    );
    await expect(overview.getByLabel("New key").locator(".last-used").textContent()).resolves.toBe(
      "never",
    );
    await expect(oldSide.count()).resolves.toBe(1);
    await expect(overview.getByLabel("Old key").locator(".badge").textContent()).resolves.toBe(
      "Active",
    );
    await shot("04-roll-overview");
    await expectNoAxeViolations("the keys screen with a roll under way");
    await expectFits("the keys screen with a roll under way");
    expect(await consumerStatus(old.body.secret)).toBe(200);
    expect(await consumerStatus(secret)).toBe(200);

    // The grace period passes: the screen refreshes itself and shows the old key Expired.
    clock.advance(HOUR + 1000);
    await expect
      .poll(() => overview.getByLabel("Old key").locator(".badge").textContent(), {
        timeout: 20_000,
      })
      .toBe("Expired");
    // The old key's row: the one rolled to another (the successor's says it replaces it).
    const oldRow = page.locator("tbody tr", { hasText: "rolled to" }).filter({
      hasText: old.body.key.prefix,
    });
    await expect(oldRow.locator(".badge").textContent()).resolves.toBe("Expired");
    // Nothing left to do with an expired key but look at its usage.
    await expect(rowActions(oldRow, "Mobile app")).resolves.toEqual(["View usage"]);
    expect(await consumerStatus(old.body.secret)).toBe(401);
    expect(await consumerStatus(secret)).toBe(200);
    await shot("05-rolled-old-expired");
  }, 60_000);
});

describe("keys screen — limits and activity", () => {
  it("the owner sets a key's own limit and the workspace default", async () => {
    await page.reload();
    const row = rows("Quarterly site");
    await rowAction(row, "Quarterly site", "Set limit");
    const dialog = page.getByRole("dialog", { name: "Rate limit of “Quarterly site”" });
    await dialog.waitFor();
    await dialog.getByRole("radiogroup", { name: "Limit" }).getByText("Its own limit").click();
    await dialog.getByLabel("Requests").fill("100");
    await dialog.getByLabel("Per window of (seconds)").fill("60");
    await expectNoAxeViolations("the key limit dialog");
    await shot("06-key-limit");
    await dialog.getByRole("button", { name: "Save limit" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => row.locator("td.limit").textContent()).toBe("100 per minute");

    const section = page.getByRole("region", { name: "Default rate limit" });
    await expect(section.textContent()).resolves.toContain("1,200 per minute (server default)");
    await section.getByText("Custom limit").click();
    await section.getByLabel("Requests").fill("600");
    await section.getByLabel("Per window of (seconds)").fill("3600");
    await section.getByRole("button", { name: "Save default" }).click();
    await page.getByText("Saved: keys without their own limit get 600 per hour.").waitFor();
    await expect
      .poll(() => rows("Mobile app").first().locator("td.limit").textContent())
      .toBe("600 per hour");
    await expectNoAxeViolations("the default limit form");
  });

  it("the activity list names who did what, newest first", async () => {
    const activity = page.getByRole("region", { name: "Activity" });
    await expect
      .poll(() => activity.locator("li").first().textContent())
      .toMatch(/^Olga Owner set the workspace's default limit to 600 per hour/);
    const text = await activity.textContent();
    expect(text).toContain("Olga Owner set the limit of key “Quarterly site” to 100 per minute");
    expect(text).toContain("Olga Owner rolled key “Mobile app” to a new key");
    expect(text).toContain("Olga Owner minted key “Short-lived”");
    await shot("07-activity");
    await expectNoAxeViolations("the activity list");
    await expectFits("the keys screen with limits and activity");
  });

  it("an action made with an access token says which (README, 'Access tokens')", async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const made = await owner.post<{ secret: string }>("/me/tokens", {
      name: "Deploy bot",
      scopes: ["keys:manage"],
      expiresAt,
    });
    const res = await fetch(`${server.url}/api/admin/workspaces/${ws}/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${made.body.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "From CI" }),
    });
    expect(res.status).toBe(201);
    await page.reload();
    const activity = page.getByRole("region", { name: "Activity" });
    await expect
      .poll(() => activity.locator("li").first().textContent())
      .toMatch(/^Olga Owner \(access token “Deploy bot”\) minted key “From CI”/);
    await expectNoAxeViolations("the activity list with a token's entry");
  });

  it("a member sees the limits but cannot change them", async () => {
    await stores(t.db).users.create(MEMBER);
    await owner.post(`/workspaces/${ws}/members`, { email: MEMBER.email });
    const member = new AdminClient(server.url);
    await member.post("/session", { email: MEMBER.email, password: MEMBER.password });
    await signInAs(member);
    await expect(rowActions(rows("Quarterly site"), "Quarterly site")).resolves.toEqual([
      "View usage",
      "Roll key",
      "Revoke key",
    ]);
    const section = page.getByRole("region", { name: "Default rate limit" });
    await expect(section.textContent()).resolves.toContain("600 per hour");
    await section.getByText("Only the workspace's owner can change limits.").waitFor();
    await expect(section.getByRole("button").count()).resolves.toBe(0);
    await expect(rows("Quarterly site").locator("td.limit").textContent()).resolves.toBe(
      "100 per minute",
    );
    await shot("08-member-view");
    await expectNoAxeViolations("the keys screen of a member");
    await expectFits("the keys screen of a member");
  });

  it('the activity list names team changes too, as the member reads it (README, "Team": Audit log)', async () => {
    const invited = await owner.post<{ invitation: { id: string } }>(
      `/workspaces/${ws}/invitations`,
      { email: "someone.invited@example.com", role: "owner" },
    );
    expect(invited.status).toBe(201);
    await page.reload();
    const activity = page.getByRole("region", { name: "Activity" });
    await expect
      .poll(() => activity.locator("li").first().textContent())
      .toMatch(/^Olga Owner invited someone as an owner/);
    const text = await activity.textContent();
    expect(text).toContain("Olga Owner added Mo Member as a member");
    expect(text).not.toContain("someone.invited@example.com");
  });
});
