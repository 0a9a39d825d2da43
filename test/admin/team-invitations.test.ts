// Invitations (admin.yaml, createInvitation, listInvitations, withdrawInvitation,
// lookUpInvitation, acceptInvitation): an owner invites an email, the invitee opens a one-time
// link, sets a name and password and joins; links expire, work once, and are stored hashed.
// A link never tells whether the invited email has an account (admin.yaml, lookUpInvitation and
// acceptInvitation; README, "Team"), but by the success of creating one.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import type { Mailer } from "../../server/src/mail/mailer.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const HOW_TO_ACCEPT = "To accept, sign in as the invited email, or create an account with it.";

type Me = components["schemas"]["Me"];
type CreatedInvitation = components["schemas"]["CreatedInvitation"];
type Invitation = components["schemas"]["Invitation"];
type InvitationPreview = components["schemas"]["InvitationPreview"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ws = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
});

let n = 0;
const freshEmail = () => {
  n += 1;
  return `invitee${n}@example.com`;
};

async function invite(email: string, role: "owner" | "member" = "member") {
  const res = await owner.post<CreatedInvitation>(`/workspaces/${ws}/invitations`, { email, role });
  expect(res.status).toBe(201);
  const token = res.body.link.split("#/join/")[1] ?? "";
  return { ...res.body, token };
}

const accept = (client: AdminClient, body: Record<string, unknown>) =>
  client.post<Me>("/invitations/accept", body);

describe("invitations: happy path", () => {
  it("an owner invites; the link carries the token in its fragment and is answered once", async () => {
    const email = freshEmail();
    const created = await invite(email, "member");
    expect(created.link).toMatch(new RegExp(`^${server.url}/dashboard/#/join/[A-Za-z0-9_-]{43}$`));
    expect([created.sent, created.mail]).toEqual([false, "off"]);
    expect(created.invitation).toMatchObject({
      email,
      role: "member",
      invitedBy: { name: OWNER.name },
    });
    const days =
      (Date.parse(created.invitation.expiresAt) - Date.parse(created.invitation.createdAt)) /
      86_400_000;
    expect(days).toBe(7);
    const list = await owner.get<{ data: Invitation[] }>(`/workspaces/${ws}/invitations`);
    expect(list.body.data.map((i) => i.id)).toContain(created.invitation.id);
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    // Stored only as its SHA-256 hash.
    const stored = JSON.stringify(await stores(t.db).invitations.find({}).toArray());
    expect(stored).not.toContain(created.token);
    expect(stored).toContain(createHash("sha256").update(created.token).digest("hex"));
  });

  it("the invitee looks the link up, sets a name and password, joins signed in, and can sign in again later", async () => {
    const email = freshEmail();
    const { token } = await invite(email, "member");
    const invitee = new AdminClient(server.url);
    const preview = await invitee.post<InvitationPreview>("/invitations/lookup", { token });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      workspaceName: OWNER.workspaceName,
      email,
      role: "member",
      invitedBy: OWNER.name,
    });
    const joined = await accept(invitee, {
      token,
      name: "Nina Newcomer",
      password: "nina's passphrase",
    });
    expect(joined.status).toBe(201);
    expect(joined.body.user).toMatchObject({ name: "Nina Newcomer", email });
    expect(joined.body.workspaces).toEqual([expect.objectContaining({ id: ws, role: "member" })]);
    expect(joined.headers.get("set-cookie")).toMatch(/^pressroom_session=[A-Za-z0-9_-]{43};/);
    expect((await invitee.get(`/workspaces/${ws}/blogs`)).status).toBe(200);
    // No longer pending.
    const list = await owner.get<{ data: Invitation[] }>(`/workspaces/${ws}/invitations`);
    expect(list.body.data.map((i) => i.email)).not.toContain(email);
    // Signs out, and in again with the password they chose.
    await invitee.delete("/session");
    const again = new AdminClient(server.url);
    const signIn = await again.post<Me>("/session", { email, password: "nina's passphrase" });
    expect(signIn.status).toBe(200);
    expect(signIn.body.workspaces.map((w) => w.id)).toEqual([ws]);
  });

  it("an invited owner joins as an owner", async () => {
    const email = freshEmail();
    const { token } = await invite(email, "owner");
    const invitee = new AdminClient(server.url);
    const joined = await accept(invitee, { token, name: "Otto", password: "otto's passphrase" });
    expect(joined.body.workspaces).toEqual([expect.objectContaining({ id: ws, role: "owner" })]);
  });

  it("an existing account accepts signed in as itself, with no name or password", async () => {
    const email = freshEmail();
    await stores(t.db).users.create({ email, name: "Existing", password: "existing password" });
    const { token } = await invite(email);
    const invitee = new AdminClient(server.url);
    // Signed out: told how to accept, and the link still works afterwards.
    const signedOut = await accept(invitee, { token });
    expect(signedOut).toMatchObject({ status: 409, body: { message: HOW_TO_ACCEPT } });
    await invitee.post("/session", { email, password: "existing password" });
    const joined = await accept(invitee, { token });
    expect(joined.status).toBe(201);
    expect(joined.headers.get("set-cookie")).toBeNull();
    expect(joined.body.workspaces.map((w) => w.id)).toContain(ws);
  });

  it("an existing account accepts signed out with its password: it joins and is signed in", async () => {
    const email = freshEmail();
    const user = await stores(t.db).users.create({
      email,
      name: "Existing",
      password: "existing password",
    });
    const { token } = await invite(email, "owner");
    const invitee = new AdminClient(server.url);
    const joined = await accept(invitee, { token, password: "existing password" });
    expect(joined.status).toBe(201);
    expect(joined.body.user).toMatchObject({ id: user._id, name: "Existing" });
    expect(joined.body.workspaces).toContainEqual(
      expect.objectContaining({ id: ws, role: "owner" }),
    );
    expect(joined.headers.get("set-cookie")).toMatch(/^pressroom_session=[A-Za-z0-9_-]{43};/);
    expect((await invitee.get("/me")).status).toBe(200);
  });

  it("a name and the existing account's password join as that account (the name is ignored)", async () => {
    const email = freshEmail();
    const user = await stores(t.db).users.create({
      email,
      name: "Kept",
      password: "kept password",
    });
    const { token } = await invite(email);
    const joined = await accept(new AdminClient(server.url), {
      token,
      name: "Another Name",
      password: "kept password",
    });
    expect(joined.status).toBe(201);
    expect(joined.body.user).toMatchObject({ id: user._id, name: "Kept" });
  });

  it("an owner withdraws a pending invitation: its link is then unknown (404)", async () => {
    const { token, invitation } = await invite(freshEmail());
    expect((await owner.delete(`/workspaces/${ws}/invitations/${invitation.id}`)).status).toBe(204);
    const anyone = new AdminClient(server.url);
    const res = await anyone.post("/invitations/lookup", { token });
    expect(res).toMatchObject({
      status: 404,
      body: { message: "This invitation link is not valid." },
    });
    expect(
      (await accept(anyone, { token, name: "Late", password: "late passphrase" })).status,
    ).toBe(404);
    expect((await owner.delete(`/workspaces/${ws}/invitations/${invitation.id}`)).status).toBe(404);
  });

  it("a configured mailer gets the link, and the answer says it was sent", async () => {
    const sent: Parameters<Mailer["sendInvitation"]>[0][] = [];
    const mailing = await startTestServer(
      t.db,
      {},
      {
        mailer: {
          sendInvitation: async (m) => {
            sent.push(m);
          },
          sendPasswordReset: async () => {},
          sendEmailChange: async () => {},
          sendEmailChanged: async () => {},
        },
      },
    );
    const c = new AdminClient(mailing.url);
    await c.post("/session", { email: OWNER.email, password: OWNER.password });
    const email = freshEmail();
    const res = await c.post<CreatedInvitation>(`/workspaces/${ws}/invitations`, {
      email,
      role: "member",
    });
    expect([res.body.sent, res.body.mail]).toEqual([true, "sent"]);
    expect(sent).toEqual([
      { to: email, link: res.body.link, workspaceName: OWNER.workspaceName, invitedBy: OWNER.name },
    ]);
  });
});

describe("invitations: one pending per email, and resent with a new link", () => {
  it("inviting an email with a pending invitation is 409 (any spelling); withdrawn, it can be invited again", async () => {
    const email = freshEmail();
    const first = await invite(email);
    const again = await owner.post(`/workspaces/${ws}/invitations`, {
      email: email.toUpperCase(),
      role: "owner",
    });
    expect(again).toMatchObject({
      status: 409,
      body: {
        message:
          "This email has a pending invitation to the workspace already: resend it, or withdraw it first.",
      },
    });
    expect(
      (await owner.delete(`/workspaces/${ws}/invitations/${first.invitation.id}`)).status,
    ).toBe(204);
    await invite(email);
  });

  it("resend: a new link that works, the old one unknown at once, 7 days from now, in the audit log", async () => {
    const email = freshEmail();
    const first = await invite(email);
    const resent = await owner.post<CreatedInvitation>(
      `/workspaces/${ws}/invitations/${first.invitation.id}/resend`,
    );
    expect(resent.status).toBe(200);
    expect(resent.body.invitation.id).toBe(first.invitation.id);
    expect(resent.body.link).not.toBe(first.link);
    expect([resent.body.sent, resent.body.mail]).toEqual([false, "off"]);
    const expires = Date.parse(resent.body.invitation.expiresAt);
    expect(Math.abs(expires - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    const anyone = new AdminClient(server.url);
    expect((await anyone.post("/invitations/lookup", { token: first.token })).status).toBe(404);
    const token = resent.body.link.split("#/join/")[1] ?? "";
    expect((await anyone.post("/invitations/lookup", { token })).status).toBe(200);
    const audit = await owner.get<{
      data: { action: string; details: { invitationId?: string } }[];
    }>(`/workspaces/${ws}/audit`);
    expect(audit.body.data[0]).toMatchObject({
      action: "invitation.resent",
      details: { invitationId: first.invitation.id },
    });
    expect(
      (await accept(anyone, { token, name: "Resent", password: "resent passphrase" })).status,
    ).toBe(201);
    const late = await owner.post(`/workspaces/${ws}/invitations/${first.invitation.id}/resend`);
    expect(late.status).toBe(404);
  });
});

describe("invitations: errors", () => {
  it("a used link answers 410 and joins nobody else", async () => {
    const { token } = await invite(freshEmail());
    const first = new AdminClient(server.url);
    expect(
      (await accept(first, { token, name: "First", password: "first passphrase" })).status,
    ).toBe(201);
    const second = new AdminClient(server.url);
    for (const res of [
      await second.post("/invitations/lookup", { token }),
      await accept(second, { token, name: "Second", password: "second passphrase" }),
    ]) {
      expect(res).toMatchObject({
        status: 410,
        body: { message: "This invitation has been used already." },
      });
    }
    expect(second.cookie).toBeUndefined();
  });

  it("an expired link answers 410 and creates nothing", async () => {
    const email = freshEmail();
    const { token, invitation } = await invite(email);
    await stores(t.db).invitations.updateOne(
      { _id: invitation.id },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    const c = new AdminClient(server.url);
    const res = await accept(c, { token, name: "Too Late", password: "too late passphrase" });
    expect(res).toMatchObject({
      status: 410,
      body: { message: "This invitation has expired. Ask for a new one." },
    });
    expect(await stores(t.db).users.findByEmail(email)).toBeNull();
  });

  it("an unknown or garbled token answers 404 and tells nothing more", async () => {
    const c = new AdminClient(server.url);
    for (const token of ["A".repeat(43), "short", "x"]) {
      const res = await c.post("/invitations/lookup", { token });
      expect(res).toMatchObject({
        status: 404,
        body: { message: "This invitation link is not valid." },
      });
    }
    expect((await c.post("/invitations/lookup", { token: "not/base64url" })).status).toBe(400);
  });

  it("a new account needs a name and a password by the setup rules (400), nothing consumed", async () => {
    const { token } = await invite(freshEmail());
    const c = new AdminClient(server.url);
    expect((await accept(c, { token, name: "Just A Name" })).status).toBe(400);
    expect((await accept(c, { token, name: "Short", password: "short" })).status).toBe(400);
    expect(
      (await accept(c, { token, name: "   ", password: "long enough passphrase" })).status,
    ).toBe(400);
    expect(
      (await accept(c, { token, name: "Fine", password: "long enough passphrase" })).status,
    ).toBe(201);
  });

  it("inviting an email of a member answers 409; a bad email or role 400", async () => {
    const res = await owner.post(`/workspaces/${ws}/invitations`, {
      email: OWNER.email,
      role: "member",
    });
    expect(res).toMatchObject({
      status: 409,
      body: { message: "This email belongs to a member of the workspace already." },
    });
    expect(
      (await owner.post(`/workspaces/${ws}/invitations`, { email: "nope", role: "member" })).status,
    ).toBe(400);
    expect(
      (await owner.post(`/workspaces/${ws}/invitations`, { email: freshEmail(), role: "boss" }))
        .status,
    ).toBe(400);
  });
});

describe("invitations: security", () => {
  it("owner-only: a member gets 403 and an outsider 404 on create, list and withdraw", async () => {
    const { invitation } = await invite(freshEmail());
    const member = new AdminClient(server.url);
    const { token } = await invite(freshEmail());
    await accept(member, { token, name: "Member", password: "member passphrase" });
    const outsiderEmail = freshEmail();
    await stores(t.db).users.create({
      email: outsiderEmail,
      name: "Outsider",
      password: "outsider password",
    });
    const outsider = new AdminClient(server.url);
    await outsider.post("/session", { email: outsiderEmail, password: "outsider password" });
    const calls = (c: AdminClient) => [
      c.post(`/workspaces/${ws}/invitations`, { email: freshEmail(), role: "owner" }),
      c.get(`/workspaces/${ws}/invitations`),
      c.delete(`/workspaces/${ws}/invitations/${invitation.id}`),
    ];
    for (const res of await Promise.all(calls(member))) expect(res.status).toBe(403);
    for (const res of await Promise.all(calls(outsider))) expect(res.status).toBe(404);
    for (const res of await Promise.all(calls(new AdminClient(server.url))))
      expect(res.status).toBe(401);
    const list = await owner.get<{ data: Invitation[] }>(`/workspaces/${ws}/invitations`);
    expect(list.body.data.map((i) => i.id)).toContain(invitation.id);
  });

  it("two concurrent accepts of one link: exactly one joins, the other gets 410", async () => {
    for (let round = 0; round < 4; round++) {
      const email = freshEmail();
      const { token } = await invite(email);
      const a = new AdminClient(server.url);
      const b = new AdminClient(server.url);
      const results = await Promise.all([
        accept(a, { token, name: "A", password: "a's passphrase!" }),
        accept(b, { token, name: "B", password: "b's passphrase!" }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 410]);
      expect(await t.db.collection("users").countDocuments({ email })).toBe(1);
    }
  });

  it("the lookup answers alike whether or not the invited email has an account", async () => {
    const withAccount = freshEmail();
    const withoutAccount = freshEmail();
    await stores(t.db).users.create({
      email: withAccount,
      name: "Has One",
      password: "has one password",
    });
    const a = await invite(withAccount);
    const b = await invite(withoutAccount);
    const lookUp = (token: string) =>
      new AdminClient(server.url).post<InvitationPreview>("/invitations/lookup", { token });
    const [ra, rb] = await Promise.all([lookUp(a.token), lookUp(b.token)]);
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    // The same fields with the same values, but for the email each was made for.
    const same = (body: InvitationPreview, email: string) => ({
      ...body,
      email: body.email === email,
      expiresAt: typeof body.expiresAt,
    });
    expect(same(ra.body, withAccount)).toEqual(same(rb.body, withoutAccount));
    expect(Object.keys(ra.body).sort()).toEqual(Object.keys(rb.body).sort());
    expect(Object.keys(ra.body).sort()).toEqual(
      ["email", "expiresAt", "invitedBy", "role", "workspaceName"].sort(),
    );
  });

  it("accept answers alike with and without an account: no credentials 409, a password alone 401", async () => {
    const withAccount = freshEmail();
    const withoutAccount = freshEmail();
    await stores(t.db).users.create({
      email: withAccount,
      name: "Has One",
      password: "has one password",
    });
    const a = await invite(withAccount);
    const b = await invite(withoutAccount);
    const answers = async (token: string) => {
      const signedOut = await accept(new AdminClient(server.url), { token });
      const otherAccount = await accept(owner, { token });
      const password = await accept(new AdminClient(server.url), {
        token,
        password: "a guessed passphrase",
      });
      const nameOnly = await accept(new AdminClient(server.url), { token, name: "Just A Name" });
      return [signedOut, otherAccount, password, nameOnly].map((r) => ({
        status: r.status,
        body: r.body,
        cookie: r.headers.get("set-cookie"),
      }));
    };
    const [forA, forB] = [await answers(a.token), await answers(b.token)];
    expect(forA).toEqual(forB);
    expect(forA.map((r) => r.status)).toEqual([409, 409, 401, 400]);
    expect(forA[0]?.body).toEqual({ message: HOW_TO_ACCEPT });
    expect(forA[2]?.body).toEqual({ message: "Wrong email or password." });
    // Nothing was used up: both links still work.
    for (const token of [a.token, b.token]) {
      const still = await new AdminClient(server.url).post("/invitations/lookup", { token });
      expect(still.status).toBe(200);
    }
  });

  it("passwords sent to accept count as sign-ins of the invited email: past 5, 429, with or without an account", async () => {
    // From addresses of their own, so only the email's count (5) is reached.
    const proxied = await startTestServer(t.db, { TRUST_PROXY: "loopback" });
    for (const [i, hasAccount] of [true, false].entries()) {
      const email = freshEmail();
      if (hasAccount) {
        await stores(t.db).users.create({ email, name: "Guessed", password: "the real password" });
      }
      const { token } = await invite(email);
      const statuses: number[] = [];
      for (let guess = 0; guess < 6; guess++) {
        const res = await new AdminClient(proxied.url).call(
          "POST",
          "/invitations/accept",
          { token, password: `guess number ${guess}` },
          { "x-forwarded-for": `198.51.100.${i + 1}` },
        );
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    }
  });

  it("accepting as a different signed-in account than the invited one is refused (409)", async () => {
    const email = freshEmail();
    await stores(t.db).users.create({ email, name: "Invited", password: "invited password" });
    const { token } = await invite(email);
    const res = await accept(owner, { token });
    expect(res.status).toBe(409);
    const stillUsable = await new AdminClient(server.url).post("/invitations/lookup", { token });
    expect(stillUsable.status).toBe(200);
  });

  it("failed lookups are throttled per client address like sign-ins (429 with Retry-After)", async () => {
    const proxied = await startTestServer(t.db, { TRUST_PROXY: "loopback" });
    const c = new AdminClient(proxied.url);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await c.call(
        "POST",
        "/invitations/lookup",
        { token: `${"B".repeat(42)}${i % 10}` },
        {
          "x-forwarded-for": "203.0.113.9",
        },
      );
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toContain(429);
  });
});
