// The Webhooks screen in headless Chromium against the real server (admin.yaml, tag Webhooks;
// README, "Webhooks"): an owner adds an endpoint (all four events checked by default; a URL
// the server refuses gets its message next to the field; the signing secret is shown once, with
// Copy), sees it listed with its health and a banner when the server turned it off, sends a test
// event and finds it pending in the delivery log (attempts with their response as text, never
// markup; Redeliver; Load more; Refresh), rotates the secret (confirmed, then shown once), turns
// the endpoint off and on, edits and deletes it; a member sees everything but no owner button.
// axe finds no violation at 1280×800 and 390×844, and neither width scrolls sideways. The
// server the browser uses sends nothing: the log's attempts are inserted as the worker writes
// them. At the end a second, delivering instance on the same database sends a test event to a
// real receiver, signed with the secret the screen showed, and the log shows it delivered.
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
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { startReceiver, verifies, waitFor } from "../support/webhook-receiver.js";

type Delivery = components["schemas"]["WebhookDelivery"];
type WithSecret = components["schemas"]["WebhookEndpointWithSecret"];

const DIST_INDEX = "dashboard/dist/index.html";
const SHOTS = "test-output/dashboard-webhooks";
const OWNER = {
  name: "Wendy Owner",
  email: "wendy@example.com",
  password: "a long enough password",
  workspaceName: "Hooked News",
};
const MEMBER = { name: "Max Member", email: "max@example.com", password: "max's long password" };
// The log's paging queues more test events than the default limits allow (10 a minute per
// workspace, 20 pending per endpoint; test/webhooks/webhook-manual-limits.test.ts holds those):
// higher ones on both instances, which share the counts through the database.
const LIMITS_ENV = { WEBHOOK_MANUAL_RATE_LIMIT: "1000/60", WEBHOOK_MANUAL_PENDING_MAX: "1000" };
const DESK_ENV = { WEBHOOK_DELIVERY: "off", WEBHOOK_ALLOW_HTTP_LOOPBACK: "true", ...LIMITS_ENV };
const URL_OK = "https://example.com/hooks/site";
const HOSTILE = `<img src=x onerror="document.title='pwned'"><b id="injected">bold</b>\n</pre>`;

let t: TestDb;
let server: TestServer;
let browser: BrowserContext;
let page: Page;
let owner: AdminClient;
let ws: string;
let endpointId: string;
let secret: string;
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(DIST_INDEX) || newestFileTime("dashboard/src") > statSync(DIST_INDEX).mtimeMs) {
    throw new Error(`${DIST_INDEX} is missing or stale: npm run build -w dashboard`);
  }
  t = await useTestDb();
  // This instance delivers nothing (the log's attempts are inserted by the tests); a second one,
  // started at the end, delivers to a receiver on loopback.
  server = await startTestServer(t.db, DESK_ENV);
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
  browser = await launchChromium();
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  page.on("pageerror", (err) => problems.push(`pageerror ${err.message}`));
  page.on("console", (msg) => {
    // The 400 of the bad URL is an answer the screen shows, not a fault.
    if (msg.text().includes("400 (Bad Request)")) return;
    if (msg.type() === "error" || msg.type() === "warning") problems.push(msg.text());
  });
  await signInAs(owner, "keys", "API keys");
  await mkdir(SHOTS, { recursive: true });
});
afterEach(async () => {
  await page.evaluate(() => 0);
  expect(problems.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
});

/** The browser takes over a client's session cookie and opens a section of the workspace. */
async function signInAs(client: AdminClient, section: string, title: string) {
  const [name = "", value = ""] = (client.cookie ?? "").split("=");
  await browser.clearCookies();
  await browser.addCookies([{ name, value, url: server.url }]);
  await page.goto(`${server.url}/dashboard/w/${ws}/${section}`);
  await heading(title).waitFor();
}

/** Waits for the screen to show it (it re-renders after the server answers). */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const heading = (name: string) => page.getByRole("heading", { name, exact: true });
const card = (): Locator => page.locator(".webhook-list > li").first();
const button = (name: string) => page.getByRole("button", { name, exact: false });

async function expectNoAxeViolations(what: string) {
  const found = await axeViolations(page);
  expect(
    found.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.targets.join(", ")}`),
    `axe on ${what}`,
  ).toEqual([]);
}

/** axe at the desk width, then at the phone's, where nothing may scroll sideways. */
async function expectUsableAtBothWidths(what: string) {
  await expectNoAxeViolations(`${what} at 1280×800`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(`390-${what.replaceAll(/\W+/g, "-")}`);
  await expect(
    page.evaluate(() => document.documentElement.scrollWidth),
    `${what} at 390 px`,
  ).resolves.toBeLessThanOrEqual(390);
  await expectNoAxeViolations(`${what} at 390×844`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe("happy: an owner adds an endpoint (admin.yaml, createWebhookEndpoint)", () => {
  it("the header leads to the Webhooks screen, empty at first", async () => {
    await page
      .getByRole("navigation", { name: "Sections" })
      .getByRole("link", { name: "Webhooks" })
      .click();
    await heading("Webhooks").waitFor();
    await page.getByText("No endpoints yet.").waitFor();
    await expectUsableAtBothWidths("the empty Webhooks screen");
  });

  it("all four events are checked by default; a URL the server refuses gets its message next to the field", async () => {
    await button("Add endpoint").click();
    const dialog = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await dialog.waitFor();
    const events = dialog.getByRole("group", { name: "Events" }).getByRole("checkbox");
    await eventually(() => events.count()).toBe(4);
    for (const box of await events.all()) await expect(box.isChecked()).resolves.toBe(true);
    const url = dialog.getByRole("textbox", { name: "Endpoint URL" });
    await url.fill("http://example.com/hook");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const problem = dialog.locator(".field-error");
    await problem.waitFor();
    await eventually(() => problem.textContent()).toBe(
      "The webhook URL must start with https:// (http:// only to localhost or a loopback address).",
    );
    await expect(url.getAttribute("aria-invalid")).resolves.toBe("true");
    // The message is the field's description, so a screen reader reads it with the field.
    await expect(
      url.evaluate((el) =>
        (el.getAttribute("aria-describedby") ?? "")
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent)
          .join(" "),
      ),
    ).resolves.toContain("The webhook URL must start with https://");
    await shot("01-bad-url");
    await expectUsableAtBothWidths("the add dialog with a field error");
  });

  it("a good URL adds it; the secret is shown once, copied, and gone after Done", async () => {
    const dialog = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill(URL_OK);
    await dialog.getByRole("textbox", { name: "Description" }).fill("Rebuild the site");
    await dialog.getByRole("checkbox", { name: /blog\.removed/ }).uncheck();
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const shown = page.getByRole("dialog", { name: "Copy the signing secret now" });
    await shown.waitFor();
    secret = await shown.getByRole("textbox", { name: `Signing secret of ${URL_OK}` }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await eventually(() => shown.textContent()).toContain("This secret will not be shown again.");
    await shown.getByRole("button", { name: "Copy" }).click();
    await shown.getByText("Copied to the clipboard.").waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    await shot("02-secret-once");
    await expectUsableAtBothWidths("the secret dialog");
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.waitFor({ state: "detached" });
    await expect(page.content()).resolves.not.toContain(secret);
  });

  it("it is listed with its URL, description, events, On and its health; a reload shows no secret", async () => {
    await page.reload();
    await card().waitFor();
    const text = (await card().textContent()) ?? "";
    expect(text).toContain(URL_OK);
    expect(text).toContain("Rebuild the site");
    await eventually(() => card().getByRole("list", { name: "Events" }).textContent()).toBe(
      "blog.releasedblog.updatedblog.unreleased",
    );
    await eventually(() => card().locator(".badge").textContent()).toBe("On");
    expect(text).toContain("nothing delivered yet");
    await expect(page.content()).resolves.not.toContain(secret);
    const [doc] = await stores(t.db).webhookEndpoints.find({ workspaceId: ws }).toArray();
    endpointId = doc?._id ?? "";
    expect(doc?.events).toEqual(["blog.released", "blog.updated", "blog.unreleased"]);
    await shot("03-listed");
    await expectUsableAtBothWidths("the Webhooks screen with an endpoint");
  });

  it("health reads “last delivered … ago”, “failing since …”, and a server-disabled endpoint shows why in a banner", async () => {
    const s = stores(t.db);
    await s.webhookHealth.insertOne({
      _id: endpointId,
      lastSuccessAt: new Date(Date.now() - 3 * 60_000),
      failingSince: null,
    });
    await page.reload();
    await card().getByText("last delivered 3 minutes ago").waitFor();
    await s.webhookHealth.updateOne(
      { _id: endpointId },
      { $set: { failingSince: new Date(Date.now() - 25 * 3_600_000) } },
    );
    const reason = "Every delivery failed for 24 hours (last: HTTP 503).";
    await s.webhookEndpoints.updateOne(
      { _id: endpointId },
      { $set: { enabled: false, disabledReason: reason } },
    );
    await page.reload();
    await card()
      .getByText(/^failing since /)
      .waitFor();
    await card().getByText(reason, { exact: false }).waitFor();
    await eventually(() => card().locator(".webhook-disabled").textContent()).toContain(
      "Turned off by Pressroom",
    );
    await eventually(() => card().locator(".badge").textContent()).toBe("Off");
    await shot("04-disabled-by-server");
    await expectUsableAtBothWidths("a server-disabled endpoint");
    // Turning it back on clears the reason (admin.yaml, updateWebhookEndpoint).
    await card()
      .getByRole("button", { name: /^Turn on/ })
      .click();
    await page.getByText(`${URL_OK} is on again.`).waitFor();
    await eventually(() => card().locator(".badge").textContent()).toBe("On");
    await eventually(() => card().locator(".webhook-disabled").count()).toBe(0);
    expect((await s.webhookEndpoints.findOne({ _id: endpointId }))?.disabledReason).toBeNull();
  });
});

describe("happy: test events and the delivery log (admin.yaml, sendTestWebhook, listWebhookDeliveries, redeliverWebhook)", () => {
  it("Send test event queues one; the log shows it pending", async () => {
    await card()
      .getByRole("button", { name: /^Send test event/ })
      .click();
    await page.getByText(`Test event queued for ${URL_OK}.`).waitFor();
    await page.getByRole("link", { name: "See its deliveries" }).click();
    await heading("Deliveries").waitFor();
    const item = page.locator(".delivery").first();
    await eventually(() => item.locator(".delivery-type").textContent()).toBe("webhook.test");
    await eventually(() => item.locator(".badge").textContent()).toBe("Pending");
    await item.getByText("No attempt yet.").waitFor();
    const [doc] = await stores(t.db).webhookDeliveries.find({ endpointId }).toArray();
    expect(doc).toMatchObject({ state: "pending", eventType: "webhook.test", attempts: 0 });
  });

  it("attempts show time, status or error, latency, and the response as text in a <pre>, never as markup", async () => {
    const s = stores(t.db);
    const [doc] = await s.webhookDeliveries.find({ endpointId }).toArray();
    const deliveryId = doc?._id ?? "";
    const at = Date.now() - 60_000;
    const attempt = (n: number, fields: Record<string, unknown>) => ({
      _id: `${deliveryId}#0${n}`,
      deliveryId,
      endpointId,
      number: n,
      instanceId: "test",
      startedAt: new Date(at + n * 1000),
      leaseUntil: new Date(at + n * 1000 + 30_000),
      finishedAt: new Date(at + n * 1000 + 120),
      latencyMs: 120,
      statusCode: null,
      error: null,
      responseExcerpt: null,
      ...fields,
    });
    await s.webhookAttempts.insertMany([
      attempt(1, { error: "Timed out after 10 s.", latencyMs: null }),
      attempt(2, { statusCode: 500, responseExcerpt: HOSTILE, latencyMs: 1500 }),
    ]);
    await button("Refresh").click();
    const attempts = page.locator(".delivery").first().locator(".attempt");
    await eventually(() => attempts.count()).toBe(2);
    const newest = attempts.nth(0);
    await eventually(() => newest.locator(".attempt-line").textContent()).toMatch(
      /^Attempt 2.*HTTP 500.*1\.5 s$/,
    );
    await eventually(() => newest.locator("pre.excerpt").textContent()).toBe(HOSTILE);
    await eventually(() => page.locator("#injected").count()).toBe(0);
    await eventually(() => page.locator(".excerpt img").count()).toBe(0);
    await expect(page.title()).resolves.not.toBe("pwned");
    await expect(
      newest.locator("pre.excerpt").evaluate((el) => getComputedStyle(el).whiteSpace),
    ).resolves.toBe("pre-wrap");
    await eventually(() => attempts.nth(1).locator(".attempt-line").textContent()).toMatch(
      /^Attempt 1.*Timed out after 10 s\.—$/,
    );
    await shot("05-log-attempts");
    await expectUsableAtBothWidths("the delivery log");
  });

  it("Redeliver queues the same event again; Load more pages through older deliveries", async () => {
    const first = page.locator(".delivery").first();
    await first.getByRole("button", { name: /^Redeliver/ }).click();
    await page.getByText(/queued again \(same webhook-id evt_/).waitFor();
    await eventually(() => page.locator(".delivery").count()).toBe(2);
    await eventually(() => page.locator(".delivery").first().textContent()).toMatch(
      /redelivery of dlv_/,
    );
    for (let i = 0; i < 21; i++) {
      const res = await owner.post<Delivery>(`/workspaces/${ws}/webhooks/${endpointId}/test`);
      expect(res.status).toBe(202);
    }
    await button("Refresh").click();
    await eventually(() => page.locator(".delivery").count()).toBe(20);
    await button("Load more").click();
    await eventually(() => page.locator(".delivery").count()).toBe(23);
    await eventually(() => button("Load more").count()).toBe(0);
    // The oldest, with its attempts, is last.
    await eventually(() => page.locator(".delivery").last().locator(".attempt").count()).toBe(2);
  });
});

describe("happy: rotate, off and on, edit, delete (admin.yaml, rotateWebhookSecret, updateWebhookEndpoint, deleteWebhookEndpoint)", () => {
  it("Rotate secret asks first, then shows the new secret once", async () => {
    await page.getByRole("link", { name: "← Webhooks" }).click();
    await heading("Webhooks").waitFor();
    await card()
      .getByRole("button", { name: /^Rotate secret/ })
      .click();
    const confirm = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await confirm.waitFor();
    await expectNoAxeViolations("the rotate confirmation");
    await confirm.getByRole("button", { name: "Rotate secret" }).click();
    const shown = page.getByRole("dialog", { name: "Copy the signing secret now" });
    await shown.waitFor();
    const rotated = await shown.getByRole("textbox").inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await eventually(() => shown.textContent()).toContain("previous secret keeps signing");
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.getByRole("button", { name: "Close without copying" }).click(); // not copied: asked first
    await card()
      .getByText(/the previous one signs too until/)
      .waitFor();
    await expect(page.content()).resolves.not.toContain(rotated);
  });

  it("Rotate and drop the old secret now: a new secret shown once, and the previous one signs no more (admin.yaml, rotateWebhookSecret, dropPrevious)", async () => {
    await card()
      .getByRole("button", { name: /^Rotate secret/ })
      .click();
    const confirm = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await confirm.waitFor();
    await confirm.getByRole("button", { name: "Rotate and drop the old secret now" }).click();
    const shown = page.getByRole("dialog", { name: "Copy the signing secret now" });
    await shown.waitFor();
    const rotated = await shown.getByRole("textbox").inputValue();
    expect(rotated).toMatch(/^whsec_/);
    await eventually(() => shown.textContent()).toContain("previous secret no longer signs");
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.getByRole("button", { name: "Close without copying" }).click(); // not copied: asked first
    await page.getByText(/the old one no longer signs/).waitFor();
    await eventually(() =>
      card()
        .getByText(/the previous one signs too until/)
        .count(),
    ).toBe(0);
    const doc = await stores(t.db).webhookEndpoints.findOne({ _id: endpointId });
    expect(doc).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
  });

  it("Turn off and Turn on change the endpoint", async () => {
    await card()
      .getByRole("button", { name: /^Turn off/ })
      .click();
    await page.getByText(/is off: nothing is sent to it/).waitFor();
    await eventually(() => card().locator(".badge").textContent()).toBe("Off");
    const s = stores(t.db);
    expect((await s.webhookEndpoints.findOne({ _id: endpointId }))?.enabled).toBe(false);
    await card()
      .getByRole("button", { name: /^Turn on/ })
      .click();
    await page.getByText(`${URL_OK} is on again.`).waitFor();
    expect((await s.webhookEndpoints.findOne({ _id: endpointId }))?.enabled).toBe(true);
  });

  it("Edit changes the description and events", async () => {
    await card().getByRole("button", { name: /^Edit/ }).click();
    const dialog = page.getByRole("dialog", { name: "Edit webhook endpoint" });
    await dialog.waitFor();
    await dialog.getByRole("textbox", { name: "Description" }).fill("Purge the CDN");
    await dialog.getByRole("checkbox", { name: /blog\.removed/ }).check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.getByText(`Endpoint ${URL_OK} saved.`).waitFor();
    await eventually(() => card().textContent()).toContain("Purge the CDN");
    const doc = await stores(t.db).webhookEndpoints.findOne({ _id: endpointId });
    expect(doc?.events).toHaveLength(4);
  });

  it("a member sees endpoints and deliveries but no owner button", async () => {
    await stores(t.db).users.create(MEMBER);
    await owner.post(`/workspaces/${ws}/members`, { email: MEMBER.email });
    const member = new AdminClient(server.url);
    await member.post("/session", { email: MEMBER.email, password: MEMBER.password });
    await signInAs(member, "webhooks", "Webhooks");
    await card().waitFor();
    for (const name of [
      "Add endpoint",
      "Send test event",
      "Edit",
      "Turn off",
      "Turn on",
      "Rotate secret",
      "Delete",
    ]) {
      await expect(button(name).count(), name).resolves.toBe(0);
    }
    await expect(
      page.getByText("Only owners of the workspace can change endpoints.").count(),
    ).resolves.toBe(1);
    await shot("06-member");
    await expectUsableAtBothWidths("the Webhooks screen of a member");
    await card()
      .getByRole("link", { name: /^Deliveries/ })
      .click();
    await heading("Deliveries").waitFor();
    await eventually(() => page.locator(".delivery").count()).toBe(20);
    await eventually(() => button("Redeliver").count()).toBe(0);
    await expectUsableAtBothWidths("the delivery log of a member");
    await signInAs(owner, "webhooks", "Webhooks");
  });

  it("Delete asks first, then removes the endpoint and its log", async () => {
    await card()
      .getByRole("button", { name: /^Delete/ })
      .click();
    const confirm = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await confirm.waitFor();
    await expectNoAxeViolations("the delete confirmation");
    await confirm.getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText(`${URL_OK} deleted, with its delivery log.`).waitFor();
    await page.getByText("No endpoints yet.").waitFor();
    const s = stores(t.db);
    expect(await s.webhookEndpoints.countDocuments({ _id: endpointId })).toBe(0);
    expect(await s.webhookDeliveries.countDocuments({ endpointId })).toBe(0);
  });
});

describe("security: a secret made through the API never reaches the screen (admin.yaml, WebhookEndpointWithSecret)", () => {
  it("an endpoint added through the API lists without its secret", async () => {
    const made = await owner.post<WithSecret>(`/workspaces/${ws}/webhooks`, {
      url: "https://example.org/other",
      events: ["blog.released"],
    });
    expect(made.status).toBe(201);
    await page.reload();
    await card().waitFor();
    await expect(page.content()).resolves.not.toContain(made.body.secret);
    await expect(page.content()).resolves.not.toContain("whsec_");
  });
});

describe("happy: with an instance that delivers (README, “Webhooks”; openapi.yaml, webhooks)", () => {
  it("a test event sent from the screen reaches a real receiver, signed with the secret shown once, and shows as delivered; Redeliver sends the same webhook-id again", async () => {
    const receiver = await startReceiver();
    await startTestServer(t.db, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true", ...LIMITS_ENV });
    await button("Add endpoint").click();
    const dialog = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill(receiver.url);
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const shown = page.getByRole("dialog", { name: "Copy the signing secret now" });
    const shownSecret = await shown.getByRole("textbox").inputValue();
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.getByRole("button", { name: "Close without copying" }).click(); // not copied: asked first
    const mine = page.locator(".webhook-list > li", { hasText: receiver.url });
    await mine.getByRole("button", { name: /^Send test event/ }).click();
    await page.getByRole("link", { name: "See its deliveries" }).click();
    await heading("Deliveries").waitFor();
    await waitFor("the receiver to get the test event", () => receiver.received.length === 1);
    const got = receiver.received[0];
    expect(got && verifies(shownSecret, got)).toBe(true);
    expect(JSON.parse(got?.body ?? "{}")).toMatchObject({ type: "webhook.test", id: got?.id });
    await eventually(async () => {
      await button("Refresh").click();
      return page.locator(".delivery .badge").first().textContent();
    }).toBe("Delivered");
    const item = page.locator(".delivery").first();
    await expect(item.textContent()).resolves.toContain(`webhook-id ${got?.id}`);
    await eventually(() => item.locator(".attempt-line").first().textContent()).toMatch(
      /^Attempt 1.*HTTP 204/,
    );
    await shot("07-delivered");
    await item.getByRole("button", { name: /^Redeliver/ }).click();
    await waitFor("the redelivery", () => receiver.received.length === 2);
    expect(receiver.received[1]?.id).toBe(got?.id);
    await page.getByRole("link", { name: "← Webhooks" }).click();
    await mine.getByText(/^last delivered /).waitFor();
  }, 60_000);
});
