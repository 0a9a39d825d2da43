// Changing one's email (admin.yaml, changeEmail, cancelEmailChange and confirmEmailChange; README,
// "Your account"), against a real SMTP server (test/support/smtp-sink.ts): the current password
// is asked for every time and counted as a sign-in; an email another account has is 409, at the
// request and at the confirmation; with mail nothing changes until the link mailed to the new
// address is used, once, within 24 hours, while it is the account's latest; then a notice goes to
// the old address; without mail the password confirms it at once. Either way the account signs
// in with the new email only, its sessions stay, and its password-reset links stop working.
import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { MAX_FAILURES } from "../../server/src/sessions/sign-in-throttle.js";
import { accessTokensStore } from "../../server/src/tokens/access-tokens-store.js";
import { hashEmailChangeToken } from "../../server/src/users/email-change-links.js";
import { passwordResetLinks } from "../../server/src/users/password-reset-links.js";
import { type AdminClient, AddressedClient as Browser } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { linkIn, type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

interface MeBody {
  user: { email: string };
  emailChange: { byMail: boolean; pending: { email: string; expiresAt: string } | null };
}

let t: TestDb;
let sink: SmtpSink;
/** Mails through the sink. */
let mailing: TestServer;
/** Sends no mail. */
let plain: TestServer;
const FROM = "Pressroom <pressroom@example.com>";
const GONE = {
  message:
    "This confirmation link cannot be used any more. Ask for the change again from your account.",
};
const TAKEN = { message: "Another account has this email." };
const WRONG = { message: "The current password is wrong." };

beforeAll(async () => {
  t = await useTestDb();
  sink = await startSmtpSink();
  const env = { TRUST_PROXY: "loopback" };
  mailing = await startTestServer(t.db, { ...env, SMTP_URL: sink.url, MAIL_FROM: FROM });
  plain = await startTestServer(t.db, env);
});

let n = 0;
/** A new account, and a browser signed in as it on `server`. */
async function account(server: TestServer = mailing) {
  n += 1;
  const email = `mover${n}@example.com`;
  const password = `mover passphrase ${n}`;
  const user = await stores(t.db).users.create({ email, name: `Mover ${n}`, password });
  const browser = new Browser(server.url);
  expect((await browser.post("/session", { email, password })).status).toBe(200);
  return { id: user._id, email, password, browser, newEmail: `moved${n}@example.com` };
}

const signIn = (server: TestServer, email: string, password: string) =>
  new Browser(server.url).post("/session", { email, password });
const confirm = (token: string, server: TestServer = mailing) =>
  new Browser(server.url).post("/email-changes/confirm", { token });
const ask = (c: AdminClient, newEmail: string, currentPassword: string) =>
  c.post("/me/email", { newEmail, currentPassword });

/** Asks for the change and returns the token of the link mailed to the new address. */
async function mailedToken(c: AdminClient, newEmail: string, password: string): Promise<string> {
  const since = sink.mails.length;
  expect((await ask(c, newEmail, password)).status).toBe(202);
  const mail = await sink.mailTo(newEmail, { since });
  return (
    linkIn(mail, `${mailing.url}/dashboard/#/confirm-email/`).split("#/confirm-email/")[1] ?? ""
  );
}

describe("the current password (admin.yaml, changeEmail)", () => {
  it("is asked for every time: a wrong one is changePassword's 403, nothing is stored or mailed", async () => {
    const { browser, email, newEmail } = await account();
    const since = sink.mails.length;
    const wrong = await ask(browser, newEmail, "not my passphrase");
    expect([wrong.status, wrong.body]).toEqual([403, WRONG]);
    const missing = await browser.post("/me/email", { newEmail });
    expect(missing.status).toBe(400);
    expect((await browser.get<MeBody>("/me")).body.emailChange.pending).toBeNull();
    expect((await browser.get<MeBody>("/me")).body.user.email).toBe(email);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.mails.slice(since)).toHaveLength(0);
  });

  it("counts as a sign-in: past 5 wrong ones, 429 with Retry-After even with the right one, and sign-in is held too", async () => {
    const { browser, email, password, newEmail } = await account();
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await ask(browser, newEmail, "a wrong guess entirely")).status).toBe(403);
    }
    const refused = await ask(browser, newEmail, password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signIn(mailing, email, password)).status).toBe(429);
  });

  it("a session only: an access token cannot change the email (403)", async () => {
    const { id, password, newEmail } = await account();
    const { secret } = await accessTokensStore(collections(t.db)).create(id, {
      name: "CI",
      scopes: ["blogs:read", "blogs:write", "keys:manage", "webhooks:manage", "members:manage"],
      expiresAt: new Date(Date.now() + 2 * 86_400_000),
    });
    const res = await fetch(`${mailing.url}/api/admin/me/email`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ newEmail, currentPassword: password }),
    });
    expect(res.status).toBe(403);
  });
});

describe("with mail: a link to the new address confirms it (admin.yaml, changeEmail)", () => {
  it("nothing changes yet: 202 with the waiting change, which getMe shows; the link goes to the new address only", async () => {
    const { browser, email, password, newEmail } = await account();
    const since = sink.mails.length;
    const res = await ask(browser, newEmail.toUpperCase(), password);
    expect(res.status).toBe(202);
    const pending = (res.body as { pending: { email: string; expiresAt: string } }).pending;
    expect(pending.email).toBe(newEmail);
    const hours = (Date.parse(pending.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const me = (await browser.get<MeBody>("/me")).body;
    expect(me.user.email).toBe(email);
    expect(me.emailChange).toEqual({ byMail: true, pending });
    const mail = await sink.mailTo(newEmail, { since });
    expect(mail.from).toBe("pressroom@example.com");
    expect(mail.parsed.subject).toBe("Confirm your new Pressroom email");
    const link = linkIn(mail, `${mailing.url}/dashboard/#/confirm-email/`);
    expect(link).toMatch(/#\/confirm-email\/[A-Za-z0-9_-]{43}$/);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    expect(mail.parsed.text).toContain("It works once, for 24 hours.");
    expect(sink.mails.slice(since).filter((m) => m.to.includes(email))).toHaveLength(0);
    expect((await signIn(mailing, email, password)).status).toBe(200);
  });

  it("using the link changes it: the new email signs in, the old one not; the sessions stay; a notice reaches the old address", async () => {
    const { browser, email, password, newEmail } = await account();
    const token = await mailedToken(browser, newEmail, password);
    const since = sink.mails.length;
    const res = await confirm(token);
    expect([res.status, res.body]).toEqual([200, { email: newEmail }]);
    const me = (await browser.get<MeBody>("/me")).body;
    expect([me.user.email, me.emailChange.pending]).toEqual([newEmail, null]);
    expect((await signIn(mailing, newEmail, password)).status).toBe(200);
    expect((await signIn(mailing, email, password)).status).toBe(401);
    const notice = await sink.mailTo(email, { since });
    expect(notice.parsed.subject).toBe("Your Pressroom email was changed");
    expect(notice.parsed.text).toContain(`your Pressroom email was changed to ${newEmail}`);
    expect(notice.parsed.text).not.toContain("#/confirm-email/");
  });

  it("another account's email is 409 at the request, however spelled; the account's own email 409 too", async () => {
    const { browser, email, password } = await account();
    const other = await account();
    const taken = await ask(browser, other.email.toUpperCase(), password);
    expect([taken.status, taken.body]).toEqual([409, TAKEN]);
    const same = await ask(browser, email.toUpperCase(), password);
    expect([same.status, same.body]).toEqual([409, { message: "This is your email already." }]);
  });

  it("an email another account took between the request and the link's use: 409 at the use, nothing changed", async () => {
    const { browser, email, password, newEmail } = await account();
    const token = await mailedToken(browser, newEmail, password);
    await stores(t.db).users.create({
      email: newEmail,
      name: "Quicker",
      password: "quicker passphrase",
    });
    const res = await confirm(token);
    expect([res.status, res.body]).toEqual([409, TAKEN]);
    expect((await browser.get<MeBody>("/me")).body.user.email).toBe(email);
    expect((await signIn(mailing, email, password)).status).toBe(200);
  });

  it("of two uses of one link at the same moment exactly one changes the email; the other gets 410", async () => {
    const { browser, password, newEmail } = await account();
    const token = await mailedToken(browser, newEmail, password);
    const answers = await Promise.all([confirm(token), confirm(token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    expect(answers.find((a) => a.status === 410)?.body).toEqual(GONE);
    expect((await signIn(mailing, newEmail, password)).status).toBe(200);
  });

  it("every link that cannot be used answers the same 410: used, expired, replaced, cancelled, forged, voided by a password change", async () => {
    const used = await account();
    const usedToken = await mailedToken(used.browser, used.newEmail, used.password);
    expect((await confirm(usedToken)).status).toBe(200);

    const expired = await account();
    const expiredToken = await mailedToken(expired.browser, expired.newEmail, expired.password);
    await t.db
      .collection<{ _id: string }>("emailChanges")
      .updateOne({ _id: expired.id }, { $set: { expiresAt: new Date(Date.now() - 1) } });
    expect((await expired.browser.get<MeBody>("/me")).body.emailChange.pending).toBeNull();

    const replaced = await account();
    const older = await mailedToken(replaced.browser, replaced.newEmail, replaced.password);
    const newer = await mailedToken(
      replaced.browser,
      `again-${replaced.newEmail}`,
      replaced.password,
    );

    const cancelled = await account();
    const cancelledToken = await mailedToken(
      cancelled.browser,
      cancelled.newEmail,
      cancelled.password,
    );
    expect((await cancelled.browser.delete("/me/email")).status).toBe(204);
    expect((await cancelled.browser.get<MeBody>("/me")).body.emailChange.pending).toBeNull();

    const changed = await account();
    const changedToken = await mailedToken(changed.browser, changed.newEmail, changed.password);
    const newPassword = "a changed passphrase";
    expect(
      (
        await changed.browser.post("/me/password", {
          currentPassword: changed.password,
          newPassword,
        })
      ).status,
    ).toBe(204);
    expect((await changed.browser.get<MeBody>("/me")).body.emailChange.pending).toBeNull();

    for (const token of [
      usedToken,
      expiredToken,
      older,
      cancelledToken,
      changedToken,
      "F".repeat(43),
    ]) {
      const res = await confirm(token);
      expect([res.status, res.body]).toEqual([410, GONE]);
    }
    for (const who of [expired, replaced, cancelled]) {
      expect((await who.browser.get<MeBody>("/me")).body.user.email).toBe(who.email);
    }
    expect((await changed.browser.get<MeBody>("/me")).body.user.email).toBe(changed.email);
    // The replaced request's newer link still works.
    expect((await confirm(newer)).status).toBe(200);
  });

  it("past 5 unusable tries of one link within 15 minutes, 429", async () => {
    const forged = "G".repeat(43);
    for (let i = 0; i < MAX_FAILURES; i++) expect((await confirm(forged)).status).toBe(410);
    const refused = await confirm(forged);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("past 5 confirmation mails for one account within 15 minutes, 429 and no more mail", async () => {
    const { browser, password, newEmail } = await account();
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await ask(browser, `${i}-${newEmail}`, password)).status).toBe(202);
    }
    const refused = await ask(browser, newEmail, password);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: "Too many confirmation mails for this account. Try again later.",
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.mails.some((m) => m.to.includes(newEmail))).toBe(false);
  });

  it("voids the account's password-reset links, which were mailed to the old address", async () => {
    const { browser, email, password, newEmail } = await account();
    const since = sink.mails.length;
    expect((await new Browser(mailing.url).post("/password-resets", { email })).status).toBe(202);
    const resetMail = await sink.mailTo(email, { since });
    const resetToken =
      linkIn(resetMail, `${mailing.url}/dashboard/#/reset/`).split("#/reset/")[1] ?? "";
    const token = await mailedToken(browser, newEmail, password);
    expect((await confirm(token)).status).toBe(200);
    const reset = await new Browser(mailing.url).post("/password-resets/complete", {
      token: resetToken,
      newPassword: "a password from the old inbox",
    });
    expect(reset.status).toBe(410);
    expect((await signIn(mailing, newEmail, password)).status).toBe(200);
  });

  it("only the token's hash is stored, and the token is in no log line", async () => {
    const { id, browser, password, newEmail } = await account();
    const token = await mailedToken(browser, newEmail, password);
    const stored = await t.db.collection("emailChanges").find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.find((d) => String(d._id) === id)?.tokenHash).toBe(hashEmailChangeToken(token));
    expect((await confirm(token)).status).toBe(200);
    expect(mailing.logLines.some((l) => l.includes(token))).toBe(false);
    expect(mailing.logLines.some((l) => l.includes('"email changed"'))).toBe(true);
  });

  it("a mail the server cannot send answers 503 with Retry-After, and no change waits", async () => {
    const refusing = await startSmtpSink({ refuse: true });
    const server = await startTestServer(t.db, { SMTP_URL: refusing.url, MAIL_FROM: FROM });
    const { browser, password, newEmail } = await account(server);
    const res = await ask(browser, newEmail, password);
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await browser.get<MeBody>("/me")).body.emailChange.pending).toBeNull();
    expect(server.logLines.some((l) => l.includes("mailing an email-change link failed"))).toBe(
      true,
    );
  });
});

describe("without mail: the current password confirms it at once (admin.yaml, changeEmail)", () => {
  it("200 with the new email; the new email signs in, the old one not; the session stays; nothing waits", async () => {
    const { browser, email, password, newEmail } = await account(plain);
    expect((await browser.get<MeBody>("/me")).body.emailChange.byMail).toBe(false);
    const res = await ask(browser, newEmail.toUpperCase(), password);
    expect(res.status).toBe(200);
    const me = res.body as unknown as MeBody;
    expect(me.user.email).toBe(newEmail);
    expect(me.emailChange).toEqual({ byMail: false, pending: null });
    expect((await browser.get<MeBody>("/me")).body.user.email).toBe(newEmail);
    expect((await signIn(plain, newEmail, password)).status).toBe(200);
    expect((await signIn(plain, email, password)).status).toBe(401);
  });

  it("a wrong password is 403 and another account's email 409; nothing changes", async () => {
    const { browser, email, password, newEmail } = await account(plain);
    const other = await account(plain);
    expect([(await ask(browser, newEmail, "not my passphrase")).body]).toEqual([WRONG]);
    expect([(await ask(browser, other.email, password)).body]).toEqual([TAKEN]);
    expect((await browser.get<MeBody>("/me")).body.user.email).toBe(email);
  });

  it("voids the account's password-reset links (made by the operator for the old address)", async () => {
    const { id, browser, password, newEmail } = await account(plain);
    const user = await stores(t.db).users.findById(id);
    if (user === null) throw new Error("no account");
    const { token } = await passwordResetLinks(collections(t.db)).issue(user);
    expect((await ask(browser, newEmail, password)).status).toBe(200);
    const reset = await new Browser(plain.url).post("/password-resets/complete", {
      token,
      newPassword: "a password from the old inbox",
    });
    expect(reset.status).toBe(410);
  });
});
