// The dashboard's app-wide flows (dashboard/README.md, "How it is put together": offline, forms, errors) in headless Chromium against the real
// server, at 1280×800 and at 390×844: the offline banner (the browser offline, or a request that
// did not reach the server) and its going away; Retry after a failed load; the workspace switcher
// (a menu button) by keyboard and by pointer, with "Create workspace" inside it; the password
// fields' Show/Hide button; inline field errors instead of the browser's bubbles.
import type { Locator, Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fieldOfMessage } from "../../dashboard/src/components/checked-form.js";
import { problemOf } from "../../dashboard/src/components/field-rules.js";
import { launchChromium } from "../support/chromium.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

const heading = (page: Page, name: string) => page.getByRole("heading", { name, exact: true });
const banner = (page: Page) => page.locator(".offline-banner");
const OFFLINE = /net::ERR_INTERNET_DISCONNECTED/;

/** The text of the elements a control's aria-describedby names, in order. */
const description = (control: Locator) =>
  control.evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );
/**
 * Submits a form with `submit` and expects each of `fields` (label → the start of its message)
 * marked invalid and described by its message, focus on the first, and the form `noValidate`.
 */
async function expectRefused(
  page: Page,
  scope: Locator,
  submit: string,
  fields: [label: string, message: string][],
) {
  await expect(
    scope
      .locator("form")
      .first()
      .evaluate((f) => (f as HTMLFormElement).noValidate),
  ).resolves.toBe(true);
  await scope.getByRole("button", { name: submit, exact: true }).click();
  for (const [label, message] of fields) {
    const control = scope.getByLabel(label, { exact: true });
    await expect(control.getAttribute("aria-invalid"), label).resolves.toBe("true");
    await expect(description(control), label).resolves.toMatch(new RegExp(`^${message}`));
  }
  const [first] = fields;
  if (first) await focused(page, scope.getByLabel(first[0], { exact: true }));
}

/** Waits until `control` has the focus (forms move it after the errors have rendered). */
/**
 * Resolves once the Blogs screen — a workspace's first (shell.tsx) — has fetched its list and its
 * counts, so the next `page.goto` cuts off no request of that screen.
 */
const blogsScreenSettled = (page: Page) =>
  new Promise<void>((done) => {
    const left = new Set(["/blogs", "/blog-counts"]);
    const on = (r: Request) => {
      const path = new URL(r.url()).pathname;
      for (const end of left) if (path.endsWith(end)) left.delete(end);
      if (left.size > 0) return;
      page.off("requestfinished", on);
      done();
    };
    page.on("requestfinished", on);
  });
const focused = (page: Page, control: Locator) => control.and(page.locator(":focus")).waitFor();
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el instanceof HTMLElement ? el.textContent : null;
  });

describe("field rules, checked on submit", () => {
  it("an empty value is refused with the field's own words only when it is required", () => {
    expect(problemOf("  ", { required: "Enter your name." })).toBe("Enter your name.");
    expect(problemOf("", {})).toBeUndefined();
  });
  it("lengths are counted on what was typed and said with the count", () => {
    expect(problemOf("short", { minLength: 10 })).toBe("Use at least 10 characters (now 5).");
    expect(problemOf("x".repeat(11), { maxLength: 10 })).toBe(
      "Use at most 10 characters (now 11).",
    );
    expect(problemOf("x".repeat(10), { minLength: 10, maxLength: 10 })).toBeUndefined();
  });
  it("an email needs an @ between two parts; a URL must be absolute http(s)", () => {
    expect(problemOf("nobody", { email: true })).toMatch(/^Enter an email address/);
    expect(problemOf(" a@b ", { email: true })).toBeUndefined();
    expect(problemOf("example.com/hook", { url: true })).toMatch(/^Enter a full URL/);
    expect(problemOf("ftp://example.com/", { url: true })).toMatch(/^Enter a full URL/);
    expect(problemOf("https://example.com/hook", { url: true })).toBeUndefined();
  });
  it("a server's message is put on the field it names, by the validator's path or its words", () => {
    const mentions = { workspaceName: /\bworkspace\b/i, name: /\bname\b/i };
    expect(
      fieldOfMessage("request/body/name must NOT have more than 100 characters", mentions),
    ).toBe("name");
    expect(fieldOfMessage("Workspace name contains a control character.", mentions)).toBe(
      "workspaceName",
    );
    expect(fieldOfMessage("Pressroom is set up already.", mentions)).toBeNull();
  });
});

describe.each(["desktop", "phone"] as const)(
  "app-wide flows at %s width",
  (width: ViewportName) => {
    let s: DashboardSession;
    let page: Page;
    const screen = (name: string) => `${width}-flow-${name}`;
    const goto = async (path: string, title: string) => {
      await page.goto(s.url(path));
      await heading(page, title).waitFor();
    };

    beforeAll(async () => {
      s = await openDashboardSession({ shots: "dashboard-app-flows", viewport: width });
      page = s.page;
      page.setDefaultTimeout(10_000);
    });
    afterEach(async () => {
      await s.browser.setOffline(false);
      await s.assertNoProblems();
    });
    afterAll(async () => {
      await s?.close();
    });

    describe("offline banner", () => {
      it("shows while the browser is offline, says what still works, and goes when it is back", async () => {
        await goto(`/w/${s.ws}/members`, "Members");
        await expect(banner(page).count()).resolves.toBe(0);
        await s.browser.setOffline(true);
        await banner(page).waitFor();
        const status = page.getByRole("status").filter({ has: banner(page) });
        await expect(status.textContent()).resolves.toContain(
          "Changes you make will not be saved until the connection is back",
        );
        // Going to another screen while offline: its load fails, the banner stays, Retry is offered.
        await page.getByRole("link", { name: "Webhooks" }).click();
        await heading(page, "Webhooks").waitFor();
        await page.getByRole("button", { name: "Try again" }).waitFor();
        s.expectProblems(OFFLINE);
        await s.checkScreen(screen("offline"));
        await s.browser.setOffline(false);
        await banner(page).waitFor({ state: "detached" });
        // Back online, the next request that cannot reach the server shows it again.
        await page.route(
          /\/api\/admin\/workspaces\/[^/]+\/webhooks$/,
          (r) => r.abort("internetdisconnected"),
          {
            times: 1,
          },
        );
        await page.getByRole("button", { name: "Try again" }).click();
        await banner(page).waitFor();
        await page.getByRole("button", { name: "Try again" }).click();
        await banner(page).waitFor({ state: "detached" });
        await page.getByText("No endpoints yet.").waitFor();
      });

      it("shows after a request that did not reach the server, until the next one is answered", async () => {
        await goto(`/w/${s.ws}/keys`, "API keys");
        await page.route(
          /\/api\/admin\/workspaces\/[^/]+\/members$/,
          (r) => r.abort("internetdisconnected"),
          {
            times: 1,
          },
        );
        // The invitations, asked at the same moment, are held until the banner shows: their
        // answer, coming after the failure, must not hide it (only an answer to a request sent
        // after the failure does).
        let release = () => {};
        const released = new Promise<void>((done) => {
          release = done;
        });
        let held = false;
        await page.route(
          /\/api\/admin\/workspaces\/[^/]+\/invitations$/,
          async (r) => {
            held = true;
            await released;
            await r.continue();
          },
          { times: 1 },
        );
        await page.getByRole("link", { name: "Members" }).click();
        await heading(page, "Members").waitFor();
        await banner(page).waitFor();
        s.expectProblems(OFFLINE);
        expect(held).toBe(true);
        const answered = page.waitForResponse(/\/invitations$/);
        release();
        await answered;
        await page.getByText("None. Invited people show here").waitFor();
        await expect(banner(page).count()).resolves.toBe(1);
        await page.getByRole("button", { name: "Try again" }).click();
        await page.getByRole("list", { name: /^Members of / }).waitFor();
        await banner(page).waitFor({ state: "detached" });
      });

      it("shows on the signed-out screens too", async () => {
        const other = await launchChromium();
        try {
          const signedOut = await other.newPage();
          const errors: string[] = [];
          signedOut.on("pageerror", (err) => errors.push(err.message));
          await signedOut.goto(s.url("/"));
          await heading(signedOut, "Sign in").waitFor();
          await other.setOffline(true);
          await banner(signedOut).waitFor();
          await other.setOffline(false);
          await banner(signedOut).waitFor({ state: "detached" });
          expect(errors).toEqual([]);
        } finally {
          await other.close();
        }
      });
    });

    describe("retry", () => {
      it("a failed load of the webhooks shows the server's message and Try again, which loads them", async () => {
        await goto(`/w/${s.ws}/members`, "Members");
        await page.route(
          /\/api\/admin\/workspaces\/[^/]+\/webhooks$/,
          (r) => r.fulfill({ status: 500, json: { message: "The database is not answering." } }),
          { times: 1 },
        );
        await page.getByRole("link", { name: "Webhooks" }).click();
        const alert = page.getByRole("alert").filter({ hasText: "The database is not answering." });
        await alert.waitFor();
        s.expectProblems(/response 500 GET .*\/webhooks$/, /status of 500/);
        // A server error is no connection problem: no offline banner.
        await expect(banner(page).count()).resolves.toBe(0);
        await s.checkScreen(screen("load-failed"));
        await alert.getByRole("button", { name: "Try again" }).click();
        await page.getByText("No endpoints yet.").waitFor();
        await expect(alert.count()).resolves.toBe(0);
      });
    });

    describe("workspace switcher", () => {
      const menuButton = () => page.getByRole("button", { name: /^Workspace: / });
      const menu = () => page.getByRole("menu", { name: "Workspaces" });

      it("by keyboard: ↓ opens it on the first workspace, the current one checked; End, a first letter, ↑, Enter switch; Escape closes to the button", async () => {
        const second = await s.owner.post<{ id: string }>("/workspaces", {
          name: `Second desk ${width}`,
        });
        await goto(`/w/${s.ws}/members`, "Members");
        await menuButton().focus();
        await expect(menuButton().getAttribute("aria-expanded")).resolves.toBe("false");
        await page.keyboard.press("ArrowDown");
        await menu().waitFor();
        await expect(menuButton().getAttribute("aria-expanded")).resolves.toBe("true");
        const items = menu().getByRole("menuitemradio");
        await expect(items.count()).resolves.toBeGreaterThanOrEqual(2);
        await expect(focusedLabel(page)).resolves.toBe(await items.first().textContent());
        await expect(
          menu().getByRole("menuitemradio", { checked: true }).textContent(),
        ).resolves.toBe("Fern Weekly");
        await s.checkScreen(screen("switcher-open"));
        await page.keyboard.press("End");
        await expect(focusedLabel(page)).resolves.toBe("Create workspace");
        // Type-ahead: a first letter moves to the next entry it starts, wrapping round.
        await page.keyboard.press("f");
        await expect(focusedLabel(page)).resolves.toBe("Fern Weekly");
        await page.keyboard.press("c");
        await expect(focusedLabel(page)).resolves.toBe("Create workspace");
        await page.keyboard.press("Escape");
        await menu().waitFor({ state: "hidden" });
        await focused(page, menuButton());
        await page.keyboard.press("ArrowUp"); // opens on the last entry
        await expect(focusedLabel(page)).resolves.toBe("Create workspace");
        await page.keyboard.press("ArrowUp");
        await expect(focusedLabel(page)).resolves.toBe(`Second desk ${width}`);
        await page.keyboard.press("Enter");
        await page.waitForURL(new RegExp(`/w/${second.body.id}/members$`));
        await heading(page, "Members").waitFor();
        await page.getByRole("list", { name: `Members of Second desk ${width}` }).waitFor();
        await expect(menuButton().textContent()).resolves.toContain(`Second desk ${width}`);
      });

      it("by pointer: a click outside closes it; “Create workspace” opens the dialog, which checks the name inline and opens the new workspace", async () => {
        await goto(`/w/${s.ws}/members`, "Members");
        await menuButton().click();
        await menu().waitFor();
        // The page's bottom left corner: under the menu at neither width.
        await page.mouse.click(4, (page.viewportSize()?.height ?? 800) - 4);
        await menu().waitFor({ state: "hidden" });
        await menuButton().click();
        await menu().getByRole("menuitem", { name: "Create workspace" }).click();
        const dialog = page.getByRole("dialog", { name: "New workspace" });
        await dialog.waitFor();
        const name = dialog.getByRole("textbox", { name: "Workspace name" });
        await focused(page, name);
        // Empty: said on the field, no request, no browser bubble.
        await dialog.getByRole("button", { name: "Create workspace" }).click();
        await expect(name.getAttribute("aria-invalid")).resolves.toBe("true");
        await expect(description(name)).resolves.toContain("Name the workspace.");
        await expect(
          dialog.locator("form").evaluate((f) => (f as HTMLFormElement).noValidate),
        ).resolves.toBe(true);
        await s.checkScreen(screen("new-workspace-error"));
        await name.fill(`Third desk ${width}`);
        await expect(name.getAttribute("aria-invalid")).resolves.toBeNull();
        const settled = blogsScreenSettled(page);
        await dialog.getByRole("button", { name: "Create workspace" }).click();
        await dialog.waitFor({ state: "detached" });
        await heading(page, "Blogs").waitFor();
        await settled;
        await expect(menuButton().textContent()).resolves.toContain(`Third desk ${width}`);
        await menuButton().click();
        await expect(
          menu().getByRole("menuitemradio", { checked: true }).textContent(),
        ).resolves.toBe(`Third desk ${width}`);
        await page.keyboard.press("Escape");
      });
    });

    describe("password fields", () => {
      it("Show password shows it as text and Hide password hides it again, keeping focus, caret and autocomplete", async () => {
        await goto("/account", "Your account");
        const current = page.getByLabel("Current password", { exact: true });
        await current.fill("abcd");
        await current.evaluate((el) => (el as HTMLInputElement).setSelectionRange(2, 2));
        const show = page.getByRole("button", { name: "Show password" }).first();
        await show.click();
        await expect(current.getAttribute("type")).resolves.toBe("text");
        await page.getByRole("button", { name: "Hide password" }).waitFor();
        await focused(page, current);
        // The caret, after the frame the switch was laid out in, is where it was.
        await expect(
          current.evaluate(
            (el) =>
              new Promise((done) =>
                requestAnimationFrame(() => done((el as HTMLInputElement).selectionStart)),
              ),
          ),
        ).resolves.toBe(2);
        await page.keyboard.type("X");
        await expect(current.inputValue()).resolves.toBe("abXcd");
        await expect(current.getAttribute("autocomplete")).resolves.toBe("current-password");
        await s.checkScreen(screen("password-shown"));
        // By keyboard: the button keeps the focus, to be pressed again.
        await page.getByRole("button", { name: "Hide password" }).focus();
        await page.keyboard.press("Enter");
        await expect(current.getAttribute("type")).resolves.toBe("password");
        await focused(page, page.getByRole("button", { name: "Show password" }).first());
        const fresh = page.getByLabel("New password", { exact: true });
        await expect(fresh.getAttribute("autocomplete")).resolves.toBe("new-password");
      });

      it("a shown password is masked again as its form is submitted, and when the field goes away", async () => {
        await goto("/account", "Your account");
        const current = page.getByLabel("Current password", { exact: true });
        await current.fill("abcd");
        await page.getByRole("button", { name: "Show password" }).first().click();
        await expect(current.getAttribute("type")).resolves.toBe("text");
        // The type the form's submit event leaves, read after every handler has run.
        await page.evaluate(() => {
          document.addEventListener(
            "submit",
            (e) => {
              const input = (e.target as HTMLFormElement).querySelector(
                'input[autocomplete="current-password"]',
              );
              document.body.dataset.typeAtSubmit = (input as HTMLInputElement).type;
            },
            { once: true },
          );
        });
        // The new password is empty: refused on the form, nothing sent, the submit event fired.
        await page.getByRole("button", { name: "Change password" }).click();
        await expect(page.locator("body").getAttribute("data-type-at-submit")).resolves.toBe(
          "password",
        );
        await page.getByRole("button", { name: "Show password" }).first().waitFor();
        await expect(current.getAttribute("type")).resolves.toBe("password");
        // Shown again, then the screen left: the detached input is a password field again.
        await page.getByRole("button", { name: "Show password" }).first().click();
        await expect(current.getAttribute("type")).resolves.toBe("text");
        const input = await current.elementHandle();
        const settled = blogsScreenSettled(page);
        await page.locator("a.brand").click(); // home: the first workspace's blogs
        await heading(page, "Blogs").waitFor();
        await settled;
        await expect(
          input?.evaluate((el) => [el.isConnected, (el as HTMLInputElement).type]),
        ).resolves.toEqual([false, "password"]);
        await input?.dispose();
      });
    });

    describe("inline field errors", () => {
      it("an empty form is refused on its fields, no bubble, focus on the first; the server's wrong password is said on its field; typing clears it", async () => {
        await goto("/account", "Your account");
        const form = page.locator("form").filter({ has: page.getByLabel("Current password") });
        const current = page.getByLabel("Current password", { exact: true });
        const fresh = page.getByLabel("New password", { exact: true });
        await expect(form.evaluate((f) => (f as HTMLFormElement).noValidate)).resolves.toBe(true);
        await page.getByRole("button", { name: "Change password" }).click();
        await expect(current.getAttribute("aria-invalid")).resolves.toBe("true");
        await expect(fresh.getAttribute("aria-invalid")).resolves.toBe("true");
        await expect(description(current)).resolves.toBe("Enter your current password.");
        // The error first, then the hint.
        await expect(description(fresh)).resolves.toMatch(/^Choose a new password\. At least \d+/);
        await focused(page, current);
        await s.checkScreen(screen("account-errors"));
        // Too short: the spec's minimum, said on the field; what was typed stays.
        await current.fill("not my password");
        await fresh.fill("short");
        await page.getByRole("button", { name: "Change password" }).click();
        await expect(current.getAttribute("aria-invalid")).resolves.toBeNull();
        await expect(description(fresh)).resolves.toMatch(/^Use at least \d+ characters \(now 5\)/);
        await focused(page, fresh);
        // The server's 403 about the current password: on that field.
        await fresh.fill("a new and long enough passphrase");
        await page.getByRole("button", { name: "Change password" }).click();
        await page.locator('input[autocomplete="current-password"][aria-invalid="true"]').waitFor();
        await expect(description(current)).resolves.toBe("The current password is wrong.");
        await expect(current.inputValue()).resolves.toBe("not my password");
        s.expectProblems(/response 403 POST .*\/me\/password$/, /status of 403/);
        await current.fill("not my password either");
        await expect(current.getAttribute("aria-invalid")).resolves.toBeNull();
      });

      it("your name (admin.yaml, updateMe): saved and shown in the header at once; blank or a bidi override refused on the field, nothing sent", async () => {
        await goto("/account", "Your account");
        const section = page.getByRole("region", { name: "Your name" });
        const name = section.getByLabel("Name", { exact: true });
        const original = await name.inputValue();
        await name.fill("   ");
        await expectRefused(page, section, "Save name", [["Name", "Enter your name\\."]]);
        await name.fill("Evil \u202e name");
        await expectRefused(page, section, "Save name", [["Name", "Use one line of plain text"]]);
        await s.checkScreen(screen("name-error"));
        await name.fill("  Olive Renamed  ");
        await section.getByRole("button", { name: "Save name" }).click();
        await section.getByText("Name saved.").waitFor();
        await expect(name.inputValue()).resolves.toBe("Olive Renamed");
        await page
          .locator("header")
          .getByText("Olive Renamed")
          .first()
          .waitFor({ state: "attached" });
        await s.checkScreen(screen("name-saved"));
        await name.fill(original);
        await section.getByRole("button", { name: "Save name" }).click();
        await page.locator("header").getByText(original).first().waitFor({ state: "attached" });
      });

      it("the invite, webhook and join forms say what is wrong on their fields; nothing is sent", async () => {
        await goto(`/w/${s.ws}/members`, "Members");
        await page.getByRole("list", { name: /^Members of / }).waitFor();
        await page.getByRole("button", { name: "Invite someone" }).click();
        const invite = page.getByRole("dialog", { name: /^Invite someone to / });
        await expectRefused(page, invite, "Create invitation", [
          ["Email", "Enter the email address to invite\\."],
        ]);
        await invite.getByLabel("Email").fill("not an address");
        await expectRefused(page, invite, "Create invitation", [
          ["Email", "Enter an email address, like name@example\\.com\\."],
        ]);
        await s.checkScreen(screen("invite-error"));
        await invite.getByRole("button", { name: "Cancel" }).click();

        await page.getByRole("link", { name: "Webhooks" }).click();
        await page.getByText("No endpoints yet.").waitFor();
        await page.getByRole("button", { name: "Add endpoint" }).click();
        const add = page.getByRole("dialog", { name: "Add a webhook endpoint" });
        for (const box of await add.getByRole("checkbox").all()) await box.uncheck();
        await expectRefused(page, add, "Add endpoint", [
          ["Endpoint URL", "Enter the URL to send events to\\."],
        ]);
        const events = add.getByRole("group", { name: "Events" });
        await expect(description(events)).resolves.toBe("Choose at least one event.");
        await s.checkScreen(screen("webhook-form-error"));
        await add.getByRole("button", { name: "Cancel" }).click();

        const link = await s.owner.post<{ link: string }>(`/workspaces/${s.ws}/invitations`, {
          email: `joiner.${width}@example.com`,
          role: "member",
        });
        await page.goto(link.body.link);
        const join = page.getByRole("main");
        await heading(page, "Join Fern Weekly").waitFor();
        await join.getByLabel("Choose a password").fill("short");
        await expectRefused(page, join, "Create account and join", [
          ["Your name", "Enter your name\\."],
          ["Choose a password", "Use at least \\d+ characters \\(now 5\\)"],
        ]);
        await s.checkScreen(screen("join-error"));
      });

      it("the sign-in form says what is missing on its fields", async () => {
        await goto("/account", "Your account");
        await page.getByRole("button", { name: "Sign out", exact: true }).click();
        const signIn = page.getByRole("main");
        await heading(page, "Sign in").waitFor();
        await expectRefused(page, signIn, "Sign in", [
          ["Email", "Enter your email address\\."],
          ["Password", "Enter your password\\."],
        ]);
        await s.checkScreen(screen("sign-in-error"));
      });
    });
  },
);
