// The keys screen's flows (dashboard/README.md, "API keys"), in headless Chromium against the real server, each at
// 1280×800 and at 390×844 (dashboard/README.md, "API keys"): the empty state's next step, the
// once-only key dialog that is hard to lose (Escape, the backdrop, "Done" without a copy), its
// environment line and curl example, a key typed at once after the dialog opens, the row's
// Actions menu by keyboard and pointer, revoked keys folded under "Show N revoked", the hint that
// "last used" lags, inline field errors instead of browser bubbles, and Retry after a failed
// load. Every screen, dialog and state is held to axe and screenshotted at both widths.
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

const WIDTHS = ["desktop", "phone"] as const;

describe.each(WIDTHS)("keys flows at %s width", (width) => {
  let s: DashboardSession;
  let page: Page;
  let secret = "";
  /** Admin API writes the page sent (method and path), to prove a refused form sent nothing. */
  const writes: string[] = [];

  beforeAll(async () => {
    s = await openDashboardSession({ shots: "dashboard-keys-flows", viewport: width });
    page = s.page;
    page.on("request", (r) => {
      if (r.method() !== "GET") writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(s.url(`/w/${s.ws}/keys`));
    await heading("API keys").waitFor();
  });
  afterEach(async () => {
    await s.assertNoProblems();
  });
  afterAll(async () => {
    await s?.close();
  });

  const heading = (name: string) => page.getByRole("heading", { name, exact: true });
  /** Each state's axe check and screenshots (both widths) once, in the desktop pass. */
  const check = (name: string) => (width === "desktop" ? s.checkScreen(name) : Promise.resolve());
  const secretDialog = () => page.getByRole("dialog", { name: "Copy your new key now" });
  const actionsOf = (name: string) => page.getByRole("button", { name: `Actions for ${name}` });
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? "");
  /** Waits until the focused element reads `text` (focus moves in effects, after the render). */
  const expectFocusOn = (text: string) => expect.poll(focusedText).toBe(text);
  /** Waits until `target` has the focus (moved in an effect or the next frame). */
  const expectFocused = (target: Locator) =>
    expect.poll(() => target.evaluate((el) => el === document.activeElement)).toBe(true);
  const consumerList = () => `${s.server.url}/api/consumer/blogs`;
  const mainRows = () => page.getByRole("table", { name: /^API keys of / }).locator("tbody tr");

  describe("happy", () => {
    it("a workspace without keys offers “Mint your first key”, the consumer API docs and a curl example with a placeholder key", async () => {
      const empty = page.getByRole("region", { name: "No keys yet" });
      await empty.waitFor();
      await empty.getByRole("button", { name: "Mint your first key" }).waitFor();
      await expect(
        empty.getByRole("link", { name: "Consumer API docs" }).getAttribute("href"),
      ).resolves.toBe("/docs");
      await expect(empty.locator("pre").textContent()).resolves.toBe(
        `curl -H "x-api-key: $PRESSROOM_API_KEY" ${consumerList()}`,
      );
      await check("keys-empty");
    });

    it("“Phone key”, typed at once after clicking “Mint your first key”, lands in “Key name” and names the key", async () => {
      await page.getByRole("button", { name: "Mint your first key" }).click();
      await page.keyboard.type("Phone key");
      const dialog = page.getByRole("dialog", { name: "Mint an API key" });
      await expect(dialog.getByLabel("Key name").inputValue()).resolves.toBe("Phone key");
      await page.keyboard.press("Enter");
      await secretDialog().waitFor();
      secret = await secretDialog().getByLabel("API key “Phone key”").inputValue();
      expect(secret).toMatch(/^cp_live_/);
      // The Copy of the key has the focus (copy-once-field's autofocus in the opening dialog).
      await expectFocusOn("Copy API key “Phone key”");
      await secretDialog().getByRole("button", { name: "Done" }).click();
      await secretDialog().getByRole("button", { name: "Close without copying" }).click();
      await secretDialog().waitFor({ state: "detached" });
    });

    it("the table says that “Last used” can lag by the flush window and the refresh", async () => {
      await mainRows().first().waitFor();
      const hint = page.locator(".last-used-hint");
      await expect(hint.textContent()).resolves.toMatch(
        /“Last used” can trail .*LAST_USED_FLUSH_MS, 1 second unless .* every 10 seconds\./,
      );
      await check("keys-table");
    });

    it("the row's Actions menu works by keyboard: Enter opens on the first item, arrows move and wrap, Escape closes and returns the focus", async () => {
      const actions = actionsOf("Phone key");
      await expect(actions.getAttribute("aria-haspopup")).resolves.toBe("menu");
      await actions.focus();
      await page.keyboard.press("Enter");
      const menu = page.getByRole("menu", { name: "Actions for Phone key" });
      await menu.waitFor();
      await expect(actions.getAttribute("aria-expanded")).resolves.toBe("true");
      await expect(menu.getByRole("menuitem").allTextContents()).resolves.toEqual([
        "View usage",
        "Roll key",
        "Set limit",
        "Revoke key",
      ]);
      await expectFocusOn("View usage");
      await page.keyboard.press("ArrowDown");
      await expectFocusOn("Roll key");
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("ArrowUp");
      await expectFocusOn("Revoke key");
      await page.keyboard.press("Home");
      await expectFocusOn("View usage");
      await check("keys-row-menu-open");
      await page.keyboard.press("Escape");
      await menu.waitFor({ state: "detached" });
      await expect(actions.getAttribute("aria-expanded")).resolves.toBe("false");
      await expectFocused(actions);
      // ArrowUp opens on the last item; Tab closes the menu.
      await page.keyboard.press("ArrowUp");
      await expectFocusOn("Revoke key");
      await page.keyboard.press("Tab");
      await menu.waitFor({ state: "detached" });
      // Space opens it too.
      await actions.focus();
      await page.keyboard.press("Space");
      await menu.waitFor();
      await page.keyboard.press("Escape");
    });

    it("a key revoked from its menu by keyboard (Revoke key → confirm) leaves the table for “Show 1 revoked”", async () => {
      await s.owner.post(`/workspaces/${s.ws}/keys`, { name: "Website" });
      await page.reload();
      await actionsOf("Website").waitFor();
      await actionsOf("Phone key").focus();
      await page.keyboard.press("ArrowUp"); // opens on the last item: Revoke key
      await page.keyboard.press("Enter");
      const confirm = page.getByRole("dialog", { name: "Revoke “Phone key”?" });
      await confirm.waitFor();
      await confirm.getByRole("button", { name: "Revoke key" }).click();
      await confirm.waitFor({ state: "detached" });
      await page.getByText("Key “Phone key” revoked.").waitFor();
      // The list reloads after the notice: the fold's button shows once it has, and takes the
      // focus the confirmation had given back to the row's Actions, gone into the fold.
      const fold = page.getByRole("button", { name: "Show 1 revoked" });
      await fold.waitFor();
      await expectFocused(fold);
      await expect(mainRows().locator("th").allTextContents()).resolves.toEqual(["Website"]);
      const res = await fetch(consumerList(), { headers: { "x-api-key": secret } });
      await res.arrayBuffer();
      expect(res.status).toBe(401);
    });

    it("the menu by pointer: a click opens it, a click elsewhere closes it; Cancel in the confirmation returns the focus to Actions; Revoke key revokes", async () => {
      const actions = actionsOf("Website");
      const menu = page.getByRole("menu", { name: "Actions for Website" });
      await actions.click();
      await menu.waitFor();
      await heading("API keys").click();
      await menu.waitFor({ state: "detached" });
      await actions.click();
      await menu.getByRole("menuitem", { name: "Revoke key" }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke “Website”?" });
      await confirm.waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "detached" });
      await expectFocused(actions);
      await actions.click();
      await menu.getByRole("menuitem", { name: "Revoke key" }).click();
      await confirm.getByRole("button", { name: "Revoke key" }).click();
      await confirm.waitFor({ state: "detached" });
      await page.getByText("Key “Website” revoked.").waitFor();
      await expectFocused(page.getByRole("button", { name: "Show 2 revoked" }));
    });

    it("revoked keys fold under “Show 2 revoked” (aria-expanded); the Revoked filter lists them at once", async () => {
      await page.getByText("No active or expired keys.").waitFor();
      const fold = page.getByRole("button", { name: "Show 2 revoked" });
      await expect(fold.getAttribute("aria-expanded")).resolves.toBe("false");
      await fold.click();
      const hide = page.getByRole("button", { name: "Hide 2 revoked" });
      await expect(hide.getAttribute("aria-expanded")).resolves.toBe("true");
      const revoked = page.getByRole("table", { name: /^Revoked keys of / }).locator("tbody tr");
      await expect(revoked.locator("th").allTextContents()).resolves.toEqual([
        "Website",
        "Phone key",
      ]);
      // Nothing left to do with a revoked key but read its usage.
      await actionsOf("Website").click();
      const menu = page.getByRole("menu", { name: "Actions for Website" });
      await menu.waitFor();
      await expect(menu.getByRole("menuitem").allTextContents()).resolves.toEqual(["View usage"]);
      await page.keyboard.press("Escape");
      await check("keys-revoked-shown");
      await hide.click();
      await expect(revoked.count()).resolves.toBe(0);
      const filter = page.getByRole("radiogroup", { name: "Show keys" });
      await filter.getByText("Revoked").click();
      await expect(mainRows().count()).resolves.toBe(2);
      await expect(page.getByRole("button", { name: /revoked$/ }).count()).resolves.toBe(0);
      await filter.getByText("All").click();
    });
  });

  describe("errors", () => {
    it("the mint form shows an empty name's error inline, focuses the field, and sends nothing", async () => {
      await page.getByRole("button", { name: "Mint key", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Mint an API key" });
      const name = dialog.getByLabel("Key name");
      await name.fill("   ");
      writes.length = 0;
      await dialog.getByRole("button", { name: "Mint key" }).click();
      await expectInlineError(name, "Enter a name for the key.");
      await dialog.getByRole("radiogroup", { name: "Expires" }).getByText("On a date").click();
      await dialog.getByLabel("Expiry date").fill("");
      await dialog.getByRole("button", { name: "Mint key" }).click();
      await expectInlineError(
        dialog.getByLabel("Expiry date"),
        "Choose the day the key stops working.",
      );
      await expectFocused(name);
      await check("mint-inline-errors");
      expect(writes).toEqual([]);
      await name.fill("Limits");
      await dialog.getByRole("radiogroup", { name: "Expires" }).getByText("Never").click();
      await dialog.getByRole("button", { name: "Mint key" }).click();
      await secretDialog().waitFor();
    });

    it("a refused clipboard selects the key for Ctrl+C and does not count as a copy; a Ctrl+C copy does", async () => {
      const dialog = secretDialog();
      await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new Error("refused"));
      });
      await dialog.getByRole("button", { name: "Copy API key “Limits”" }).click();
      await dialog.getByText("Could not copy: the key is selected, press Ctrl+C (⌘C)").waitFor();
      const field = dialog.getByLabel("API key “Limits”");
      const value = await field.inputValue();
      await expect(
        field.evaluate((el: HTMLInputElement) => [
          el === document.activeElement,
          el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0),
        ]),
      ).resolves.toEqual([true, value]);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.getByText("You have not copied the key.").waitFor();
      await dialog.getByRole("button", { name: "Go back and copy" }).click();
      await field.focus();
      await page.keyboard.press("ControlOrMeta+C");
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
    });

    it("the key and workspace limit forms show out-of-bounds numbers inline and send nothing", async () => {
      await actionsOf("Limits").click();
      await page.getByRole("menuitem", { name: "Set limit" }).click();
      const dialog = page.getByRole("dialog", { name: "Rate limit of “Limits”" });
      await dialog.getByRole("radiogroup", { name: "Limit" }).getByText("Its own limit").click();
      await dialog.getByLabel("Requests").fill("0");
      await dialog.getByLabel("Per window of (seconds)").fill("");
      writes.length = 0;
      await dialog.getByRole("button", { name: "Save limit" }).click();
      await expectInlineError(dialog.getByLabel("Requests"), /^Enter a whole number from 1 to /);
      await expectInlineError(
        dialog.getByLabel("Per window of (seconds)"),
        "Enter the number of seconds.",
      );
      await expectFocused(dialog.getByLabel("Requests"));
      await check("key-limit-inline-errors");
      await dialog.getByRole("button", { name: "Cancel" }).click();

      const section = page.getByRole("region", { name: "Default rate limit" });
      await section.getByText("Custom limit").click();
      await section.getByLabel("Requests").fill("10");
      await section.getByLabel("Per window of (seconds)").fill("0.5");
      await section.getByRole("button", { name: "Save default" }).click();
      await expectInlineError(
        section.getByLabel("Per window of (seconds)"),
        /^Enter a whole number from 1 to /,
      );
      await expect(section.getByLabel("Requests").getAttribute("aria-invalid")).resolves.toBe(null);
      expect(writes).toEqual([]);
      await check("workspace-limit-inline-errors");
      await section.getByText("Server default", { exact: true }).click();
    });

    it("a failed load of the keys shows the server's message with Try again, which loads them", async () => {
      const keysPath = `/api/admin/workspaces/${s.ws}/keys`;
      await page.route(
        (url) => url.pathname === keysPath,
        (route) =>
          route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({ message: "The database is not answering." }),
          }),
        { times: 1 },
      );
      s.expectProblems(
        new RegExp(`^response 503 GET ${s.server.url}${keysPath}$`),
        /^console\.error Failed to load resource: .*status of 503/,
      );
      await page.reload();
      const alert = page.getByRole("alert").filter({ hasText: "The database is not answering." });
      await alert.waitFor();
      await check("keys-load-failed");
      await alert.getByRole("button", { name: "Try again" }).click();
      await alert.waitFor({ state: "detached" });
      await expect(actionsOf("Limits").count()).resolves.toBe(1);
    });

    it("an older list answered after a newer one is dropped: a key just revoked does not come back as active", async () => {
      await s.owner.post(`/workspaces/${s.ws}/keys`, { name: "Stale" });
      await page.reload();
      await actionsOf("Stale").waitFor();
      // The next list (the refresh's) is read now, with "Stale" active, and answered only after
      // the list the revoke asks for.
      const keysPath = `/api/admin/workspaces/${s.ws}/keys`;
      let release = () => {};
      const released = new Promise<void>((done) => {
        release = done;
      });
      let held = false;
      await page.route(
        (url) => url.pathname === keysPath,
        async (route) => {
          const before = await route.fetch();
          held = true;
          await released;
          await route.fulfill({ response: before });
        },
        { times: 1 },
      );
      // What the 10 s refresh does, at once: the page coming back into view reloads the list.
      await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
      await expect.poll(() => held).toBe(true);
      await actionsOf("Stale").click();
      await page.getByRole("menuitem", { name: "Revoke key" }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke “Stale”?" });
      await confirm.getByRole("button", { name: "Revoke key" }).click();
      await page.getByRole("button", { name: "Show 3 revoked" }).waitFor();
      const staleDone = page.waitForEvent(
        "requestfinished",
        (r) => new URL(r.url()).pathname === keysPath,
      );
      release();
      await staleDone;
      // Two frames: the old answer has been read and, were it used, rendered.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      await expect(mainRows().locator("th").allTextContents()).resolves.toEqual(["Limits"]);
      await expect(page.getByRole("button", { name: "Show 3 revoked" }).count()).resolves.toBe(1);
    });
  });
});

describe.each(WIDTHS)("the once-only key dialog at %s width", (width) => {
  let s: DashboardSession;
  let page: Page;

  beforeAll(async () => {
    s = await openDashboardSession({ shots: "dashboard-keys-flows", viewport: width });
    page = s.page;
    await page.goto(s.url(`/w/${s.ws}/keys`));
    await page.getByRole("heading", { name: "API keys", exact: true }).waitFor();
  });
  afterEach(async () => {
    // A test that failed with its dialog open leaves the next one a page it can use.
    const left = secretDialog();
    if (await left.isVisible()) {
      await left.getByRole("button", { name: "Done", exact: true }).click();
      // Asked unless something was copied (cleanup only: a wait, no assertion).
      const force = left.getByRole("button", { name: "Close without copying" });
      const asked = await force.waitFor({ timeout: 2000 }).then(
        () => true,
        () => false,
      );
      if (asked) await force.click();
      await left.waitFor({ state: "detached" });
    }
    await s.assertNoProblems();
  });
  afterAll(async () => {
    await s?.close();
  });

  const check = (name: string) => (width === "desktop" ? s.checkScreen(name) : Promise.resolve());
  const secretDialog = () => page.getByRole("dialog", { name: "Copy your new key now" });
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? "");
  const expectFocusOn = (text: string) => expect.poll(focusedText).toBe(text);
  const consumerList = () => `${s.server.url}/api/consumer/blogs`;
  /** Mints `name` through the form: each test has its own once-only dialog, open. */
  const openSecretDialog = async (name: string) => {
    await page.getByRole("button", { name: "Mint key", exact: true }).click();
    const mint = page.getByRole("dialog", { name: "Mint an API key" });
    await mint.getByLabel("Key name").fill(name);
    await mint.getByRole("button", { name: "Mint key" }).click();
    const dialog = secretDialog();
    await dialog.waitFor();
    const secret = await dialog.getByLabel(`API key “${name}”`).inputValue();
    expect(secret).toMatch(/^cp_live_/);
    return { dialog, secret };
  };

  it("the key dialog survives Escape (twice) and a click on the backdrop", async () => {
    const { dialog, secret } = await openSecretDialog("Escape key");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    // The viewport's corner is the backdrop: outside the dialog's box, and the backdrop hit-tests
    // as the <dialog> element itself.
    await expect(
      dialog.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const inside = box.left <= 3 && 3 <= box.right && box.top <= 3 && 3 <= box.bottom;
        return [document.elementFromPoint(3, 3) === el, inside];
      }),
    ).resolves.toEqual([true, false]);
    await page.mouse.click(3, 3);
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(dialog.getByLabel("API key “Escape key”").inputValue()).resolves.toBe(secret);
    await check("key-secret-dialog");
  });

  it("the dialog offers PRESSROOM_API_KEY=… and a curl call with the key and this server's URL; the call works", async () => {
    const { dialog, secret } = await openSecretDialog("Curl key");
    await expect(dialog.getByLabel("As an environment variable").inputValue()).resolves.toBe(
      `PRESSROOM_API_KEY=${secret}`,
    );
    const curl = await dialog.getByLabel("Try it with curl").inputValue();
    expect(curl).toBe(`curl -H "x-api-key: ${secret}" ${consumerList()}`);
    const [, key = "", url = ""] = /^curl -H "x-api-key: (\S+)" (\S+)$/.exec(curl) ?? [];
    const res = await fetch(url, { headers: { "x-api-key": key } });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
  });

  it("“Done” before any Copy asks first; going back keeps the key on screen", async () => {
    const { dialog, secret } = await openSecretDialog("Unsure key");
    await dialog.getByRole("button", { name: "Done" }).click();
    const ask = dialog.getByRole("alert");
    await expect(ask.textContent()).resolves.toContain("You have not copied the key.");
    await expectFocusOn("Go back and copy");
    await check("key-secret-confirm-close");
    await page.keyboard.press("Escape"); // still refused while asking
    await dialog.getByRole("button", { name: "Go back and copy" }).click();
    await dialog.getByRole("button", { name: "Done" }).waitFor();
    await expectFocusOn("Copy API key “Unsure key”");
    await expect(dialog.getByLabel("API key “Unsure key”").inputValue()).resolves.toBe(secret);
  });

  it("a Ctrl+C of the hint or a label is no copy of the key: “Done” still asks; a Ctrl+C of the key is", async () => {
    const { dialog } = await openSecretDialog("Hint key");
    // The hint's words selected and copied, as a reader might.
    await dialog.locator("p.hint", { hasText: "x-api-key" }).evaluate((hint) => {
      const range = document.createRange();
      range.selectNodeContents(hint);
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
    });
    await page.keyboard.press("Control+C");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog.getByRole("alert").textContent()).resolves.toContain(
      "You have not copied the key.",
    );
    await dialog.getByRole("button", { name: "Go back and copy" }).click();
    // The key's field selects itself on focus: Ctrl+C copies the key.
    await dialog.getByLabel("API key “Hint key”").focus();
    await page.keyboard.press("Control+C");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("Copy puts the line on the clipboard, reads “Copied”, then “Copy” again; “Done” after a Copy closes", async () => {
    const { dialog, secret } = await openSecretDialog("Copy key");
    await dialog.getByRole("button", { name: "Copy As an environment variable" }).click();
    await dialog.getByRole("button", { name: "Copied As an environment variable" }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      `PRESSROOM_API_KEY=${secret}`,
    );
    // Back to "Copy" (after two seconds), so a second copy reads true.
    await dialog.getByRole("button", { name: "Copy As an environment variable" }).waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });
    // The raw key is gone: not on the page, not in the address, not in storage.
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    expect(page.url()).not.toContain(secret);
    const stored = await page.evaluate(() =>
      JSON.stringify([{ ...localStorage }, { ...sessionStorage }]),
    );
    expect(stored).not.toContain(secret.slice(8));
  });
});

/** The field shows `message` under it, is aria-invalid, and is described by it first. */
async function expectInlineError(field: Locator, message: string | RegExp) {
  await expect(field.getAttribute("aria-invalid")).resolves.toBe("true");
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  const first = describedBy.split(" ")[0] ?? "";
  const error = field.page().locator(`[id="${first}"]`);
  await expect(error.getAttribute("class")).resolves.toBe("field-error");
  if (typeof message === "string") await expect(error.textContent()).resolves.toBe(message);
  else await expect(error.textContent()).resolves.toMatch(message);
}
