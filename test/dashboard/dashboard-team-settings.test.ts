// The Members screen's owner tools (README, "Team"; dashboard/README.md, Members), in headless
// Chromium against the real server, each screen checked at 1280×800 and 390×844 with axe: the
// only owner is offered neither "Make member" nor "Leave" (the server would refuse both: a
// workspace always keeps an owner) and is told why; an owner renames the workspace; an owner
// resends a pending invitation, whose new link is shown once and replaces the old one.
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AdminClient } from "../support/admin-client.js";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

let s: DashboardSession;
let page: Page;
const heading = (name: string) => page.getByRole("heading", { name, exact: true });
const members = async () => {
  await page.goto(s.url(`/w/${s.ws}/members`));
  await heading("Members").waitFor();
  await page.getByRole("list", { name: /^Members of / }).waitFor();
};
interface Created {
  invitation: { id: string };
  link: string;
}
const invite = async (email: string, role: "owner" | "member" = "member") => {
  const res = await s.owner.post<Created>(`/workspaces/${s.ws}/invitations`, { email, role });
  expect(res.status).toBe(201);
  return { ...res.body, token: res.body.link.split("#/join/")[1] ?? "" };
};
const lookUp = (token: string) =>
  new AdminClient(s.server.url).post("/invitations/lookup", { token });

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-team-settings" });
  page = s.page;
  page.setDefaultTimeout(10_000);
});
afterEach(async () => {
  await s.assertNoProblems();
});
afterAll(async () => {
  await s?.close();
});

describe("the only owner", () => {
  it("is offered neither Make member nor Leave, and is told why; with a second owner both are back", async () => {
    await members();
    const notice = page.getByText(/You are the only owner of .*make someone else an owner first\./);
    await notice.waitFor();
    await expect(page.getByRole("button", { name: /^Make member/ }).count()).resolves.toBe(0);
    await expect(page.getByRole("button", { name: "Leave workspace" }).count()).resolves.toBe(0);
    await s.checkScreen("sole-owner");

    // A second owner joins: the first may now step down or leave.
    const { token } = await invite("second-owner@example.com", "owner");
    const joined = await new AdminClient(s.server.url).post("/invitations/accept", {
      token,
      name: "Second Owner",
      password: "the second owner's passphrase",
    });
    expect(joined.status).toBe(201);
    await members();
    await expect(notice.count()).resolves.toBe(0);
    await expect(page.getByRole("button", { name: /^Make member/ }).count()).resolves.toBe(2);
    await page.getByRole("button", { name: "Leave workspace" }).click();
    const leave = page.getByRole("dialog", { name: "Leave “Fern Weekly”?" });
    await leave.waitFor();
    await s.checkScreen("leave-confirm");
    await leave.getByRole("button", { name: "Cancel" }).click();
    await leave.waitFor({ state: "detached" });
  });
});

describe("renaming the workspace", () => {
  it("starts from the current name; the new one shows on the page and in the header at once", async () => {
    await members();
    await page.getByRole("button", { name: "Rename workspace" }).click();
    const dialog = page.getByRole("dialog", { name: /^Rename “/ });
    const field = dialog.getByLabel("Workspace name");
    await expect(field.inputValue()).resolves.toBe("Fern Weekly");
    await field.fill("   ");
    await dialog.getByRole("button", { name: "Rename", exact: true }).click();
    await expect(field.getAttribute("aria-invalid")).resolves.toBe("true");
    await s.checkScreen("rename-dialog");
    await field.fill("Fern Monthly");
    await dialog.getByRole("button", { name: "Rename", exact: true }).click();
    await page.getByText("The workspace is now called Fern Monthly.").waitFor();
    await page.getByRole("list", { name: "Members of Fern Monthly" }).waitFor();
    await page.locator("header").getByText("Fern Monthly").first().waitFor({ state: "attached" });
    const listed = await s.owner.get<{ data: { id: string; name: string }[] }>("/workspaces");
    expect(listed.body.data.find((w) => w.id === s.ws)?.name).toBe("Fern Monthly");
  });
});

describe("resending an invitation", () => {
  it("asks first, shows the new link once, and the old link stops working", async () => {
    const first = await invite("resend-me@example.com");
    await members();
    await page
      .getByRole("button", { name: "Resend the invitation for resend-me@example.com" })
      .click();
    const confirm = page.getByRole("dialog", { name: "Send resend-me@example.com a new link?" });
    await confirm.waitFor();
    await s.checkScreen("resend-confirm");
    await confirm.getByRole("button", { name: "Make a new link" }).click();
    const shown = page.getByRole("dialog", { name: "Copy the invitation link now" });
    const field = shown.getByLabel("Invitation link for resend-me@example.com");
    const link = await field.inputValue();
    expect(link).toMatch(/#\/join\/[A-Za-z0-9_-]{43}$/);
    expect(link).not.toBe(first.link);
    await s.checkScreen("resend-link");
    expect((await lookUp(first.token)).status).toBe(404);
    expect((await lookUp(link.split("#/join/")[1] ?? "")).status).toBe(200);
    await shown.getByRole("button", { name: /^Copy/ }).first().click();
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(shown.count()).resolves.toBe(0);
  });
});
