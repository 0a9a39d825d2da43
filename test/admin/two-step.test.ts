// Two-step sign-in (admin.yaml, startTwoStep, confirmTwoStep, turnOffTwoStep, renewRecoveryCodes,
// signIn's 202, signInWithCode and setOwnerTwoStep; README, "Two-step sign-in"), with codes made
// by a real TOTP library (`otpauth`, as authenticator apps compute them) from the secret the API
// shows: a code is accepted once, within one 30-second step either side of now; recovery codes
// work once and are stored as hashes; the secret is sealed; every code tried is counted by the
// sign-in throttle; a workspace may require it of its owners.
import { createHash } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { MAX_FAILURES } from "../../server/src/sessions/sign-in-throttle.js";
import { accessTokensStore } from "../../server/src/tokens/access-tokens-store.js";
import { AddressedClient as Browser } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

interface Enrolment {
  secret: string;
  uri: string;
  expiresAt: string;
}
interface MeBody {
  user: { id: string; email: string };
  twoStep: { enabled: boolean; recoveryCodesLeft: number };
  workspaces: { id: string; ownersNeedTwoStep: boolean }[];
}

const STEP_MS = 30_000;
const WRONG_CODE = { message: "Wrong code." };
const GONE = { message: "This sign-in has expired or was used. Sign in again." };

let t: TestDb;
let server: TestServer;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { TRUST_PROXY: "loopback" });
});

/** The code an app shows for `secret` at `at` (epoch ms). */
const codeAt = (secret: string, at: number): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

/**
 * Waits, when a 30-second step ends within the next 4 s, for the next one to begin: a test that
 * names "this step" and "the one before" means the server's steps too.
 */
async function awayFromStepEdge(): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < 4000) await new Promise((r) => setTimeout(r, left + 100));
}

let n = 0;
/** A new account, and a browser signed in as it. */
async function account() {
  n += 1;
  const email = `second${n}@example.com`;
  const password = `second step passphrase ${n}`;
  const user = await stores(t.db).users.create({ email, name: `Second ${n}`, password });
  const browser = new Browser(server.url);
  expect((await browser.post("/session", { email, password })).status).toBe(200);
  return { id: user._id, email, password, browser };
}

/**
 * Turns two-step on with the app's code of now, computed just before it is sent (a step that
 * ends in between leaves it one step behind, still accepted), then forgets the step it used
 * (`lastStep` 0), so a test's codes of now and of the steps beside it are all unused: how many
 * seconds an account takes to make under load then never decides which step is "now".
 */
async function withTwoStep() {
  const a = await account();
  const started = await a.browser.post<Enrolment>("/me/two-step", { currentPassword: a.password });
  expect(started.status).toBe(200);
  const { secret } = started.body;
  const on = await a.browser.post<{ recoveryCodes: string[] }>("/me/two-step/confirm", {
    code: codeAt(secret, Date.now()),
  });
  expect(on.status).toBe(200);
  await collections(t.db).users.updateOne({ _id: a.id }, { $set: { "twoStep.lastStep": 0 } });
  return { ...a, secret, recoveryCodes: on.body.recoveryCodes };
}

/** A password sign-in from a new browser: its challenge. */
async function challengeOf(email: string, password: string, browser = new Browser(server.url)) {
  const res = await browser.post<{ challenge: string; expiresAt: string }>("/session", {
    email,
    password,
  });
  expect(res.status).toBe(202);
  expect(browser.cookie).toBeUndefined();
  return { browser, challenge: res.body.challenge, expiresAt: res.body.expiresAt };
}

const secondStep = (browser: Browser, challenge: string, code: string) =>
  browser.post<MeBody>("/session/two-step", { challenge, code });

describe("turning it on (admin.yaml, startTwoStep and confirmTwoStep)", () => {
  it("asks the current password, shows a 160-bit secret and its otpauth URI once, and is on only after a right code", async () => {
    const { browser, email, password } = await account();
    const wrong = await browser.post("/me/two-step", { currentPassword: "not my passphrase" });
    expect([wrong.status, wrong.body]).toEqual([
      403,
      { message: "The current password is wrong." },
    ]);
    const started = await browser.post<Enrolment>("/me/two-step", { currentPassword: password });
    expect(started.status).toBe(200);
    const { secret, uri } = started.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe("otpauth:");
    expect(parsed.searchParams.get("secret")).toBe(secret);
    expect(parsed.searchParams.get("issuer")).toBe("Pressroom");
    expect(decodeURIComponent(parsed.pathname)).toContain(email);
    // Not on yet: signing in asks for the password only.
    expect((await browser.get<MeBody>("/me")).body.twoStep).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    expect((await new Browser(server.url).post("/session", { email, password })).status).toBe(200);

    const bad = await browser.post("/me/two-step/confirm", { code: "000000" });
    expect(bad.status).toBe(403);
    const confirmingCode = codeAt(secret, Date.now());
    const on = await browser.post<{ recoveryCodes: string[] }>("/me/two-step/confirm", {
      code: confirmingCode,
    });
    expect(on.status).toBe(200);
    expect(on.body.recoveryCodes).toHaveLength(10);
    // The code that turned it on is used: it cannot sign in too.
    const used = await new Browser(server.url).post<{ challenge: string }>("/session", {
      email,
      password,
    });
    const replayed = await new Browser(server.url).post("/session/two-step", {
      challenge: used.body.challenge,
      code: confirmingCode,
    });
    expect([replayed.status, replayed.body]).toEqual([401, WRONG_CODE]);
    for (const code of on.body.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(new Set(on.body.recoveryCodes).size).toBe(10);
    expect((await browser.get<MeBody>("/me")).body.twoStep).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    // On already: nothing more to start or confirm.
    expect((await browser.post("/me/two-step", { currentPassword: password })).status).toBe(409);
    expect(
      (await browser.post("/me/two-step/confirm", { code: codeAt(secret, Date.now()) })).status,
    ).toBe(409);
  });

  it("a secret that was never started, or was replaced by a new start, turns nothing on (409 / 403)", async () => {
    const { browser, password } = await account();
    expect((await browser.post("/me/two-step/confirm", { code: "123456" })).status).toBe(409);
    const first = await browser.post<Enrolment>("/me/two-step", { currentPassword: password });
    const second = await browser.post<Enrolment>("/me/two-step", { currentPassword: password });
    expect(second.body.secret).not.toBe(first.body.secret);
    const stale = await browser.post("/me/two-step/confirm", {
      code: codeAt(first.body.secret, Date.now()),
    });
    expect(stale.status).toBe(403);
    const on = await browser.post("/me/two-step/confirm", {
      code: codeAt(second.body.secret, Date.now()),
    });
    expect(on.status).toBe(200);
  });

  it("the secret is stored sealed and the recovery codes as SHA-256 hashes: the account's document holds neither", async () => {
    const { id, secret, recoveryCodes } = await withTwoStep();
    const doc = await collections(t.db).users.findOne({ _id: id });
    const stored = JSON.stringify(doc);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(Buffer.from(Secret.fromBase32(secret).bytes).toString("hex"));
    expect(stored).not.toContain(Buffer.from(Secret.fromBase32(secret).bytes).toString("base64"));
    for (const code of recoveryCodes) expect(stored).not.toContain(code);
    expect(doc?.twoStep?.recoveryCodes).toEqual(
      recoveryCodes.map((c) => createHash("sha256").update(c).digest("hex")),
    );
    expect(doc?.twoStep?.secret).toMatch(/^v1\./);
  });

  it("a session only: an access token gets 403 on every two-step operation", async () => {
    const { id, password } = await account();
    const { secret } = await accessTokensStore(collections(t.db)).create(id, {
      name: "CI",
      scopes: ["blogs:read", "blogs:write", "keys:manage", "webhooks:manage", "members:manage"],
      expiresAt: new Date(Date.now() + 2 * 86_400_000),
    });
    for (const [path, body] of [
      ["/me/two-step", { currentPassword: password }],
      ["/me/two-step/confirm", { code: "123456" }],
      ["/me/two-step/turn-off", { currentPassword: password }],
      ["/me/two-step/recovery-codes", { currentPassword: password }],
    ] as const) {
      const res = await fetch(`${server.url}/api/admin${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect([path, res.status]).toEqual([path, 403]);
    }
  });
});

describe("signing in with a code (admin.yaml, signIn and signInWithCode)", () => {
  it("a right password answers 202 with a challenge and no session; the app's code then signs in", async () => {
    const { email, password, secret } = await withTwoStep();
    const { browser, challenge, expiresAt } = await challengeOf(email, password);
    const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4.9);
    expect(minutes).toBeLessThanOrEqual(5);
    expect((await browser.get("/me")).status).toBe(401);
    await awayFromStepEdge();
    const res = await secondStep(browser, challenge, codeAt(secret, Date.now()));
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(email);
    expect((await browser.get("/me")).status).toBe(200);
    // The challenge signs in once.
    const again = await secondStep(new Browser(server.url), challenge, "123456");
    expect([again.status, again.body]).toEqual([401, GONE]);
  });

  it("a code is accepted once: the same code again, or one of an earlier step, is refused like a wrong one", async () => {
    const { email, password, secret } = await withTwoStep();
    const first = await challengeOf(email, password);
    await awayFromStepEdge();
    const now = Date.now();
    expect((await secondStep(first.browser, first.challenge, codeAt(secret, now))).status).toBe(
      200,
    );
    const replay = await challengeOf(email, password);
    const replayed = await secondStep(replay.browser, replay.challenge, codeAt(secret, now));
    expect([replayed.status, replayed.body]).toEqual([401, WRONG_CODE]);
    // The step before the one used: earlier than the last accepted, refused too.
    const earlier = await secondStep(
      replay.browser,
      replay.challenge,
      codeAt(secret, now - STEP_MS),
    );
    expect([earlier.status, earlier.body]).toEqual([401, WRONG_CODE]);
  });

  it("a clock skew of one step either way is accepted; two steps is not (RFC 6238, section 6)", async () => {
    // Two accounts whose last accepted step is long past (withTwoStep), so only the window
    // decides; each "now" is taken just before its codes, away from a step's end.
    const ahead = await withTwoStep();
    const behind = await withTwoStep();
    const a = await challengeOf(ahead.email, ahead.password);
    await awayFromStepEdge();
    let now = Date.now();
    const twoAhead = await secondStep(
      a.browser,
      a.challenge,
      codeAt(ahead.secret, now + 2 * STEP_MS),
    );
    expect([twoAhead.status, twoAhead.body]).toEqual([401, WRONG_CODE]);
    expect(
      (await secondStep(a.browser, a.challenge, codeAt(ahead.secret, now + STEP_MS))).status,
    ).toBe(200);

    const b = await challengeOf(behind.email, behind.password);
    await awayFromStepEdge();
    now = Date.now();
    const twoBehind = await secondStep(
      b.browser,
      b.challenge,
      codeAt(behind.secret, now - 2 * STEP_MS),
    );
    expect([twoBehind.status, twoBehind.body]).toEqual([401, WRONG_CODE]);
    expect(
      (await secondStep(b.browser, b.challenge, codeAt(behind.secret, now - STEP_MS))).status,
    ).toBe(200);
  });

  it("of two uses of one code at the same moment, one signs in (the last step is compare-and-set)", async () => {
    const { email, password, secret, recoveryCodes } = await withTwoStep();
    await awayFromStepEdge();
    const code = codeAt(secret, Date.now());
    for (const used of [code, recoveryCodes[0] ?? ""]) {
      const [x, y] = [await challengeOf(email, password), await challengeOf(email, password)];
      const answers = await Promise.all([
        secondStep(x.browser, x.challenge, used),
        secondStep(y.browser, y.challenge, used),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    }
  });

  it("a recovery code signs in once, and the count of those left goes down", async () => {
    const { email, password, recoveryCodes } = await withTwoStep();
    const code = recoveryCodes[3] ?? "";
    const first = await challengeOf(email, password);
    const res = await secondStep(first.browser, first.challenge, code);
    expect(res.status).toBe(200);
    expect(res.body.twoStep).toEqual({ enabled: true, recoveryCodesLeft: 9 });
    const second = await challengeOf(email, password);
    const reused = await secondStep(second.browser, second.challenge, code);
    expect([reused.status, reused.body]).toEqual([401, WRONG_CODE]);
    expect(
      (await secondStep(second.browser, second.challenge, recoveryCodes[4] ?? "")).status,
    ).toBe(200);
  });

  it("an unknown, expired or used challenge, or one from before a password change, is refused with 401 and counts nothing", async () => {
    const { email, password, secret, browser: owner } = await withTwoStep();
    const unknown = await secondStep(new Browser(server.url), "A".repeat(43), "123456");
    expect([unknown.status, unknown.body]).toEqual([401, GONE]);

    const expiring = await challengeOf(email, password);
    const hash = createHash("sha256").update(expiring.challenge).digest("hex");
    await collections(t.db).signInChallenges.updateOne(
      { _id: hash },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    const expired = await secondStep(
      expiring.browser,
      expiring.challenge,
      codeAt(secret, Date.now()),
    );
    expect([expired.status, expired.body]).toEqual([401, GONE]);

    const before = await challengeOf(email, password);
    const newPassword = `${password} changed`;
    expect(
      (await owner.post("/me/password", { currentPassword: password, newPassword })).status,
    ).toBe(204);
    const stale = await secondStep(before.browser, before.challenge, codeAt(secret, Date.now()));
    expect([stale.status, stale.body]).toEqual([401, GONE]);
  });

  it("every code tried is counted as a sign-in: past 5 for the email, 429 with Retry-After even for a right code", async () => {
    const { email, password, secret } = await withTwoStep();
    const { browser, challenge } = await challengeOf(email, password);
    // The password's own attempt stays counted until a code is right: 1 + 4 wrong codes = 5.
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      expect((await secondStep(browser, challenge, "000000")).status).toBe(401);
    }
    const refused = await secondStep(browser, challenge, codeAt(secret, Date.now()));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await new Browser(server.url).post("/session", { email, password })).status).toBe(429);
  });

  it("a right password does not wipe the count of wrong codes; a right code does", async () => {
    const { email, password, secret } = await withTwoStep();
    const first = await challengeOf(email, password);
    for (let i = 0; i < 2; i++) {
      expect((await secondStep(first.browser, first.challenge, "000000")).status).toBe(401);
    }
    // 3 counted; a second password sign-in makes 4, and one more wrong code 5.
    const second = await challengeOf(email, password);
    expect((await secondStep(second.browser, second.challenge, "000000")).status).toBe(401);
    const last = await secondStep(second.browser, second.challenge, codeAt(secret, Date.now()));
    expect(last.status).toBe(429);

    const other = await withTwoStep();
    const c = await challengeOf(other.email, other.password);
    expect((await secondStep(c.browser, c.challenge, "000000")).status).toBe(401);
    expect(
      (await secondStep(c.browser, c.challenge, codeAt(other.secret, Date.now()))).status,
    ).toBe(200);
    // Cleared: five more wrong passwords are counted from zero before the sixth is refused.
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect(
        (
          await new Browser(server.url).post("/session", {
            email: other.email,
            password: "wrong one!",
          })
        ).status,
      ).toBe(401);
    }
  });

  it("a secret copied onto another account opens for neither's codes there (sealed for its account)", async () => {
    const a = await withTwoStep();
    const b = await withTwoStep();
    const users = collections(t.db).users;
    const aDoc = await users.findOne({ _id: a.id });
    await users.updateOne(
      { _id: b.id },
      { $set: { "twoStep.secret": aDoc?.twoStep?.secret ?? "", "twoStep.lastStep": 0 } },
    );
    const { browser, challenge } = await challengeOf(b.email, b.password);
    expect((await secondStep(browser, challenge, codeAt(a.secret, Date.now()))).status).toBe(401);
  });
});

describe("turning it off and new recovery codes (admin.yaml, turnOffTwoStep, renewRecoveryCodes)", () => {
  it("new recovery codes replace the old ones at once", async () => {
    const { browser, email, password, recoveryCodes } = await withTwoStep();
    expect(
      (await browser.post("/me/two-step/recovery-codes", { currentPassword: "nope nope nope" }))
        .status,
    ).toBe(403);
    const renewed = await browser.post<{ recoveryCodes: string[] }>("/me/two-step/recovery-codes", {
      currentPassword: password,
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    const old = await challengeOf(email, password);
    expect((await secondStep(old.browser, old.challenge, recoveryCodes[0] ?? "")).status).toBe(401);
    expect(
      (await secondStep(old.browser, old.challenge, renewed.body.recoveryCodes[0] ?? "")).status,
    ).toBe(200);
  });

  it("asks the current password; off, signing in asks for the password only and the secret is gone", async () => {
    const { id, browser, email, password, secret } = await withTwoStep();
    const waiting = await challengeOf(email, password);
    expect(
      (await browser.post("/me/two-step/turn-off", { currentPassword: "wrong wrong!" })).status,
    ).toBe(403);
    expect(
      (await browser.post("/me/two-step/turn-off", { currentPassword: password })).status,
    ).toBe(204);
    expect(
      (await browser.post("/me/two-step/turn-off", { currentPassword: password })).status,
    ).toBe(409);
    expect(
      (await browser.post("/me/two-step/recovery-codes", { currentPassword: password })).status,
    ).toBe(409);
    const doc = await collections(t.db).users.findOne({ _id: id });
    expect(doc?.twoStep).toBeUndefined();
    // A sign-in waiting for its code when it was turned off: sign in again, with the password.
    const late = await secondStep(waiting.browser, waiting.challenge, codeAt(secret, Date.now()));
    expect([late.status, late.body]).toEqual([401, GONE]);
    expect((await new Browser(server.url).post("/session", { email, password })).status).toBe(200);
  });
});

describe("required of owners (admin.yaml, setOwnerTwoStep)", () => {
  it("only an owner with two-step may turn it on; then an owner without it gets 403 on the workspace, a member does not, and its owners cannot turn it off", async () => {
    const keeper = await withTwoStep();
    const lax = await account();
    const writer = await account();
    const s = stores(t.db);
    const ws = await s.workspaces.create("Strict desk", lax.id);
    await s.workspaces.join(ws._id, keeper.id, "owner");
    await s.workspaces.join(ws._id, writer.id, "member");
    const W = `/workspaces/${ws._id}`;

    const refused = await lax.browser.call("PUT", `${W}/owner-two-step`, { required: true });
    expect(refused.status).toBe(409);
    const byMember = await writer.browser.call("PUT", `${W}/owner-two-step`, { required: true });
    expect(byMember.status).toBe(403);
    const set = await keeper.browser.call<{ ownersNeedTwoStep: boolean }>(
      "PUT",
      `${W}/owner-two-step`,
      { required: true },
    );
    expect([set.status, set.body.ownersNeedTwoStep]).toEqual([200, true]);

    const blocked = await lax.browser.get(`${W}/blogs`);
    expect([blocked.status, blocked.body]).toEqual([
      403,
      {
        message:
          "This workspace requires its owners to use two-step sign-in. Turn it on in Account first.",
      },
    ]);
    expect((await writer.browser.get(`${W}/blogs`)).status).toBe(200);
    expect((await keeper.browser.get(`${W}/blogs`)).status).toBe(200);
    // Me tells the dashboard why.
    const me = await lax.browser.get<MeBody>("/me");
    expect(me.body.workspaces.find((w) => w.id === ws._id)?.ownersNeedTwoStep).toBe(true);

    const off = await keeper.browser.post("/me/two-step/turn-off", {
      currentPassword: keeper.password,
    });
    expect(off.status).toBe(409);
    expect((off.body as { message: string }).message).toContain("“Strict desk”");

    // The owner without it turns it on, and is let in.
    const started = await lax.browser.post<Enrolment>("/me/two-step", {
      currentPassword: lax.password,
    });
    expect(
      (
        await lax.browser.post("/me/two-step/confirm", {
          code: codeAt(started.body.secret, Date.now()),
        })
      ).status,
    ).toBe(200);
    expect((await lax.browser.get(`${W}/blogs`)).status).toBe(200);

    const audit = await keeper.browser.get<{ data: { action: string }[] }>(`${W}/audit`);
    expect(audit.body.data.map((e) => e.action)).toContain("workspace.owner_two_step_required");
    const lifted = await keeper.browser.call("PUT", `${W}/owner-two-step`, { required: false });
    expect(lifted.status).toBe(200);
    expect(
      (await keeper.browser.post("/me/two-step/turn-off", { currentPassword: keeper.password }))
        .status,
    ).toBe(204);
  });

  it("an owner's access token is held to the rule too", async () => {
    const keeper = await withTwoStep();
    const lax = await account();
    const s = stores(t.db);
    const ws = await s.workspaces.create("Strict tokens", keeper.id);
    await s.workspaces.join(ws._id, lax.id, "owner");
    await keeper.browser.call("PUT", `/workspaces/${ws._id}/owner-two-step`, { required: true });
    const { secret } = await accessTokensStore(collections(t.db)).create(lax.id, {
      name: "CI",
      scopes: ["blogs:read"],
      expiresAt: new Date(Date.now() + 2 * 86_400_000),
    });
    const res = await fetch(`${server.url}/api/admin/workspaces/${ws._id}/blogs`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(res.status).toBe(403);
  });
});

describe("an invitation accepted with the password of an account with two-step sign-in (admin.yaml, acceptInvitation)", () => {
  it("joins, but signs in only with a code: no session cookie", async () => {
    const invited = await withTwoStep();
    const inviter = await account();
    const s = stores(t.db);
    const ws = await s.workspaces.create("Invites", inviter.id);
    const made = await inviter.browser.post<{ link: string }>(`/workspaces/${ws._id}/invitations`, {
      email: invited.email,
      role: "member",
    });
    expect(made.status).toBe(201);
    const token = made.body.link.split("#/join/")[1] ?? "";
    const stranger = new Browser(server.url);
    const accepted = await stranger.post("/invitations/accept", {
      token,
      password: invited.password,
    });
    expect(accepted.status).toBe(201);
    expect(stranger.cookie).toBeUndefined();
    expect(await s.workspaces.roleIn(ws._id, invited.id)).toBe("member");
  });

  it("a browser signed in as another account is signed out by it, not left signed in as someone else", async () => {
    const invited = await withTwoStep();
    const inviter = await account();
    const other = await account();
    const s = stores(t.db);
    const ws = await s.workspaces.create("Invites again", inviter.id);
    const made = await inviter.browser.post<{ link: string }>(`/workspaces/${ws._id}/invitations`, {
      email: invited.email,
      role: "member",
    });
    const token = made.body.link.split("#/join/")[1] ?? "";
    const stale = other.browser.cookie;
    const accepted = await other.browser.post("/invitations/accept", {
      token,
      password: invited.password,
    });
    expect(accepted.status).toBe(201);
    expect(other.browser.cookie).toBeUndefined();
    // The other account's session is ended, not only forgotten by this browser.
    const replay = new Browser(server.url);
    replay.cookie = stale;
    expect((await replay.get("/me")).status).toBe(401);
  });
});
