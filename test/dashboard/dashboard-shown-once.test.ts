// The dialogs that show a secret once (dashboard/README.md, "API keys": the raw key "is shown
// once … The dialog is hard to lose"; the same for a new invitation's link and a webhook's
// signing secret, after an add or a rotation), in headless Chromium against the real server, at
// 1280×800 and at 390×844: Escape and a click on the backdrop leave each open; "Done" without a
// copy asks first, with the focus on "Go back and copy"; a double tap on "Done" never closes it
// (its second tap lands where "Close without copying" appears, which ignores activation for its
// first 500 ms); a Copy lets "Done" close at once. Each dialog and question is held to axe.
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLOSE_ARMS_AFTER_MS } from "../../dashboard/src/components/shown-once-guard.js";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

describe.each(["desktop", "phone"] as const)("secrets shown once at %s width", (width) => {
  let s: DashboardSession;
  let page: Page;

  beforeAll(async () => {
    s = await openDashboardSession({ shots: "dashboard-shown-once", viewport: width });
    page = s.page;
    page.setDefaultTimeout(10_000);
  });
  afterEach(async () => {
    await s.assertNoProblems();
  });
  afterAll(async () => {
    await s?.close();
  });

  const heading = (name: string) => page.getByRole("heading", { name, exact: true });
  const check = (name: string) => (width === "desktop" ? s.checkScreen(name) : Promise.resolve());
  const centre = async (target: Locator) => {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error("not on screen");
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

  /**
   * The dialog `name`, open with `secret` in the field labelled `label`, survives Escape, a
   * backdrop click and a double tap on "Done"; "Close without copying" ignores a tap in its
   * first 500 ms and closes it after. `what` is the noun of its question.
   */
  async function expectHardToLose(name: string, label: string, what: string, shot: string) {
    const dialog = page.getByRole("dialog", { name });
    const field = dialog.getByLabel(label, { exact: true });
    const secret = await field.inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await check(shot);

    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await page.mouse.click(4, 4); // the backdrop, outside the dialog at both widths
    await expect(dialog.isVisible(), "open after Escape and a backdrop click").resolves.toBe(true);

    // A double tap on "Done": both taps at its centre, the second as soon as the first is in.
    const done = dialog.getByRole("button", { name: "Done", exact: true });
    const at = await centre(done);
    await page.mouse.click(at.x, at.y);
    await page.mouse.click(at.x, at.y);
    await expect(dialog.isVisible(), "open after a double tap on Done").resolves.toBe(true);
    await expect(field.inputValue()).resolves.toBe(secret);

    // Asked afresh (back first, if the double tap left the question open): "Close without
    // copying", tapped as soon as it shows, does nothing; the focus is on "Go back and copy".
    const question = dialog.getByRole("alert");
    const stay = question.getByRole("button", { name: "Go back and copy" });
    const leave = question.getByRole("button", { name: "Close without copying" });
    if (await stay.isVisible()) await stay.click();
    const askedAt = Date.now();
    await done.click();
    const leaveAt = await centre(leave);
    await page.mouse.click(leaveAt.x, leaveAt.y);
    expect(Date.now() - askedAt, "the tap came within the guard").toBeLessThan(CLOSE_ARMS_AFTER_MS);
    await expect(dialog.isVisible(), "open after an early tap on Close").resolves.toBe(true);
    await question.getByText(`You have not copied the ${what}.`).waitFor();
    await expect.poll(() => isFocused(stay)).toBe(true);
    await check(`${shot}-asking`);

    // "Go back and copy" returns to the secret's Copy; a Copy lets Done close at once.
    await stay.click();
    await expect.poll(() => question.count()).toBe(0);
    await dialog
      .getByRole("button", { name: /^Copy / })
      .first()
      .click();
    await dialog.getByText("Copied to the clipboard.").waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    await done.click();
    await dialog.waitFor({ state: "detached" });
  }

  /** Done without a copy, then "Close without copying" once it takes taps: it closes. */
  async function closeWithoutCopying(name: string) {
    const dialog = page.getByRole("dialog", { name });
    await dialog.getByRole("button", { name: "Done", exact: true }).click();
    const leave = dialog.getByRole("button", { name: "Close without copying" });
    await expect(leave.isDisabled()).resolves.toBe(true);
    await new Promise((resolve) => setTimeout(resolve, CLOSE_ARMS_AFTER_MS + 100));
    await expect(leave.isDisabled()).resolves.toBe(false);
    const at = await centre(leave);
    await page.mouse.click(at.x, at.y);
    await dialog.waitFor({ state: "detached" });
  }

  it("a new API key: Escape, the backdrop and a double tap on Done keep it; a Copy lets Done close", async () => {
    await page.goto(s.url(`/w/${s.ws}/keys`));
    await heading("API keys").waitFor();
    await page.getByRole("button", { name: "Mint your first key" }).click();
    const mint = page.getByRole("dialog", { name: "Mint an API key" });
    await mint.getByLabel("Key name").fill("Website");
    await mint.getByRole("button", { name: "Mint key" }).click();
    await expectHardToLose("Copy your new key now", "API key “Website”", "key", "key-once");
    await page.getByRole("button", { name: "Mint key", exact: true }).click();
    await mint.getByLabel("Key name").fill("Second");
    await mint.getByRole("button", { name: "Mint key" }).click();
    await closeWithoutCopying("Copy your new key now");
  });

  it("an invitation link: Escape, the backdrop and a double tap on Done keep it; a Copy lets Done close", async () => {
    await page.goto(s.url(`/w/${s.ws}/members`));
    await heading("Members").waitFor();
    for (const [email, protect] of [
      [`once.${width}@example.com`, true],
      [`twice.${width}@example.com`, false],
    ] as const) {
      await page.getByRole("button", { name: "Invite someone" }).click();
      const invite = page.getByRole("dialog", { name: /^Invite someone to / });
      await invite.getByLabel("Email").fill(email);
      await invite.getByRole("button", { name: "Create invitation" }).click();
      const name = "Copy the invitation link now";
      await page.getByRole("dialog", { name }).waitFor();
      if (protect) await expectHardToLose(name, `Invitation link for ${email}`, "link", "link");
      else await closeWithoutCopying(name);
      await page.getByText(email, { exact: true }).waitFor();
    }
  });

  it("a webhook's signing secret, after an add and after a rotation: Escape, the backdrop and a double tap on Done keep it", async () => {
    await page.goto(s.url(`/w/${s.ws}/webhooks`));
    await heading("Webhooks").waitFor();
    const url = `https://example.com/hooks/${width}`;
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const add = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await add.getByRole("textbox", { name: "Endpoint URL" }).fill(url);
    await add.getByRole("button", { name: "Add endpoint" }).click();
    const name = "Copy the signing secret now";
    await page.getByRole("dialog", { name }).waitFor();
    await expectHardToLose(name, `Signing secret of ${url}`, "secret", "webhook-secret");
    await page.getByRole("button", { name: /^Rotate secret/ }).click();
    const rotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await rotate.getByRole("button", { name: "Rotate secret", exact: true }).click();
    await page.getByRole("dialog", { name }).waitFor();
    await expectHardToLose(name, `Signing secret of ${url}`, "secret", "webhook-rotated");
    await page.getByRole("button", { name: /^Rotate secret/ }).click();
    await rotate.getByRole("button", { name: "Rotate secret", exact: true }).click();
    await page.getByRole("dialog", { name }).waitFor();
    await closeWithoutCopying(name);
  });
});
