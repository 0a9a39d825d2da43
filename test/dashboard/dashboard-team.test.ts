import { existsSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient } from "../support/admin-client.js";
import { launchChromium } from "../support/chromium.js";
import { seriousViolations } from "../support/dashboard-axe.js";
import { newestFileTime } from "../support/dashboard-build.js";
import { useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The team in the dashboard (README, "Team"), in headless Chromium against the real server:
// an owner invites someone from the Members screen, the invitee opens the one-time link in a
// browser of their own, sets a name and password and lands in the workspace, signs out and in
// again; then changes their password and signs in with the new one.

const DIST_INDEX = "dashboard/dist/index.html";
const SHOTS = "test-output/dashboard";
const OWNER = {
  name: "Tess Owner",
  email: "tess@example.com",
  password: "tess's long passphrase",
  workspaceName: "Team Gazette",
};
const INVITEE = {
  name: "Ivan Invitee",
  email: "ivan@example.com",
  password: "ivan's first passphrase",
  newPassword: "ivan's second passphrase",
};

let server: TestServer;
let ownerBrowser: BrowserContext;
let inviteeBrowser: BrowserContext;
let owner: Page;
let invitee: Page;
let link = "";
/** What a person with the console open would see as a problem, per page. */
const problems: string[] = [];

function watch(page: Page, who: string) {
  // A step that cannot happen fails naming its locator, well within the test's own timeout.
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (err) => problems.push(`${who} pageerror ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") {
      problems.push(`${who} console.${msg.type()} ${msg.text()}`);
    }
  });
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push(`${who} ${res.status()} ${res.url()}`);
  });
}

beforeAll(async () => {
  if (!existsSync(DIST_INDEX) || newestFileTime("dashboard/src") > statSync(DIST_INDEX).mtimeMs) {
    throw new Error(`${DIST_INDEX} is missing or stale: npm run build -w dashboard`);
  }
  server = await startTestServer((await useTestDb()).db);
  expect((await new AdminClient(server.url).post("/setup", OWNER)).status).toBe(201);
  ownerBrowser = await launchChromium();
  owner = await ownerBrowser.newPage();
  await owner.setViewportSize({ width: 1280, height: 800 });
  watch(owner, "owner");
  await mkdir(SHOTS, { recursive: true });
});
afterAll(async () => {
  await ownerBrowser?.close();
  await inviteeBrowser?.close();
});

const heading = (page: Page, name: string) => page.getByRole("heading", { name, exact: true });

async function expectAccessible(page: Page, screen: string) {
  const serious = await seriousViolations(page);
  expect(serious, `axe on ${screen}:\n${serious.join("\n")}`).toEqual([]);
}

async function signIn(page: Page, email: string, password: string) {
  await heading(page, "Sign in").waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("team in the dashboard, in Chromium", () => {
  it("the owner opens Members: the list, at 1280×800 and 390×844, with no accessibility violations", async () => {
    await owner.goto(`${server.url}/dashboard/`);
    await signIn(owner, OWNER.email, OWNER.password);
    await heading(owner, "Blogs").waitFor();
    await owner.getByRole("link", { name: "Members" }).click();
    await heading(owner, "Members").waitFor();
    const list = owner.getByRole("list", { name: `Members of ${OWNER.workspaceName}` });
    await list.getByText(OWNER.email).waitFor();
    await list.getByText("owner", { exact: true }).waitFor();
    await owner.getByText("None. Invited people show here").waitFor();
    await owner.screenshot({ path: `${SHOTS}/team-01-members-desktop.png`, fullPage: true });
    await expectAccessible(owner, "the members screen at 1280×800");
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.screenshot({ path: `${SHOTS}/team-02-members-phone.png`, fullPage: true });
    await expectAccessible(owner, "the members screen at 390×844");
    const overflow = await owner.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, "no sideways scrolling on a phone").toBeLessThanOrEqual(0);
    await owner.setViewportSize({ width: 1280, height: 800 });
    expect(problems.splice(0)).toEqual([]);
  });

  it("the owner invites an email and sees the link once, in a dialog with Copy; it is listed as pending", async () => {
    await owner.getByRole("button", { name: "Invite someone" }).click();
    const dialog = owner.getByRole("dialog");
    await dialog.getByLabel("Email").fill(INVITEE.email);
    await expectAccessible(owner, "the invite dialog");
    await dialog.getByRole("button", { name: "Create invitation" }).click();
    await heading(owner, "Copy the invitation link now").waitFor();
    link = await owner.locator("#invitation-link").inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/dashboard/#/join/[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole("button", { name: "Copy" }).waitFor();
    await dialog.getByText("This link will not be shown again.").waitFor();
    await expectAccessible(owner, "the invitation link dialog");
    // Shown once: Done without a copy asks first (components/shown-once-dialog.tsx).
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.getByRole("button", { name: "Close without copying" }).click();
    const pending = owner.getByRole("region", { name: "Pending invitations" });
    await pending.getByText(INVITEE.email, { exact: true }).waitFor();
    expect(problems.splice(0)).toEqual([]);
  });

  it("the invitee opens the link in a fresh browser, sets a name and password, and lands in the workspace", async () => {
    inviteeBrowser = await launchChromium();
    invitee = await inviteeBrowser.newPage();
    await invitee.setViewportSize({ width: 390, height: 844 });
    watch(invitee, "invitee");
    const token = link.split("#/join/")[1] ?? "";
    const seenByServer: string[] = [];
    invitee.on("request", (r) => seenByServer.push(r.url()));
    await invitee.goto(link);
    await heading(invitee, `Join ${OWNER.workspaceName}`).waitFor();
    await invitee.getByText(`${OWNER.name} invited`).waitFor();
    await expectAccessible(invitee, "the join screen");
    await invitee.getByLabel("Your name").fill(INVITEE.name);
    await invitee.getByLabel("Choose a password").fill(INVITEE.password);
    await invitee.getByRole("button", { name: "Create account and join" }).click();
    // A writer lands on the workspace's blogs (dashboard/README.md).
    await heading(invitee, "Blogs").waitFor();
    expect(new URL(invitee.url()).hash).toBe("");
    expect(new URL(invitee.url()).pathname).toMatch(/^\/dashboard\/w\/ws_[A-Za-z0-9]+\/blogs$/);
    await expect(
      invitee.getByRole("button", { name: /^Workspace: / }).textContent(),
    ).resolves.toContain(OWNER.workspaceName);
    // The token never was part of a URL the browser requested.
    expect(seenByServer.filter((u) => u.includes(token))).toEqual([]);
    expect(problems.splice(0)).toEqual([]);
  });

  it("the invitee signs out and signs in again with the password they chose", async () => {
    await invitee.getByRole("button", { name: "Sign out" }).click();
    await signIn(invitee, INVITEE.email, INVITEE.password);
    await heading(invitee, "Blogs").waitFor();
    await invitee.getByRole("link", { name: "Members" }).click();
    await heading(invitee, "Members").waitFor();
    await invitee.getByText(OWNER.email).waitFor();
    // A member sees no owner actions.
    await expect(invitee.getByRole("button", { name: "Invite someone" }).count()).resolves.toBe(0);
    await expectAccessible(invitee, "the members screen of a member at 390×844");
    expect(problems.splice(0)).toEqual([]);
  });

  it("the invitee changes their password and signs in with the new one; the old one fails", async () => {
    await invitee.getByRole("link", { name: "Account" }).click();
    await heading(invitee, "Your account").waitFor({ timeout: 5000 });
    await expectAccessible(invitee, "the account screen");
    await invitee.getByLabel("Current password").fill(INVITEE.password);
    await invitee.getByLabel("New password").fill(INVITEE.newPassword);
    await invitee.getByRole("button", { name: "Change password" }).click();
    await invitee.screenshot({ path: `${SHOTS}/team-03-account.png`, fullPage: true });
    await invitee.getByText("Password changed.", { exact: false }).waitFor({ timeout: 5000 });
    await invitee.getByRole("button", { name: "Sign out", exact: true }).click();
    await signIn(invitee, INVITEE.email, INVITEE.password);
    await invitee.getByText("Wrong email or password.").waitFor();
    expect(problems.splice(0).map((p) => p.replace(server.url, ""))).toEqual(
      expect.arrayContaining(["invitee 401 /api/admin/session"]),
    );
    await invitee.getByLabel("Password").fill(INVITEE.newPassword);
    await invitee.getByRole("button", { name: "Sign in" }).click();
    // Signed in again where they were.
    await heading(invitee, "Your account").waitFor();
  });

  it("the owner sees the new member, and the invitation is no longer pending", async () => {
    await owner.reload();
    await heading(owner, "Members").waitFor();
    await owner.getByText(INVITEE.email).waitFor();
    await owner.getByText("None. Invited people show here").waitFor();
    await expectAccessible(owner, "the members screen with two members");
    expect(problems.splice(0)).toEqual([]);
  });

  it("the last owner is not offered Make member on themself (a workspace needs an owner) and is told why; promoting the invitee brings it back", async () => {
    const me = owner.getByRole("listitem").filter({ hasText: OWNER.email });
    await owner
      .getByText(/You are the only owner of .*make someone else an owner first\./)
      .waitFor();
    await expect(me.getByRole("button", { name: /Make member/ }).count()).resolves.toBe(0);
    await expect(owner.getByRole("button", { name: "Leave workspace" }).count()).resolves.toBe(0);
    await expectAccessible(owner, "Members, the only owner");
    const ivan = owner.getByRole("listitem").filter({ hasText: INVITEE.email });
    await ivan.getByRole("button", { name: /Make owner/ }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Change role" }).click();
    await owner.getByText(`${INVITEE.name} is now an owner.`).waitFor();
    await ivan.getByText("owner", { exact: true }).waitFor();
    await me.getByRole("button", { name: /Make member/ }).waitFor();
    await owner.getByRole("button", { name: "Leave workspace" }).waitFor();
    expect(problems.splice(0)).toEqual([]);
  });

  it("sign out everywhere ends the invitee's session", async () => {
    await invitee.getByRole("link", { name: "Account" }).click();
    await invitee.getByRole("button", { name: "Sign out everywhere" }).click();
    await heading(invitee, "Sign in").waitFor();
    problems.splice(0);
  });

  it("someone whose email has an account signs in on the join screen with its password, joins, and can leave again", async () => {
    const erin = {
      name: "Erin Existing",
      email: "erin@example.com",
      password: "erin's passphrase",
    };
    const api = new AdminClient(server.url);
    await api.post("/session", { email: OWNER.email, password: OWNER.password });
    const mine = await api.get<{ workspaces: { id: string }[] }>("/me");
    const ws = mine.body.workspaces[0]?.id ?? "";
    // Erin has an account of her own already (she once set one up through another invitation).
    const first = await api.post<{ link: string }>(`/workspaces/${ws}/invitations`, {
      email: erin.email,
      role: "member",
    });
    const signup = new AdminClient(server.url);
    const token1 = first.body.link.split("#/join/")[1] ?? "";
    await signup.post("/invitations/accept", {
      token: token1,
      name: erin.name,
      password: erin.password,
    });
    await api.delete(
      `/workspaces/${ws}/members/${(await signup.get<{ user: { id: string } }>("/me")).body.user.id}`,
    );
    const second = await api.post<{ link: string }>(`/workspaces/${ws}/invitations`, {
      email: erin.email,
      role: "member",
    });
    await invitee.goto(second.body.link);
    await heading(invitee, `Join ${OWNER.workspaceName}`).waitFor();
    // The screen does not say whether the email has an account (admin.yaml, lookUpInvitation):
    // the person picks the way, as on a link for a new email.
    await invitee.getByRole("button", { name: "I'm new here", pressed: true }).waitFor();
    expect(await invitee.getByText("exists").count()).toBe(0);
    await invitee.getByRole("button", { name: "I have an account" }).click();
    await expectAccessible(invitee, "the join screen, signing in as the invited email");
    await invitee.getByLabel(`Password of ${erin.email}`).fill(erin.password);
    await invitee.getByRole("button", { name: "Sign in and join" }).click();
    await heading(invitee, "Blogs").waitFor();
    expect(new URL(invitee.url()).hash).toBe("");
    await invitee.getByRole("link", { name: "Members" }).click();
    await heading(invitee, "Members").waitFor();
    await invitee.getByRole("button", { name: "Leave workspace" }).click();
    await invitee.getByRole("dialog").getByRole("button", { name: "Leave" }).click();
    await heading(invitee, "No workspace yet").waitFor();
    expect(problems.splice(0)).toEqual([]);
  });
});
