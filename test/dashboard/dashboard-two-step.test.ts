// Two-step sign-in in the dashboard (admin.yaml, startTwoStep, confirmTwoStep, signInWithCode,
// renewRecoveryCodes, turnOffTwoStep; README, "Your account"), in headless Chromium against the
// real server, at 390×844 and at 1280×800, with the codes an authenticator app would show,
// computed by `otpauth` from the secret the page shows. Turning it on asks the password, shows
// the secret as a named QR code and as a setup key, and the app's code turns it on; the recovery
// codes are shown once, in a dialog as hard to lose as a new key's; signing in then asks for a
// code after the password (an app's code, typed with a space, or a recovery code, each once), and
// a challenge past its 5 minutes goes back to the password; new recovery codes retire the old;
// turning it off asks the password. No secret, code or password is ever in an address or a log.
// Each screen is held to axe at both widths (`checkScreen`, in the desktop pass), and the whole
// session to `assertNoProblems`.
//
// The owners' rule (admin.yaml, setOwnerTwoStep): an owner turns "Owners must use two-step
// sign-in" on only with two-step sign-in of their own (the server's 409 shown otherwise); an
// owner without it sees why, with a link to Account, on every workspace screen instead of 403s,
// and cannot turn it off while the rule holds (409 naming the workspace). One file for the
// feature's browser suite: both parts share its helpers (test/support/two-step.ts) and flows.
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "playwright-core";
import { encode } from "uqr";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLOSE_ARMS_AFTER_MS } from "../../dashboard/src/components/shown-once-guard.js";
import { AdminClient } from "../support/admin-client.js";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";
import { offsetClock } from "../support/test-clock.js";
import { authenticatorApp, errorOf, failedCall, focused, spaced } from "../support/two-step.js";

const OWNER = {
  name: "Tess Owner",
  email: "tess@example.com",
  password: "tess's own passphrase",
  workspaceName: "Tess Notes",
};
const RECOVERY = /^[a-z2-7]{5}-[a-z2-7]{5}$/;
const EXPIRED = "That sign-in took too long. Enter your password again, then a new code.";

describe.each(["desktop", "phone"] as const)("two-step sign-in at %s width", (width) => {
  const clock = offsetClock();
  let s: DashboardSession;
  let page: Page;
  let app: ReturnType<typeof authenticatorApp>;
  let secret = "";
  let codes: string[] = [];
  /** Every URL the browser asked for: no secret, code or password may be in one. */
  const requested: string[] = [];

  beforeAll(async () => {
    s = await openDashboardSession({
      shots: "dashboard-two-step",
      viewport: width,
      owner: OWNER,
      extras: { testHooks: { now: clock.now } },
    });
    page = s.page;
    page.setDefaultTimeout(10_000);
    page.on("request", (r) => requested.push(r.url()));
  });
  afterEach(() => s.assertNoProblems());
  afterAll(async () => {
    // Nothing secret left the page in an address, nor reached the server's log.
    const secrets = [secret, ...codes, OWNER.password].filter((x) => x !== "");
    expect(requested.filter((u) => secrets.some((x) => u.includes(x)))).toEqual([]);
    expect(s.server.logLines.filter((l) => secrets.some((x) => l.includes(x)))).toEqual([]);
    await s?.close();
  });

  /** Each state's axe check and screenshots (both widths) once, in the desktop pass. */
  const check = (name: string) => (width === "desktop" ? s.checkScreen(name) : Promise.resolve());
  const heading = (name: string) => page.getByRole("heading", { name, exact: true });
  const section = () => page.getByRole("region", { name: "Two-step sign-in" });
  const statusText = () => section().locator(".two-step-status").textContent();
  const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);
  const centre = async (target: Locator) => {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error("not on screen");
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };

  async function openAccount() {
    const tokens = page.waitForResponse((r) => r.url().endsWith("/api/admin/me/tokens"));
    await page.goto(s.url("/account"));
    await heading("Your account").waitFor();
    await tokens;
  }
  /** Signs out from the Account screen, then gives the password: the code step shows. */
  async function signOutAndGivePassword() {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByText("You have signed out.").waitFor();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByLabel("Authentication code", { exact: true }).waitFor();
  }
  /** Sends `code` on the code step; signed out from Account, signing in goes back to it. */
  async function verifyAndLand(code: string, label = "Authentication code") {
    const tokens = page.waitForResponse((r) => r.url().endsWith("/api/admin/me/tokens"));
    await page.getByLabel(label, { exact: true }).fill(code);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await heading("Your account").waitFor();
    await tokens;
  }
  /** Sends `code` on the code step and expects it refused on the field (401), focused. */
  async function verifyRefused(label: string, code: string) {
    await page.getByLabel(label, { exact: true }).fill(code);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await expect.poll(async () => (await errorOf(page, label)).invalid).toBe("true");
    await expect.poll(() => focused(page)).toBe("INPUT");
    s.expectProblems(...failedCall(s, "POST", "/api/admin/session/two-step", 401));
  }
  /** The recovery codes dialog `name`: its 10 codes, after a Copy that lets Done close it. */
  async function keepCodes(name: string): Promise<string[]> {
    const items = page
      .getByRole("dialog", { name })
      .getByRole("list", { name: "Recovery codes" })
      .getByRole("listitem");
    await items.first().waitFor();
    const dialog = page.getByRole("dialog", { name });
    const shown = await items.allTextContents();
    await dialog.getByRole("button", { name: "Copy codes" }).click();
    await dialog.getByText("Copied to the clipboard.").waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      shown.join("\n"),
    );
    await dialog.getByRole("button", { name: "Done", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    return shown;
  }

  it("turning it on asks the current password (a wrong one said on its field), then shows the secret as a named QR code of its otpauth URI and as a setup key in groups of 4", async () => {
    await openAccount();
    await expect(statusText()).resolves.toBe("Off");
    await check("two-step-off");
    await section().getByRole("button", { name: "Turn on" }).click();
    const dialog = page.getByRole("dialog", { name: "Turn on two-step sign-in" });
    await dialog.getByLabel("Current password", { exact: true }).fill("not my passphrase");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect.poll(async () => (await errorOf(dialog, "Current password")).invalid).toBe("true");
    await expect.poll(() => focused(page)).toBe("INPUT");
    s.expectProblems(...failedCall(s, "POST", "/api/admin/me/two-step", 403));

    const started = page.waitForResponse(
      (r) => r.url().endsWith("/api/admin/me/two-step") && r.status() === 200,
    );
    await dialog.getByLabel("Current password", { exact: true }).fill(OWNER.password);
    await dialog.getByRole("button", { name: "Continue" }).click();
    const { uri } = (await (await started).json()) as { uri: string };
    const qr = dialog.getByRole("img", {
      name: "QR code to add Pressroom to your authenticator app",
    });
    await qr.waitFor();
    const grouped = await dialog.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/).textContent();
    secret = (grouped ?? "").replaceAll(" ", "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The QR code holds the otpauth URI of that secret, module for module.
    const url = new URL(uri);
    expect([url.protocol, url.host, url.searchParams.get("secret")]).toEqual([
      "otpauth:",
      "totp",
      secret,
    ]);
    expect(url.searchParams.get("issuer")).toBe("Pressroom");
    const drawn = await qr.evaluate((svg) => ({
      tag: svg.tagName,
      viewBox: svg.getAttribute("viewBox"),
      modules: (svg.querySelector("path")?.getAttribute("d")?.match(/M/g) ?? []).length,
      width: svg.getBoundingClientRect().width,
    }));
    const expected = encode(uri, { ecc: "M", border: 4 });
    expect(drawn).toMatchObject({
      tag: "svg",
      viewBox: `0 0 ${expected.size} ${expected.size}`,
      modules: expected.data.flat().filter(Boolean).length,
    });
    expect(drawn.width).toBeGreaterThanOrEqual(150);
    await dialog.getByRole("button", { name: "Copy key" }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    await check("two-step-enrol");
  });

  it("the app's code turns it on (a code of 10 minutes ago is said on its field), and the recovery codes show once in a dialog that Escape, the backdrop and a double tap on Done leave open", async () => {
    app = authenticatorApp(secret, clock);
    const enrol = page.getByRole("dialog", { name: "Turn on two-step sign-in" });
    await enrol.getByLabel("Code from the app", { exact: true }).fill(app.code(-20));
    await enrol.getByRole("button", { name: "Turn on" }).click();
    await expect.poll(async () => (await errorOf(enrol, "Code from the app")).invalid).toBe("true");
    await expect.poll(() => focused(page)).toBe("INPUT");
    s.expectProblems(...failedCall(s, "POST", "/api/admin/me/two-step/confirm", 403));
    await enrol.getByLabel("Code from the app", { exact: true }).fill(spaced(app.code()));
    await enrol.getByRole("button", { name: "Turn on" }).click();

    const dialog = page.getByRole("dialog", { name: "Save your recovery codes" });
    const list = dialog.getByRole("list", { name: "Recovery codes" });
    await list.getByRole("listitem").first().waitFor();
    codes = await list.getByRole("listitem").allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(RECOVERY);
    await check("recovery-codes");

    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await page.mouse.click(4, 4); // the backdrop, outside the dialog at both widths
    await expect(dialog.isVisible(), "open after Escape and a backdrop click").resolves.toBe(true);
    const done = dialog.getByRole("button", { name: "Done", exact: true });
    const at = await centre(done);
    await page.mouse.click(at.x, at.y);
    await page.mouse.click(at.x, at.y);
    await expect(dialog.isVisible(), "open after a double tap on Done").resolves.toBe(true);
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
    await question.getByText("You have not copied the recovery codes.").waitFor();
    await expect.poll(() => isFocused(stay)).toBe(true);
    await check("recovery-codes-asking");
    await stay.click();
    await expect
      .poll(() => isFocused(dialog.getByRole("button", { name: "Copy codes" })))
      .toBe(true);

    // A download keeps them too: a .txt made in the page, all ten in it; Done then closes.
    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: "Download .txt" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("pressroom-recovery-codes.txt");
    const text = await readFile(await file.path(), "utf8");
    for (const code of codes) expect(text).toContain(`\n${code}\n`);
    await done.click();
    await dialog.waitFor({ state: "detached" });
    await expect(statusText()).resolves.toBe("On · 10 recovery codes left");
    const on = "Two-step sign-in is on. Signing in now asks for a code.";
    await expect.poll(() => focused(page)).toBe(`P ${on}`);
    await check("two-step-on");
  });

  it("signing in then asks for the app's code after the password; a wrong one is said on its field, and the code typed with a space signs in", async () => {
    await signOutAndGivePassword();
    const field = page.getByLabel("Authentication code", { exact: true });
    await expect.poll(() => isFocused(field)).toBe(true);
    await expect(field.getAttribute("inputmode")).resolves.toBe("numeric");
    await expect(field.getAttribute("autocomplete")).resolves.toBe("one-time-code");
    await check("sign-in-code");
    await verifyRefused("Authentication code", app.code(-20));
    await verifyAndLand(spaced(app.next()));
    await expect(statusText()).resolves.toBe("On · 10 recovery codes left");
  });

  it("an app's code signs in once: the same code again is refused", async () => {
    // The code is used here, not taken from the test before: a 30-second step that ends between
    // the two would make `app.code()` another code, one never used, and it would sign in.
    await signOutAndGivePassword();
    const used = app.next();
    await verifyAndLand(used);
    await signOutAndGivePassword();
    await verifyRefused("Authentication code", used);
    await verifyAndLand(app.next());
  });

  it("a recovery code signs in once, typed in capitals without its hyphen; used again it is refused, and Back returns to the password", async () => {
    const [first = "", second = ""] = codes;
    await signOutAndGivePassword();
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    const field = page.getByLabel("Recovery code", { exact: true });
    await expect(field.getAttribute("inputmode")).resolves.toBe("text");
    await expect.poll(() => isFocused(field)).toBe(true);
    await check("sign-in-recovery-code");
    await verifyAndLand(first.replace("-", "").toUpperCase(), "Recovery code");
    await expect(statusText()).resolves.toBe("On · 9 recovery codes left");

    await signOutAndGivePassword();
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await verifyRefused("Recovery code", first);
    await page.getByRole("button", { name: "Back to password" }).click();
    const password = page.getByLabel("Password", { exact: true });
    await expect.poll(() => isFocused(password)).toBe(true);
    await password.fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await verifyAndLand(second, "Recovery code");
    await expect(statusText()).resolves.toBe("On · 8 recovery codes left");
  });

  it("a code step left for more than 5 minutes goes back to the password, saying why", async () => {
    await signOutAndGivePassword();
    clock.advance(6 * 60_000);
    await page.getByLabel("Authentication code", { exact: true }).fill(app.next());
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.getByRole("status").filter({ hasText: EXPIRED }).waitFor();
    await expect.poll(() => focused(page)).toBe(`P ${EXPIRED}`);
    await expect(page.getByLabel("Email").inputValue()).resolves.toBe(OWNER.email);
    s.expectProblems(...failedCall(s, "POST", "/api/admin/session/two-step", 401));
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await verifyAndLand(app.next());
  });

  it("new recovery codes ask the password, show once, and the old ones stop working", async () => {
    const old = codes[2] ?? "";
    await section().getByRole("button", { name: "New recovery codes" }).click();
    const ask = page.getByRole("dialog", { name: "New recovery codes" });
    await ask.getByLabel("Current password", { exact: true }).fill(OWNER.password);
    await check("recovery-codes-renew");
    await ask.getByRole("button", { name: "Make new codes" }).click();
    codes = await keepCodes("Save your new recovery codes");
    expect(codes).not.toContain(old);
    await expect(statusText()).resolves.toBe("On · 10 recovery codes left");

    await signOutAndGivePassword();
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await verifyRefused("Recovery code", old);
    await verifyAndLand(codes[0] ?? "", "Recovery code");
  });

  it("turning it off asks the password; signing in then takes the password only", async () => {
    await section().getByRole("button", { name: "Turn off" }).click();
    const ask = page.getByRole("dialog", { name: "Turn off two-step sign-in?" });
    await ask.getByLabel("Current password", { exact: true }).fill(OWNER.password);
    await check("two-step-turn-off");
    await ask.getByRole("button", { name: "Turn off", exact: true }).click();
    await ask.waitFor({ state: "detached" });
    await expect(statusText()).resolves.toBe("Off");
    const off = "Two-step sign-in is off. Signing in asks for your password only.";
    await expect.poll(() => focused(page)).toBe(`P ${off}`);

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByText("You have signed out.").waitFor();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    const tokens = page.waitForResponse((r) => r.url().endsWith("/api/admin/me/tokens"));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await heading("Your account").waitFor();
    await tokens;
  });
});

const SECOND_OWNER = {
  name: "Otto Owner",
  email: "otto@example.com",
  password: "otto's own passphrase",
};

describe.each(["desktop", "phone"] as const)("the owners' two-step rule at %s width", (width) => {
  const clock = offsetClock();
  let s: DashboardSession;
  let page: Page;
  /** The second owner's authenticator app, once they have turned two-step sign-in on. */
  let ottoApp: ReturnType<typeof authenticatorApp>;

  beforeAll(async () => {
    s = await openDashboardSession({
      shots: "dashboard-two-step",
      viewport: width,
      owner: OWNER,
      extras: { testHooks: { now: clock.now } },
    });
    page = s.page;
    page.setDefaultTimeout(10_000);
  });
  afterEach(() => s.assertNoProblems());
  afterAll(() => s?.close());

  const check = (name: string) => (width === "desktop" ? s.checkScreen(name) : Promise.resolve());
  const heading = (name: string) => page.getByRole("heading", { name, exact: true });
  const rule = () => page.getByRole("region", { name: "Owners' sign-in" });
  const box = () => rule().getByRole("checkbox", { name: "Owners must use two-step sign-in" });
  async function openMembers() {
    await page.goto(s.url(`/w/${s.ws}/members`));
    await heading("Members").waitFor();
    await page.getByRole("list", { name: /^Members of / }).waitFor();
  }

  it("an owner without two-step sign-in cannot require it of owners: the server's refusal is shown, and the box stays clear", async () => {
    await openMembers();
    await expect(box().isChecked()).resolves.toBe(false);
    await box().click();
    const refusal = rule().getByRole("alert");
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.not.toBe("");
    await expect(box().isChecked()).resolves.toBe(false);
    s.expectProblems(...failedCall(s, "PUT", `/api/admin/workspaces/${s.ws}/owner-two-step`, 409));
    await check("owner-rule-refused");
  });

  it("an owner with two-step sign-in requires it of the workspace's owners; the box shows it saved", async () => {
    // Turned on through the API (the Account screen's flow is the suite above).
    const started = await s.owner.post<{ secret: string }>("/me/two-step", {
      currentPassword: OWNER.password,
    });
    expect(started.status).toBe(200);
    const app = authenticatorApp(started.body.secret, clock);
    const confirmed = await s.owner.post("/me/two-step/confirm", { code: app.code() });
    expect(confirmed.status).toBe(200);
    await openMembers();
    await box().click();
    await rule().getByText("Saved: owners must use two-step sign-in.").waitFor();
    await expect(box().isChecked()).resolves.toBe(true);
    await check("owner-rule-on");
  });

  it("an owner without two-step sign-in sees why on each workspace screen, with a link to Account, instead of 403s; turning it on there opens the workspace again", async () => {
    const made = await s.owner.post<{ link: string }>(`/workspaces/${s.ws}/invitations`, {
      email: SECOND_OWNER.email,
      role: "owner",
    });
    expect(made.status).toBe(201);
    const otto = new AdminClient(s.server.url);
    const accepted = await otto.post("/invitations/accept", {
      token: made.body.link.split("#/join/")[1] ?? "",
      name: SECOND_OWNER.name,
      password: SECOND_OWNER.password,
    });
    expect(accepted.status).toBe(201);
    const [name = "", value = ""] = (otto.cookie ?? "").split("=");
    await s.browser.clearCookies();
    await s.browser.addCookies([{ name, value, url: s.server.url }]);

    const notice = `${OWNER.workspaceName} asks its owners to use two-step sign-in.`;
    for (const screen of ["blogs", "keys", "members"]) {
      await page.goto(s.url(`/w/${s.ws}/${screen}`));
      await heading("Two-step sign-in required").waitFor();
      await page.getByText(notice, { exact: false }).waitFor();
    }
    await check("owner-notice");

    const tokens = page.waitForResponse((r) => r.url().endsWith("/api/admin/me/tokens"));
    await page.getByRole("link", { name: "Turn it on in Account" }).click();
    await heading("Your account").waitFor();
    await tokens;
    const section = page.getByRole("region", { name: "Two-step sign-in" });
    await section.getByRole("button", { name: "Turn on" }).click();
    const enrol = page.getByRole("dialog", { name: "Turn on two-step sign-in" });
    await enrol.getByLabel("Current password", { exact: true }).fill(SECOND_OWNER.password);
    await enrol.getByRole("button", { name: "Continue" }).click();
    const grouped = await enrol.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/).textContent();
    ottoApp = authenticatorApp((grouped ?? "").replaceAll(" ", ""), clock);
    await enrol.getByLabel("Code from the app", { exact: true }).fill(ottoApp.next());
    await enrol.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByRole("dialog", { name: "Save your recovery codes" });
    await codes.getByRole("button", { name: "Copy codes" }).click();
    await codes.getByRole("button", { name: "Done", exact: true }).click();
    await codes.waitFor({ state: "detached" });

    // While the rule holds, turning it off is refused, and the refusal names the workspace.
    await section.getByRole("button", { name: "Turn off" }).click();
    const ask = page.getByRole("dialog", { name: "Turn off two-step sign-in?" });
    await ask.getByLabel("Current password", { exact: true }).fill(SECOND_OWNER.password);
    await ask.getByRole("button", { name: "Turn off", exact: true }).click();
    await ask.getByRole("alert").filter({ hasText: OWNER.workspaceName }).waitFor();
    s.expectProblems(...failedCall(s, "POST", "/api/admin/me/two-step/turn-off", 409));
    await check("turn-off-refused");
    await ask.getByRole("button", { name: "Cancel" }).click();

    const list = page.waitForResponse((r) => /\/blogs\?/.test(r.url()));
    const counts = page.waitForResponse((r) => r.url().includes("/blog-counts"));
    await page.goto(s.url(`/w/${s.ws}/blogs`));
    await heading("Blogs").waitFor();
    await Promise.all([list, counts]);
  });

  it("an account with two-step sign-in joins by its password without a session, then signs in with its password and code", async () => {
    const other = await s.owner.post<{ id: string }>("/workspaces", { name: "Tess Drafts" });
    expect(other.status).toBe(201);
    const made = await s.owner.post<{ link: string }>(`/workspaces/${other.body.id}/invitations`, {
      email: SECOND_OWNER.email,
      role: "member",
    });
    expect(made.status).toBe(201);
    await s.browser.clearCookies();
    await page.goto("about:blank");
    await page.goto(made.body.link);
    await heading("Join Tess Drafts").waitFor();
    await page.getByRole("button", { name: "I have an account" }).click();
    await page.getByLabel(`Password of ${SECOND_OWNER.email}`).fill(SECOND_OWNER.password);
    await page.getByRole("button", { name: "Sign in and join" }).click();
    const joined =
      "You joined the workspace. Your account uses two-step sign-in: sign in with your password, then the code from your app.";
    await page.getByRole("status").filter({ hasText: joined }).waitFor();
    await expect.poll(() => focused(page)).toBe(`P ${joined}`);
    await check("joined-sign-in");
    await page.getByLabel("Email").fill(SECOND_OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(SECOND_OWNER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByLabel("Authentication code", { exact: true }).fill(ottoApp.next());
    const list = page.waitForResponse((r) => /\/blogs\?/.test(r.url()));
    const counts = page.waitForResponse((r) => r.url().includes("/blog-counts"));
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await heading("Blogs").waitFor();
    await Promise.all([list, counts]);
    const members = await s.owner.get<{ data: { user: { email: string } }[] }>(
      `/workspaces/${other.body.id}/members`,
    );
    expect(members.body.data.map((m) => m.user.email)).toContain(SECOND_OWNER.email);
  });

  it("an owner lifts the rule; the box shows it cleared once saved", async () => {
    await openMembers();
    await box().click();
    await rule().getByText("Saved: owners may sign in with a password only.").waitFor();
    await expect(box().isChecked()).resolves.toBe(false);
  });
});
