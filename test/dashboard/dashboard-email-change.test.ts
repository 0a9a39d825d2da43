// Changing one's email in the dashboard (README, "Your account"; admin.yaml, changeEmail,
// cancelEmailChange and confirmEmailChange), in headless Chromium against the real server and a
// real SMTP server: the Account screen's Email section asks for the new email and the current
// password; with mail it says to check the new inbox and shows the change waiting, with Cancel;
// the mailed link (`#/confirm-email/{token}`) confirms it signed in or out, takes the token out
// of the address and sends it only in a request body, and says what happened; a used link is
// explained plainly (410). Without mail the change is made at once. Each new screen is held to
// axe at 1280×800 and 390×844, and the whole session to `assertNoProblems`.
import type { Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  confirmTokenOf,
  wellFormedConfirmToken,
} from "../../dashboard/src/features/account/confirm-email-link.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";
import { linkIn, type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

const OWNER = {
  name: "Ivy Owner",
  email: "ivy@example.com",
  password: "ivy's own passphrase",
  workspaceName: "Ivy Letters",
};
const GONE =
  "This confirmation link cannot be used any more. Ask for the change again from your account.";

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

/** The Account screen, its access tokens loaded (a navigation before would cut that request). */
async function openAccount(s: DashboardSession) {
  const tokens = s.page.waitForResponse((r) => r.url().endsWith("/api/admin/me/tokens"));
  await s.page.goto(s.url("/account"));
  await heading(s.page, "Your account").waitFor();
  await tokens;
}

/**
 * Does `step`, which leads to the Blogs screen, and lets its list and counts load (a navigation
 * before would cut them off, which the session counts as a problem).
 */
async function toBlogs(p: Page, step: () => Promise<void>) {
  const list = p.waitForResponse((r) => /\/blogs\?/.test(r.url()));
  const counts = p.waitForResponse((r) => r.url().includes("/blog-counts"));
  await step();
  await heading(p, "Blogs").waitFor();
  await Promise.all([list, counts]);
}

const emailSection = (p: Page) => p.getByRole("region", { name: "Email" });

async function askChange(p: Page, newEmail: string, password: string) {
  const section = emailSection(p);
  await section.getByLabel("New email").fill(newEmail);
  await section.getByLabel("Your password", { exact: true }).fill(password);
  await section.getByRole("button", { name: "Change email" }).click();
}

describe("with mail: the link mailed to the new address confirms the change", () => {
  let sink: SmtpSink;
  let s: DashboardSession;
  let page: Page;
  /** Every URL the browser requested; the owner's email now; the latest link mailed. */
  const requested: string[] = [];
  let email = OWNER.email;
  let link = "";

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await openDashboardSession({
      shots: "dashboard-email-change",
      owner: OWNER,
      env: { SMTP_URL: sink.url, MAIL_FROM: "Pressroom <pressroom@example.com>" },
    });
    page = s.page;
    page.setDefaultTimeout(10_000);
    page.on("request", (r) => {
      requested.push(r.url());
      inFlight.add(r);
    });
    page.on("requestfinished", (r) => inFlight.delete(r));
    page.on("requestfailed", (r) => inFlight.delete(r));
  });
  afterEach(() => s.assertNoProblems());
  afterAll(() => s?.close());

  /** Requests the page has made that have not ended yet. */
  const inFlight = new Set<Request>();
  /**
   * Opens a blank page once the dashboard's requests have ended: a navigation away aborts one
   * still running (a list read after the last step's, seen once in CI), which the problems
   * watch counts as a failed request.
   */
  const leave = async () => {
    await expect.poll(() => inFlight.size).toBe(0);
    await page.goto("about:blank");
  };

  const rounds: [ViewportName, number][] = [
    ["phone", 0],
    ["desktop", 1],
  ];
  for (const [viewport, round] of rounds) {
    const newEmail = `ivy.${round}@example.net`;

    it(`${viewport}: the Email section checks its fields, says a wrong password on its field, and with the right one says to check the new inbox`, async () => {
      await s.setViewport(viewport);
      await openAccount(s);
      const section = emailSection(page);
      await section.getByText(`You sign in with ${email}.`).waitFor();
      await s.checkScreen(`${viewport}-email`);

      await section.getByRole("button", { name: "Change email" }).click();
      await section.getByText("Enter the new email.").waitFor();
      await expect.poll(() => focused(page)).toBe("INPUT");

      await askChange(page, newEmail, "not my passphrase");
      await section.getByText("The current password is wrong.").waitFor();
      await expect.poll(() => focused(page)).toBe("INPUT");
      s.expectProblems(...failedCall(s, "POST", "/api/admin/me/email", 403));

      const since = sink.mails.length;
      await askChange(page, newEmail, OWNER.password);
      const told = `Check the inbox of ${newEmail}: the change happens when you open the link there.`;
      await section.getByRole("status").filter({ hasText: told }).waitFor();
      await section
        .getByText(`Waiting for confirmation: a link was mailed to ${newEmail}.`, {
          exact: false,
        })
        .waitFor();
      await section.getByText(`You sign in with ${email}.`).waitFor();
      await s.checkScreen(`${viewport}-email-waiting`);
      const mail = await sink.mailTo(newEmail, { since });
      link = linkIn(mail, `${s.server.url}/dashboard/#/confirm-email/`);
      expect(link).toMatch(/#\/confirm-email\/[A-Za-z0-9_-]{43}$/);
    });

    if (round === 0) {
      it(`${viewport}: Cancel change ends the waiting change and its link; the focus goes to the form`, async () => {
        await s.setViewport(viewport);
        const section = emailSection(page);
        const cancelled = link;
        await section.getByRole("button", { name: "Cancel change" }).click();
        await section.getByText(`Change cancelled. Your email stays ${email}.`).waitFor();
        await expect(section.getByRole("button", { name: "Cancel change" }).count()).resolves.toBe(
          0,
        );
        await expect.poll(() => focused(page)).toBe("INPUT");
        // Its link says it cannot be used; then the change is asked for again.
        await page.goto(cancelled);
        await heading(page, "This confirmation link cannot be used").waitFor();
        s.expectProblems(...failedCall(s, "POST", "/api/admin/email-changes/confirm", 410));
        await toBlogs(page, () =>
          page.getByRole("button", { name: "Back to the dashboard" }).click(),
        );
        await openAccount(s);
        const since = sink.mails.length;
        await askChange(page, newEmail, OWNER.password);
        await emailSection(page).getByText("Waiting for confirmation", { exact: false }).waitFor();
        link = linkIn(
          await sink.mailTo(newEmail, { since }),
          `${s.server.url}/dashboard/#/confirm-email/`,
        );
      });
    }

    it(`${viewport}: the link's page confirms ${round === 0 ? "signed in" : "signed out"}, takes the token out of the address, and says what happened`, async () => {
      await s.setViewport(viewport);
      const token = link.split("#/confirm-email/")[1] ?? "";
      if (round === 1) await s.browser.clearCookies(); // opened in another browser
      await leave();
      await page.goto(link);
      await heading(page, "Your email is changed").waitFor();
      const done = `Your Pressroom email is now ${newEmail}.`;
      await page.getByRole("status").filter({ hasText: done }).waitFor();
      await expect.poll(() => focused(page)).toMatch(new RegExp(`^DIV ${escapeRe(done)}`));
      await expect.poll(() => page.evaluate(() => location.href)).toBe(s.url("/"));
      await s.checkScreen(`${viewport}-email-confirmed`);
      // The token went to the server in a request body only: never in an address, nor a log.
      expect(requested.filter((u) => u.includes(token))).toEqual([]);
      expect(s.server.logLines.filter((l) => l.includes(token))).toEqual([]);
      const old = email;
      email = newEmail;

      if (round === 0) {
        await toBlogs(page, () =>
          page.getByRole("button", { name: "Back to the dashboard" }).click(),
        );
        await openAccount(s);
        await emailSection(page).getByText(`You sign in with ${newEmail}.`).waitFor();
        await page.getByRole("button", { name: "Sign out", exact: true }).click();
        await page.getByText("You have signed out.").waitFor();
      } else {
        await page.getByRole("button", { name: "Go to sign in" }).click();
        await heading(page, "Sign in").waitFor();
      }
      // The old email is refused; the new one signs in.
      await page.getByLabel("Email").fill(old);
      await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor();
      s.expectProblems(...failedCall(s, "POST", "/api/admin/session", 401));
      await page.getByLabel("Email").fill(newEmail);
      await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
      if (round === 0) {
        // Signed out from the Account screen: signing in goes back to it.
        const tokens = page.waitForResponse((r) => r.url().endsWith("/api/admin/me/tokens"));
        await page.getByRole("button", { name: "Sign in", exact: true }).click();
        await emailSection(page).getByText(`You sign in with ${newEmail}.`).waitFor();
        await tokens;
      } else {
        await toBlogs(page, () =>
          page.getByRole("button", { name: "Sign in", exact: true }).click(),
        );
      }
    });
  }

  it("a used link says plainly that it cannot be used, and why; nothing changes", async () => {
    await leave();
    await page.goto(link);
    await heading(page, "This confirmation link cannot be used").waitFor();
    await expect(page.getByRole("alert").textContent()).resolves.toBe(GONE);
    await expect.poll(() => focused(page)).toBe(`DIV ${GONE}`);
    await page
      .getByText("A link works once: if it was used already, the change is made", { exact: false })
      .waitFor();
    s.expectProblems(...failedCall(s, "POST", "/api/admin/email-changes/confirm", 410));
    await s.checkScreen("email-link-used");
    await toBlogs(page, () => page.getByRole("button", { name: "Back to the dashboard" }).click());
  });

  it("a link cut short on its way is met as one that cannot be used, and is not sent", async () => {
    await leave();
    const sent = requested.length;
    const cut = (link.split("#/confirm-email/")[1] ?? "").slice(0, 30);
    await page.goto(s.url(`/#/confirm-email/${cut}`));
    await heading(page, "This confirmation link cannot be used").waitFor();
    await expect(page.getByRole("alert").textContent()).resolves.toMatch(
      /^This confirmation link is incomplete\./,
    );
    expect(requested.slice(sent).filter((u) => u.includes("/email-changes"))).toEqual([]);
    await toBlogs(page, () => page.getByRole("button", { name: "Back to the dashboard" }).click());
  });
});

describe("without mail: the current password confirms the change at once", () => {
  let s: DashboardSession;
  let page: Page;

  beforeAll(async () => {
    s = await openDashboardSession({ shots: "dashboard-email-change", owner: OWNER });
    page = s.page;
    page.setDefaultTimeout(10_000);
  });
  afterEach(() => s.assertNoProblems());
  afterAll(() => s?.close());

  const viewports: ViewportName[] = ["phone", "desktop"];
  for (const [round, viewport] of viewports.entries()) {
    it(`${viewport}: the email changes at once, and the screen says so`, async () => {
      await s.setViewport(viewport);
      const before = round === 0 ? OWNER.email : "ivy.plain0@example.net";
      const after = `ivy.plain${round}@example.net`;
      await openAccount(s);
      const section = emailSection(page);
      await section
        .getByText("Your email changes at once; sign in with the new one from then on.")
        .waitFor();
      await section.getByText(`You sign in with ${before}.`).waitFor();
      await askChange(page, after, OWNER.password);
      const done = `Email changed. Sign in with ${after} from now on.`;
      await section.getByRole("status").filter({ hasText: done }).waitFor();
      await section.getByText(`You sign in with ${after}.`).waitFor();
      await page.getByText(`Signed in as ${OWNER.name} (${after}).`).waitFor();
      await expect(section.getByText("Waiting for confirmation").count()).resolves.toBe(0);
      await s.checkScreen(`${viewport}-email-changed-at-once`);
    });
  }

  it("another account's email is said on the field (409)", async () => {
    const other = { email: "other@example.net", name: "Other", password: "other's passphrase" };
    const made = await s.owner.post(`/workspaces/${s.ws}/invitations`, {
      email: other.email,
      role: "member",
    });
    const token = String((made.body as { link: string }).link).split("#/join/")[1] ?? "";
    const accepted = await fetch(`${s.server.url}/api/admin/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.server.url },
      body: JSON.stringify({ token, name: other.name, password: other.password }),
    });
    expect(accepted.status).toBe(201);
    await openAccount(s);
    await askChange(page, other.email, OWNER.password);
    await emailSection(page).getByText("Another account has this email.").waitFor();
    await expect.poll(() => focused(page)).toBe("INPUT");
    s.expectProblems(...failedCall(s, "POST", "/api/admin/me/email", 409));
  });
});

// The confirmation link is `/dashboard/#/confirm-email/{token}` (admin.yaml, changeEmail): its
// page opens for that fragment only, and only a token of the shape the server makes is ever sent.
describe("the dashboard reads a confirmation link's token from the fragment only", () => {
  const token = "Ab_-".repeat(10).concat("xyz");

  it("happy: #/confirm-email/{token} gives the token, well formed", () => {
    expect(confirmTokenOf(`#/confirm-email/${token}`)).toBe(token);
    expect(wellFormedConfirmToken(token)).toBe(true);
  });

  it("error: another fragment opens no confirmation page; a cut or mangled token is not well formed", () => {
    for (const hash of [
      "",
      "#",
      "#/confirm-emails/abc",
      "#confirm-email/abc",
      `#/reset/${token}`,
    ]) {
      expect(confirmTokenOf(hash), hash).toBeNull();
    }
    for (const cut of ["", token.slice(0, 42), `${token}a`, `${token.slice(0, 42)}%`]) {
      expect(wellFormedConfirmToken(cut), cut).toBe(false);
    }
  });
});
