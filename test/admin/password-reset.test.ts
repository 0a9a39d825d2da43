// Password recovery by mail (admin.yaml, requestPasswordReset and completePasswordReset; README,
// "Password recovery"), against a real SMTP server (test/support/smtp-sink.ts): asking answers
// alike for every email and mails a link only to an account; a link works once, for 30 minutes,
// for the password it was made for; using it ends every session of the account, sign-ins under
// way too, voids its other links and forgets its failed sign-ins; asking and using are throttled
// as sign-ins are; the token is only ever in the mail.
import { beforeAll, describe, expect, it } from "vitest";
import {
  MAX_FAILURES,
  MAX_FAILURES_PER_ADDRESS,
} from "../../server/src/sessions/sign-in-throttle.js";
import { hashResetToken } from "../../server/src/users/password-reset-links.js";
import { AdminClient, AddressedClient as Browser } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { holdPoints } from "../support/hold-points.js";
import { linkIn, type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let sink: SmtpSink;
let server: TestServer;
const FROM = "Pressroom <pressroom@example.com>";
const GONE = { message: "This reset link cannot be used any more. Ask for a new one." };
/** Sign-ins of the user id held between their password check and their session's insert. */
const points = holdPoints();

beforeAll(async () => {
  t = await useTestDb();
  sink = await startSmtpSink();
  server = await startTestServer(
    t.db,
    { SMTP_URL: sink.url, MAIL_FROM: FROM, TRUST_PROXY: "loopback" },
    { testHooks: { beforeSessionInsert: (id) => points.pass(id) } },
  );
});

let n = 0;
/** A new account with `sessions` browsers signed in as it. */
async function account(sessions = 0) {
  n += 1;
  const email = `reset${n}@example.com`;
  const password = `old passphrase ${n}`;
  const user = await stores(t.db).users.create({ email, name: `Reset Person ${n}`, password });
  const browsers: AdminClient[] = [];
  for (let i = 0; i < sessions; i++) {
    const c = anyone();
    expect((await c.post("/session", { email, password })).status).toBe(200);
    browsers.push(c);
  }
  return { email, password, id: user._id, browsers };
}

const anyone = (): AdminClient => new Browser(server.url);
const ask = (email: string, c = anyone()) => c.post("/password-resets", { email });
const complete = (token: string, newPassword: string, c = anyone()) =>
  c.post("/password-resets/complete", { token, newPassword });
const signIn = (email: string, password: string) => anyone().post("/session", { email, password });

/** Asks for a link for `email` and returns its token, from the mail. */
async function mailedToken(email: string): Promise<string> {
  const since = sink.mails.length;
  expect((await ask(email)).status).toBe(202);
  const mail = await sink.mailTo(email, { since });
  return linkIn(mail, `${server.url}/dashboard/#/reset/`).split("#/reset/")[1] ?? "";
}

describe("asking for a link", () => {
  it("an account's email gets one mail, from MAIL_FROM, whose link (text and HTML) opens the dashboard's reset page", async () => {
    const { email } = await account();
    const since = sink.mails.length;
    const res = await ask(email);
    expect(res.status).toBe(202);
    expect(res.body).toBeUndefined();
    const mail = await sink.mailTo(email, { since });
    expect(mail.parsed.from?.value).toEqual([
      { name: "Pressroom", address: "pressroom@example.com" },
    ]);
    expect(mail.from).toBe("pressroom@example.com");
    expect(mail.parsed.subject).toBe("Choose a new Pressroom password");
    const link = linkIn(mail, `${server.url}/dashboard/#/reset/`);
    expect(link).toMatch(/#\/reset\/[A-Za-z0-9_-]{43}$/);
    expect(mail.parsed.text).toContain("It works once, for 30 minutes.");
    expect(mail.parsed.html).toContain(`href="${link}"`);
    expect(sink.mails.slice(since).filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it("an email without an account gets the same 202 and no mail; nothing is stored", async () => {
    const unknown = `nobody${n}@example.com`;
    const { email } = await account();
    const since = sink.mails.length;
    const unknownAnswer = await ask(unknown);
    const knownAnswer = await ask(email);
    expect([unknownAnswer.status, unknownAnswer.body]).toEqual([
      knownAnswer.status,
      knownAnswer.body,
    ]);
    // The known email's mail, asked for after the unknown one, arrives; none to the unknown one.
    await sink.mailTo(email, { since });
    expect(sink.mails.slice(since).some((m) => m.to.includes(unknown))).toBe(false);
    expect(await stores(t.db).users.findByEmail(unknown)).toBeNull();
  });

  it("past 5 asks for one email within 15 minutes, known or not, the answer is 429 with Retry-After, and no more mail goes out", async () => {
    const { email } = await account();
    const unknown = `nobody-at-all${n}@example.com`;
    for (const who of [email, unknown]) {
      for (let i = 0; i < MAX_FAILURES; i++) expect((await ask(who)).status).toBe(202);
      const refused = await ask(who);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Five links were made and mailed for the known email, and no more.
    const user = await stores(t.db).users.findByEmail(email);
    await expect
      .poll(() => sink.mails.filter((m) => m.to.includes(email)).length)
      .toBe(MAX_FAILURES);
    expect(await t.db.collection("passwordResets").countDocuments({ userId: user?._id })).toBe(
      MAX_FAILURES,
    );
  });
});

describe("using a link", () => {
  it("sets the new password once: every session of the account ends, the old password stops working, the new one works", async () => {
    const { email, password, browsers } = await account(2);
    const token = await mailedToken(email);
    const res = await complete(token, "a fresh new passphrase");
    expect(res.status).toBe(204);
    for (const b of browsers) expect((await b.get("/me")).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await signIn(email, "a fresh new passphrase")).status).toBe(200);
    const again = await complete(token, "yet another passphrase");
    expect([again.status, again.body]).toEqual([410, GONE]);
    expect((await signIn(email, "a fresh new passphrase")).status).toBe(200);
  });

  it("does not sign the browser in: the answer sets no session cookie", async () => {
    const { email } = await account();
    const token = await mailedToken(email);
    const c = anyone();
    expect((await complete(token, "a fresh new passphrase", c)).status).toBe(204);
    expect(c.cookie).toBeUndefined();
    expect((await c.get("/me")).status).toBe(401);
  });

  it("an expired link (past 30 minutes) answers 410 and changes nothing", async () => {
    const { email, password } = await account();
    const token = await mailedToken(email);
    await t.db
      .collection<{ _id: string }>("passwordResets")
      .updateOne({ _id: hashResetToken(token) }, { $set: { expiresAt: new Date(Date.now() - 1) } });
    const res = await complete(token, "a fresh new passphrase");
    expect([res.status, res.body]).toEqual([410, GONE]);
    expect((await signIn(email, password)).status).toBe(200);
  });

  it("a password change after the link was made voids it (410), as does signing out everywhere", async () => {
    const changed = await account(1);
    const token = await mailedToken(changed.email);
    const self = changed.browsers[0] as AdminClient;
    expect(
      (
        await self.post("/me/password", {
          currentPassword: changed.password,
          newPassword: "changed by hand passphrase",
        })
      ).status,
    ).toBe(204);
    expect([(await complete(token, "a fresh new passphrase")).status]).toEqual([410]);
    expect((await signIn(changed.email, "changed by hand passphrase")).status).toBe(200);

    const ended = await account(1);
    const second = await mailedToken(ended.email);
    expect((await (ended.browsers[0] as AdminClient).delete("/me/sessions")).status).toBe(204);
    expect((await complete(second, "a fresh new passphrase")).status).toBe(410);
    expect((await signIn(ended.email, ended.password)).status).toBe(200);
  });

  it("of two uses of one link at the same moment exactly one applies; the other gets 410", async () => {
    const { email } = await account();
    const token = await mailedToken(email);
    const answers = await Promise.all([
      complete(token, "first racing passphrase"),
      complete(token, "second racing passphrase"),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([204, 410]);
    const winner = answers[0]?.status === 204 ? "first" : "second";
    const loser = winner === "first" ? "second" : "first";
    expect((await signIn(email, `${winner} racing passphrase`)).status).toBe(200);
    expect((await signIn(email, `${loser} racing passphrase`)).status).toBe(401);
  });

  it("using one link voids the account's other links", async () => {
    const { email } = await account();
    const older = await mailedToken(email);
    const newer = await mailedToken(email);
    expect((await complete(newer, "a fresh new passphrase")).status).toBe(204);
    expect((await complete(older, "an older link's passphrase")).status).toBe(410);
    expect((await signIn(email, "a fresh new passphrase")).status).toBe(200);
  });

  it("a sign-in that checked the old password before the reset stores no session after it (401)", async () => {
    const { id, email, password } = await account();
    const token = await mailedToken(email);
    const hold = points.hold(id);
    const late = anyone();
    const lateSignIn = late.post("/session", { email, password });
    await hold.reached;
    expect((await complete(token, "a fresh new passphrase")).status).toBe(204);
    hold.release();
    expect((await lateSignIn).status).toBe(401);
    expect(late.cookie).toBeUndefined();
  });

  it("forgets the account's failed sign-ins: locked out by them, its owner signs in at once with the new password", async () => {
    const { email } = await account();
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await signIn(email, "a wrong guess entirely")).status).toBe(401);
    }
    expect((await signIn(email, "a wrong guess entirely")).status).toBe(429);
    const token = await mailedToken(email);
    expect((await complete(token, "a fresh new passphrase")).status).toBe(204);
    expect((await signIn(email, "a fresh new passphrase")).status).toBe(200);
  });
});

describe("links that cannot be used", () => {
  it("an unknown token answers the same 410 as a used one; a malformed one 400; a short password 400 and the link still works", async () => {
    const forged = "A".repeat(43);
    expect([(await complete(forged, "a fresh new passphrase")).status]).toEqual([410]);
    expect((await complete(forged, "a fresh new passphrase")).body).toEqual(GONE);
    expect((await complete("short", "a fresh new passphrase")).status).toBe(400);
    expect((await complete(`${"A".repeat(42)}!`, "a fresh new passphrase")).status).toBe(400);
    const { email } = await account();
    const token = await mailedToken(email);
    expect((await complete(token, "too short")).status).toBe(400);
    expect((await complete(token, "long enough now")).status).toBe(204);
  });

  it("past 5 unusable tries of one link, or 20 from one address, within 15 minutes, the answer is 429", async () => {
    const forged = "B".repeat(43);
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await complete(forged, "a fresh new passphrase")).status).toBe(410);
    }
    const refused = await complete(forged, "a fresh new passphrase");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);

    const oneAddress = anyone();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      const token = `C${String(i).padStart(42, "0")}`;
      expect((await complete(token, "a fresh new passphrase", oneAddress)).status).toBe(410);
    }
    const { email } = await account();
    const token = await mailedToken(email);
    // Even a link that works: the address is over its limit.
    expect((await complete(token, "a fresh new passphrase", oneAddress)).status).toBe(429);
    expect((await complete(token, "a fresh new passphrase")).status).toBe(204);
  });

  it("only the token's hash is stored, and the token is in no log line", async () => {
    const { email } = await account();
    const token = await mailedToken(email);
    const stored = await t.db.collection("passwordResets").find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.some((d) => String(d._id) === hashResetToken(token))).toBe(true);
    expect((await complete(token, "a fresh new passphrase")).status).toBe(204);
    expect(server.logLines.some((l) => l.includes(token))).toBe(false);
    expect(server.logLines.some((l) => l.includes('"password reset"'))).toBe(true);
  });
});

describe("a server without mail", () => {
  it("says so in getSession (passwordResetByMail), and answers 501 to an ask, sending nothing", async () => {
    const plain = await startTestServer(t.db);
    const c = new AdminClient(plain.url);
    expect((await c.get("/session")).body).toMatchObject({
      signedIn: false,
      passwordResetByMail: false,
    });
    expect((await anyone().get("/session")).body).toMatchObject({ passwordResetByMail: true });
    const { email } = await account();
    const res = await c.post("/password-resets", { email });
    expect(res.status).toBe(501);
    expect(res.body).toEqual({
      message:
        "This Pressroom server sends no mail. Ask its operator for a reset link (pressroom user reset-password EMAIL).",
    });
    expect(plain.logLines.some((l) => l.includes('"request failed"'))).toBe(false);
  });
});
