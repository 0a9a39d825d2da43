// A tour of every screen of the dashboard (dashboard/README.md) in headless Chromium against the
// real server, as a normal session goes: first-run setup on a fresh server, then an owner's API
// keys, blogs, a blog in the editor, members with the invite dialogs, an invitation's join page,
// webhooks with their dialogs, a delivery log, the account, page and workspace not found, the
// open workspace menu and the new-workspace dialog, and sign-in. Each is held to `checkScreen`
// (axe: no violation; no sideways scrolling; screenshots at 1280×800 and 390×844 in
// test-output/dashboard-screens/), and the whole session to `assertNoProblems`: no console
// error or warning, no failed request, no response ≥ 400. The keys, blogs and editor screens
// are found by their headings only: their contents are other parts of the issue.
import { mkdir } from "node:fs/promises";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AdminClient } from "../support/admin-client.js";
import { launchChromium } from "../support/chromium.js";
import { axeViolations } from "../support/dashboard-axe.js";
import {
  type DashboardSession,
  openDashboardSession,
  VIEWPORTS,
} from "../support/dashboard-session.js";
import { useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const SHOTS = "test-output/dashboard-screens";
// Deliveries are queued and never sent: the endpoint's host is not contacted.
const ENV = { WEBHOOK_DELIVERY: "off" };

let s: DashboardSession;
let page: Page;
let blogId = "";
let inviteLink = "";
const LONE = { name: "Lee Alone", email: "lee@example.com", password: "lee's long passphrase" };

const heading = (p: Page, name: string) => p.getByRole("heading", { name, exact: true });
/** Nothing on the screen says it is still loading (a spinner, or a region marked busy). */
const settled = async (p: Page) => {
  await p.locator('.loading, [aria-busy="true"]').first().waitFor({ state: "detached" });
};
/** Opens a dashboard address and waits for its heading and for it to finish loading. */
async function visit(path: string, title: string) {
  await page.goto(s.url(path));
  await heading(page, title).waitFor();
  await settled(page);
}

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-screens", env: ENV });
  page = s.page;
  page.setDefaultTimeout(10_000);
  const w = `/workspaces/${s.ws}`;
  expect((await s.owner.post(`${w}/keys`, { name: "Website build" })).status).toBe(201);
  const blog = await s.owner.post<{ id: string }>(`${w}/blogs`, {
    title: "Hello from the tour",
    bodyMarkdown: "A *first* blog, with a [link](https://example.com).",
    tags: ["tour"],
  });
  expect(blog.status).toBe(201);
  blogId = blog.body.id;
  const invitation = await s.owner.post<{ link: string }>(`${w}/invitations`, {
    email: "guest@example.com",
    role: "member",
  });
  expect(invitation.status).toBe(201);
  inviteLink = invitation.body.link;
  // Someone who joined and left again: no workspace of their own.
  const lonely = await s.owner.post<{ link: string }>(`${w}/invitations`, {
    email: LONE.email,
    role: "member",
  });
  const lone = new AdminClient(s.server.url);
  const joined = await lone.post<{ user: { id: string } }>("/invitations/accept", {
    token: lonely.body.link.split("#/join/")[1],
    name: LONE.name,
    password: LONE.password,
  });
  expect(joined.status).toBe(201);
  expect((await lone.call("DELETE", `${w}/members/${joined.body.user.id}`)).status).toBe(204);
});
afterEach(async () => {
  await s.assertNoProblems();
});
afterAll(async () => {
  await s?.close();
});

describe("the first screen of a fresh server", () => {
  // A database, a server and a second browser of its own: started under the hooks' time limit,
  // so that the test's own limit is the screen's work (a loaded machine took 30 s for all).
  let fresh: TestServer | undefined;
  let other: BrowserContext | undefined;
  beforeAll(async () => {
    fresh = await startTestServer((await useTestDb()).db, ENV);
    other = await launchChromium();
  });
  afterAll(async () => {
    await other?.close();
    await fresh?.stop();
  });

  it("setup, on a fresh server", async () => {
    if (fresh === undefined || other === undefined) throw new Error("not started");
    const p = await other.newPage();
    const problems: string[] = [];
    p.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    p.on("pageerror", (e) => problems.push(e.message));
    p.on("requestfailed", (r) => problems.push(`failed ${r.url()}`));
    p.on("response", (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    await p.goto(`${fresh.url}/dashboard/`);
    await heading(p, "Welcome to Pressroom").waitFor();
    await mkdir(SHOTS, { recursive: true });
    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await p.setViewportSize(size);
      await expect(
        p.evaluate(() => document.documentElement.scrollWidth),
      ).resolves.toBeLessThanOrEqual(size.width);
      const found = await axeViolations(p);
      expect(
        found.map((v) => `${v.id}: ${v.targets.join(", ")}`),
        `axe at ${name}`,
      ).toEqual([]);
      await p.screenshot({ path: `${SHOTS}/setup-${name}.png`, fullPage: true });
    }
    await p.evaluate(() => 0);
    expect(problems).toEqual([]);
    // Setup made through the screen, too: it signs in and opens the new workspace's blogs.
    await p.getByLabel("Your name").fill("Sam Setup");
    await p.getByLabel("Email").fill("sam@example.com");
    await p.getByLabel("Password", { exact: true }).fill("sam's long passphrase");
    await p.getByLabel("Workspace name").fill("Sam's Desk");
    await p.getByRole("button", { name: "Create account and workspace" }).click();
    await heading(p, "Blogs").waitFor();
    expect(problems).toEqual([]);
  });
});

describe("every screen of the dashboard, in a normal session", () => {
  it("API keys", async () => {
    await visit(`/w/${s.ws}/keys`, "API keys");
    await s.checkScreen("keys");
  });

  it("blogs", async () => {
    await visit(`/w/${s.ws}/blogs`, "Blogs");
    await s.checkScreen("blogs");
  });

  it("a blog in the editor", async () => {
    await visit(`/w/${s.ws}/blogs/${blogId}`, "Edit blog");
    await s.checkScreen("blog-editor");
  });

  it("members, with pending invitations", async () => {
    await visit(`/w/${s.ws}/members`, "Members");
    await page
      .getByRole("region", { name: "Pending invitations" })
      .getByText("guest@example.com", { exact: true })
      .waitFor();
    await s.checkScreen("members");
  });

  it("the invite dialog, and the invitation link shown once", async () => {
    await page.getByRole("button", { name: "Invite someone" }).click();
    const invite = page.getByRole("dialog", { name: /^Invite someone to / });
    await invite.waitFor();
    await s.checkScreen("invite-dialog");
    await invite.getByLabel("Email").fill("second.guest@example.com");
    await invite.getByRole("button", { name: "Create invitation" }).click();
    const link = page.getByRole("dialog", { name: "Copy the invitation link now" });
    await link.waitFor();
    await s.checkScreen("invitation-link-dialog");
    // Shown once: Done without a copy asks first (components/shown-once-dialog.tsx).
    await link.getByRole("button", { name: "Done" }).click();
    await link.getByRole("button", { name: "Close without copying" }).click();
    await link.waitFor({ state: "detached" });
    await page.getByText("second.guest@example.com", { exact: true }).waitFor();
    // The only owner may not leave: no button, and the notice says why (its dialog, for an owner
    // who may: dashboard-team-settings.test.ts).
    await page.getByText(/You are the only owner of Fern Weekly\./).waitFor();
    await expect(page.getByRole("button", { name: "Leave workspace" }).count()).resolves.toBe(0);
  });

  it("an invitation's join page", async () => {
    await page.goto(inviteLink);
    await heading(page, "Join Fern Weekly").waitFor();
    await page.getByLabel("Your name").waitFor();
    await s.checkScreen("join");
  });

  it("webhooks, the add dialog and the signing secret shown once", async () => {
    await visit(`/w/${s.ws}/webhooks`, "Webhooks");
    await s.checkScreen("webhooks-empty");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const add = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await add.waitFor();
    await s.checkScreen("webhook-add-dialog");
    await add.getByRole("textbox", { name: "Endpoint URL" }).fill("https://example.com/hooks/tour");
    await add.getByRole("button", { name: "Add endpoint" }).click();
    const secret = page.getByRole("dialog", { name: "Copy the signing secret now" });
    await secret.waitFor();
    await s.checkScreen("webhook-secret-dialog");
    await secret.getByRole("button", { name: "Done" }).click();
    await secret.getByRole("button", { name: "Close without copying" }).click();
    await page.getByRole("list", { name: /^Webhook endpoints of / }).waitFor();
    await s.checkScreen("webhooks");
    await page.getByRole("button", { name: /^Rotate secret/ }).click();
    const rotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await rotate.waitFor();
    await s.checkScreen("webhook-rotate-confirm");
    await rotate.getByRole("button", { name: "Cancel" }).click();
    await rotate.waitFor({ state: "detached" });
  });

  it("a webhook's delivery log", async () => {
    await page.getByRole("button", { name: /^Send test event/ }).click();
    await page.getByRole("link", { name: "See its deliveries" }).click();
    await heading(page, "Deliveries").waitFor();
    await page.getByRole("list", { name: "Deliveries, newest first" }).waitFor();
    await settled(page);
    await s.checkScreen("webhook-log");
  });

  it("the account", async () => {
    await visit("/account", "Your account");
    await s.checkScreen("account");
  });

  it("page not found, and workspace not found", async () => {
    await visit("/no/such/page", "Page not found");
    await s.checkScreen("page-not-found");
    await visit("/w/ws_NoSuchWorkspace/keys", "Workspace not found");
    await s.checkScreen("workspace-not-found");
  });

  it("the open workspace menu, and the new-workspace dialog from it", async () => {
    await visit(`/w/${s.ws}/members`, "Members");
    await page.getByRole("button", { name: /^Workspace: / }).click();
    await page.getByRole("menu", { name: "Workspaces" }).waitFor();
    await s.checkScreen("workspace-menu");
    await page.getByRole("menuitem", { name: "Create workspace" }).click();
    await page.getByRole("dialog", { name: "New workspace" }).waitFor();
    await s.checkScreen("new-workspace-dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
  });

  it("sign-in, after signing out; then someone who has no workspace", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading(page, "Sign in").waitFor();
    await s.checkScreen("sign-in");
    // In as someone with no workspace left: the screen that says how to make one.
    await page.goto(s.url("/"));
    await heading(page, "Sign in").waitFor();
    await page.getByLabel("Email").fill(LONE.email);
    await page.getByLabel("Password", { exact: true }).fill(LONE.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading(page, "No workspace yet").waitFor();
    await s.checkScreen("no-workspace");
    // Its next step: the new-workspace dialog, at once.
    await page.getByRole("main").getByRole("button", { name: "Create workspace" }).click();
    const dialog = page.getByRole("dialog", { name: "New workspace" });
    await dialog.getByLabel("Workspace name").fill("Lee's Desk");
    await dialog.getByRole("button", { name: "Create workspace" }).click();
    await heading(page, "Blogs").waitFor();
    await settled(page);
  });
});
