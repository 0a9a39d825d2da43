// Password recovery by mail in the dashboard (dashboard/README.md, "Password recovery";
// admin.yaml, requestPasswordReset and completePasswordReset), in headless Chromium against the
// real server and a real SMTP server: "Forgot password?" asks for a link and says the same
// whatever the email; the mailed link (`#/reset/{token}`) opens the page that chooses a new
// password, which takes the token out of the address and sends it only in a request body; the
// sign-in screen then says so, the new password signs in and the old one is refused; a used link
// says it cannot be used and offers a new one; a server without mail shows its operator's
// command instead of the form. Each new screen is held to axe at 1280×800 and 390×844, and the
// whole session to `assertNoProblems` (no console error or failed request it did not provoke).
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  resetTokenOf,
  wellFormedResetToken,
} from "../../dashboard/src/features/account/reset-link.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";
import { linkIn, type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

/**
 * Resolves once the Account screen's access tokens have loaded: a navigation before that would
 * cut the request off, which the session counts as a problem.
 */
const tokensLoaded = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith("/api/admin/me/tokens"));

const OWNER = {
  name: "Rosa Owner",
  email: "rosa@example.com",
  password: "rosa's first passphrase",
  workspaceName: "Rosa Review",
};
/** The owner's password before and after each round's reset. */
const PASSWORDS = [OWNER.password, "rosa's second passphrase", "rosa's third passphrase"];
const SENT =
  "If an account has that email, a link to choose a new password is on its way. It works once, for 30 minutes.";
const CHANGED = "Your password is changed. Sign in with it.";
const UNUSABLE = "This reset link cannot be used any more. Ask for a new one.";
const COMMAND = "npx pressroom user reset-password you@example.com";

const heading = (p: Page, name: string) => p.getByRole("heading", { name, exact: true });
/** What has the keyboard focus: its tag and text (the page's `<body>` reads "BODY"). */
const focused = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement;
    return el === null || el === document.body
      ? "BODY"
      : `${el.tagName} ${el.textContent ?? ""}`.trim();
  });
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A response the step provokes on purpose, as the page reports it (twice: response, console). */
function failedCall(s: DashboardSession, method: string, path: string, status: number): RegExp[] {
  const url = escapeRe(`${s.server.url}${path}`);
  return [
    new RegExp(`^response ${status} ${method} ${url}$`),
    new RegExp(`^console\\.error Failed to load resource: .*status of ${status}\\b.* at ${url}$`),
  ];
}

async function signIn(page: Page, password: string) {
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("password recovery by mail", () => {
  let sink: SmtpSink;
  let s: DashboardSession;
  let page: Page;
  /** Every URL the browser requested, and the latest reset link mailed. */
  const requested: string[] = [];
  let link = "";

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await openDashboardSession({
      shots: "dashboard-password-reset",
      owner: OWNER,
      env: { SMTP_URL: sink.url, MAIL_FROM: "Pressroom <pressroom@example.com>" },
    });
    page = s.page;
    page.setDefaultTimeout(10_000);
    page.on("request", (r) => requested.push(r.url()));
    await s.browser.clearCookies(); // someone who cannot sign in
  });
  afterEach(() => s.assertNoProblems());
  afterAll(() => s?.close());

  const rounds: [ViewportName, number][] = [
    ["phone", 0],
    ["desktop", 1],
  ];
  for (const [viewport, round] of rounds) {
    const [oldPassword = "", newPassword = ""] = PASSWORDS.slice(round, round + 2);

    it(`${viewport}: Forgot password? mails a link, with the same confirmation for an email no account has`, async () => {
      await s.setViewport(viewport);
      await page.goto(s.url("/"));
      await heading(page, "Sign in").waitFor();
      await page.getByRole("button", { name: "Forgot password?" }).click();
      await heading(page, "Reset your password").waitFor();
      await expect.poll(() => focused(page)).toBe("H1 Reset your password");
      await s.checkScreen(`${viewport}-forgot`);

      // Checked before anything is sent: the problem on its field, which takes the focus.
      await page.getByRole("button", { name: "Send reset link" }).click();
      await page.getByText("Enter the email address of your account.").waitFor();
      await expect.poll(() => focused(page)).toBe("INPUT");

      const since = sink.mails.length;
      await page.getByLabel("Email").fill("nobody@example.com");
      await page.getByRole("button", { name: "Send reset link" }).click();
      await heading(page, "Check your email").waitFor();
      const status = page.getByRole("status").filter({ hasText: "If an account" });
      await expect(status.locator("p").first().textContent()).resolves.toBe(SENT);
      await expect.poll(() => focused(page)).toMatch(/^DIV If an account has that email/);
      await s.checkScreen(`${viewport}-forgot-sent`);

      // "Ask again" keeps what was typed, in the field, which takes the focus.
      await page.getByRole("button", { name: "Ask again" }).click();
      await expect(page.getByLabel("Email").inputValue()).resolves.toBe("nobody@example.com");
      await expect.poll(() => focused(page)).toBe("INPUT");
      await page.getByLabel("Email").fill(OWNER.email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await heading(page, "Check your email").waitFor();
      await expect(status.locator("p").first().textContent()).resolves.toBe(SENT);

      const mail = await sink.mailTo(OWNER.email, { since });
      link = linkIn(mail, `${s.server.url}/dashboard/#/reset/`);
      expect(link).toMatch(/#\/reset\/[A-Za-z0-9_-]{43}$/);
      // By the time the owner's mail is in, nothing went to the address no account has.
      expect(sink.mails.slice(since).flatMap((m) => m.to)).toEqual([OWNER.email]);
    });

    it(`${viewport}: the link's page takes the token out of the address and chooses the new password; sign-in says so`, async () => {
      await s.setViewport(viewport);
      const token = link.split("#/reset/")[1] ?? "";
      if (round === 0) {
        // Opened in the open dashboard: only the fragment changes, the page stays.
        await page.goto(link);
      } else {
        // Opened from the mail into a new page.
        await page.goto("about:blank");
        await page.goto(link);
      }
      await heading(page, "Choose a new password").waitFor();
      await expect.poll(() => page.evaluate(() => location.href)).toBe(s.url("/"));
      await s.checkScreen(`${viewport}-reset`);

      await page.getByLabel("New password").fill("short");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("Use at least 10 characters (now 5).").waitFor();
      await expect.poll(() => focused(page)).toBe("INPUT");

      await page.getByLabel("New password").fill(newPassword);
      await page.getByRole("button", { name: "Change password" }).click();
      await heading(page, "Sign in").waitFor();
      const notice = page.getByRole("status").filter({ hasText: CHANGED });
      await expect(notice.textContent()).resolves.toBe(CHANGED);
      await expect.poll(() => focused(page)).toBe(`P ${CHANGED}`);
      await s.checkScreen(`${viewport}-signed-out-after-reset`);

      // The token went to the server in request bodies only: never in an address, nor a log.
      expect(requested.filter((u) => u.includes(token))).toEqual([]);
      expect(s.server.logLines.filter((l) => l.includes(token))).toEqual([]);
    });

    it(`${viewport}: after the reset the old password is refused and the new one signs in`, async () => {
      await s.setViewport(viewport);
      await signIn(page, oldPassword);
      await page.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor();
      s.expectProblems(...failedCall(s, "POST", "/api/admin/session", 401));

      await signIn(page, newPassword);
      await heading(page, "Blogs").waitFor();
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.getByText("You have signed out.").waitFor();
    });
  }

  it("a used link says it cannot be used and offers a new one (Ask for a new link)", async () => {
    await page.goto("about:blank");
    await page.goto(link);
    await heading(page, "Choose a new password").waitFor();
    await page.getByLabel("New password").fill("yet another passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await heading(page, "This reset link cannot be used").waitFor();
    const alert = page.getByRole("alert");
    await expect(alert.textContent()).resolves.toBe(UNUSABLE);
    // The form is gone with its button: the focus is on what went wrong, not the <body>.
    await expect.poll(() => focused(page)).toBe(`DIV ${UNUSABLE}`);
    s.expectProblems(...failedCall(s, "POST", "/api/admin/password-resets/complete", 410));
    await s.checkScreen("reset-link-used");

    await page.getByRole("button", { name: "Ask for a new link" }).click();
    await heading(page, "Reset your password").waitFor();
    await page.getByLabel("Email").waitFor();
    await expect.poll(() => focused(page)).toBe("H1 Reset your password");
    await page.getByRole("button", { name: "Back to sign in" }).click();
    await heading(page, "Sign in").waitFor();
    await expect.poll(() => focused(page)).toBe("H1 Sign in");
    // The password is the one the last reset chose. (Signed in on the account screen, whose
    // access tokens' load is let finish: a later navigation would cut it off.)
    await page.goto(s.url("/account"));
    const tokens = tokensLoaded(page);
    await signIn(page, PASSWORDS[2] ?? "");
    await heading(page, "Your account").waitFor();
    await tokens;
  });

  it("a link cut short on its way is met as one that cannot be used, and is not sent", async () => {
    await page.goto("about:blank");
    const sent = requested.length;
    // The page shows the link's screen before its session is known: that answer is let arrive,
    // or the next test's navigation would cut it off (a failed request).
    const session = page.waitForResponse((r) => r.url().endsWith("/api/admin/session"));
    await page.goto(s.url(`/#/reset/${(link.split("#/reset/")[1] ?? "").slice(0, 30)}`));
    await heading(page, "This reset link cannot be used").waitFor();
    await expect(page.getByRole("alert").textContent()).resolves.toMatch(
      /^This reset link is incomplete\./,
    );
    await page.getByRole("button", { name: "Ask for a new link" }).waitFor();
    expect(requested.slice(sent).filter((u) => u.includes("/password-resets"))).toEqual([]);
    await session;
  });

  it("signed in, a reset link's page still comes first, and Back to the dashboard returns", async () => {
    const tokens = tokensLoaded(page);
    await page.goto(s.url("/account"));
    await heading(page, "Your account").waitFor();
    await tokens;
    await page.goto(link);
    await heading(page, "Choose a new password").waitFor();
    await page.getByRole("button", { name: "Back to the dashboard" }).click();
    await heading(page, "Blogs").waitFor();
  });
});

describe("a server that sends no mail: its operator's command instead of the form", () => {
  let s: DashboardSession;
  let page: Page;

  beforeAll(async () => {
    s = await openDashboardSession({ shots: "dashboard-password-reset", owner: OWNER });
    page = s.page;
    page.setDefaultTimeout(10_000);
  });
  afterEach(() => s.assertNoProblems());
  afterAll(() => s?.close());

  it("signed out, Forgot password? shows the command and no email field", async () => {
    await s.browser.clearCookies();
    await page.goto(s.url("/"));
    await heading(page, "Sign in").waitFor();
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await heading(page, "Reset your password").waitFor();
    await expect(page.locator("pre code").textContent()).resolves.toBe(COMMAND);
    await page.getByText("This Pressroom server sends no mail").waitFor();
    await page.getByText("It prints a link that works once, for 30 minutes.").waitFor();
    await expect(page.getByLabel("Email").count()).resolves.toBe(0);
    await expect(page.getByRole("button", { name: "Send reset link" }).count()).resolves.toBe(0);
    await s.checkScreen("no-mail");
    await page.getByRole("button", { name: "Back to sign in" }).click();
    await heading(page, "Sign in").waitFor();
  });

  it("a page that was not told (it was signed in) learns it from the server's 501, and moves the focus to the command", async () => {
    // Signed in when the page loads: its session answer says nothing of mail.
    // Each load of the Account screen's access tokens is let finish before the page moves on.
    await page.goto(s.url("/account"));
    const first = tokensLoaded(page);
    await signIn(page, OWNER.password);
    await heading(page, "Your account").waitFor();
    await first;
    const second = tokensLoaded(page);
    await page.goto(s.url("/account"));
    await heading(page, "Your account").waitFor();
    await second;
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.locator("pre code").filter({ hasText: COMMAND }).waitFor();
    await expect.poll(() => focused(page)).toMatch(/^DIV This Pressroom server sends no mail/);
    s.expectProblems(...failedCall(s, "POST", "/api/admin/password-resets", 501));
  });
});

// The reset link is `/dashboard/#/reset/{token}` (admin.yaml, requestPasswordReset): its page
// opens for that fragment only, and only a token of the shape the server makes is ever sent.
describe("the dashboard reads a reset link's token from the fragment only", () => {
  const token = "Ab_-".repeat(10).concat("xyz");

  it("happy: #/reset/{token} gives the token, well formed", () => {
    expect(resetTokenOf(`#/reset/${token}`)).toBe(token);
    expect(wellFormedResetToken(token)).toBe(true);
  });

  it("error: another fragment opens no reset page; a cut or mangled token is not well formed", () => {
    for (const hash of ["", "#", "#/resets/abc", "#reset/abc", `#/join/${token}`]) {
      expect(resetTokenOf(hash), hash).toBeNull();
    }
    for (const cut of ["", token.slice(0, 42), `${token}a`, `${token.slice(0, 42)}%`]) {
      expect(wellFormedResetToken(cut), cut).toBe(false);
    }
  });
});
