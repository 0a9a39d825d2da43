// One's own account (admin.yaml, changePassword and signOutEverywhere): changing the password
// asks for the current one (a wrong one is 403 and counted as a failed sign-in), ends the
// user's other sessions and keeps this one; signing out everywhere ends every session. README,
// "Team" (Your account): sign-ins in flight at that moment end too.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { holdPoints } from "../support/hold-points.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;

/** Sign-ins of the user id held between their password check and their session's insert. */
const points = holdPoints();
const holdSignIn = (id: string) => points.hold(id);

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(
    t.db,
    {},
    {
      testHooks: {
        beforeSessionInsert: (id) => points.pass(id),
      },
    },
  );
});

let n = 0;
/** A new account and `sessions` browsers signed in as it. */
async function account(sessions: number) {
  n += 1;
  const email = `account${n}@example.com`;
  const password = `first password ${n}`;
  const user = await stores(t.db).users.create({ email, name: `Account ${n}`, password });
  const browsers: AdminClient[] = [];
  for (let i = 0; i < sessions; i++) {
    const c = new AdminClient(server.url);
    expect((await c.post("/session", { email, password })).status).toBe(200);
    browsers.push(c);
  }
  return { email, password, id: user._id, browsers };
}

const signIn = (email: string, password: string) =>
  new AdminClient(server.url).post("/session", { email, password });

describe("your name (admin.yaml, updateMe)", () => {
  it("is changed, trimmed, and shown in /me; blank, control characters or a bidi override are 400 and change nothing", async () => {
    const { browsers } = await account(1);
    const self = browsers[0] as AdminClient;
    const renamed = await self.patch<{ user: { name: string } }>("/me", {
      name: "  Renée Renamed  ",
    });
    expect([renamed.status, renamed.body.user.name]).toEqual([200, "Renée Renamed"]);
    for (const name of ["   ", "Tab\there", "Evil\u202eman", ""]) {
      expect((await self.patch("/me", { name })).status).toBe(400);
    }
    expect((await self.get<{ user: { name: string } }>("/me")).body.user.name).toBe(
      "Renée Renamed",
    );
    expect((await new AdminClient(server.url).patch("/me", { name: "Nobody" })).status).toBe(401);
  });
});

describe("change password: happy path", () => {
  it("ends the other sessions, keeps this one; the old password stops working, the new one works", async () => {
    const { email, password, browsers } = await account(3);
    const [self, other1, other2] = browsers as [AdminClient, AdminClient, AdminClient];
    const res = await self.post("/me/password", {
      currentPassword: password,
      newPassword: "a brand new passphrase",
    });
    expect(res.status).toBe(204);
    expect((await self.get("/me")).status).toBe(200);
    expect((await other1.get("/me")).status).toBe(401);
    expect((await other2.get("/me")).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await signIn(email, "a brand new passphrase")).status).toBe(200);
  });
});

describe("change password: sign-ins in flight", () => {
  it("a sign-in that checked the old password before the change stores no session after it (401)", async () => {
    const { id, email, password, browsers } = await account(1);
    const self = browsers[0] as AdminClient;
    const hold = holdSignIn(id);
    const late = new AdminClient(server.url);
    const lateSignIn = late.post("/session", { email, password });
    await hold.reached; // the old password is checked; the session is not stored yet
    const change = await self.post("/me/password", {
      currentPassword: password,
      newPassword: "a brand new passphrase",
    });
    expect(change.status).toBe(204);
    hold.release();
    const answered = await lateSignIn;
    expect(answered.status).toBe(401);
    expect(answered.body).toEqual({ message: expect.any(String) });
    expect((await late.get("/me")).status).toBe(401);
    // Only the session that made the change is left.
    expect(await stores(t.db).sessions.countDocuments({ userId: id })).toBe(1);
    expect((await self.get("/me")).status).toBe(200);
  });

  it('a sign-in in flight during "sign out everywhere" stores no session either (401)', async () => {
    const { id, email, password, browsers } = await account(1);
    const self = browsers[0] as AdminClient;
    const hold = holdSignIn(id);
    const late = new AdminClient(server.url);
    const lateSignIn = late.post("/session", { email, password });
    await hold.reached;
    expect((await self.delete("/me/sessions")).status).toBe(204);
    hold.release();
    expect((await lateSignIn).status).toBe(401);
    expect((await late.get("/me")).status).toBe(401);
    expect(await stores(t.db).sessions.countDocuments({ userId: id })).toBe(0);
    // Nothing else changed: the password still signs in.
    expect((await signIn(email, password)).status).toBe(200);
  });

  it("two changes from two sessions at once: one wins, the other's proof is stale (403)", async () => {
    const { email, password, browsers } = await account(2);
    const [a, b] = browsers as [AdminClient, AdminClient];
    const [ra, rb] = await Promise.all([
      a.post("/me/password", { currentPassword: password, newPassword: "password of browser a" }),
      b.post("/me/password", { currentPassword: password, newPassword: "password of browser b" }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([204, 403]);
    const winner = ra.status === 204 ? "password of browser a" : "password of browser b";
    const loser = ra.status === 204 ? "password of browser b" : "password of browser a";
    expect((await signIn(email, winner)).status).toBe(200);
    expect((await signIn(email, loser)).status).toBe(401);
    expect((await (ra.status === 204 ? b : a).get("/me")).status).toBe(401);
  });
});

describe("change password: errors", () => {
  it("a wrong current password is 403 and changes nothing", async () => {
    const { email, password, browsers } = await account(2);
    const [self, other] = browsers as [AdminClient, AdminClient];
    const res = await self.post("/me/password", {
      currentPassword: "not the password",
      newPassword: "a brand new passphrase",
    });
    expect(res).toMatchObject({ status: 403, body: { message: "The current password is wrong." } });
    expect((await other.get("/me")).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(200);
  });

  it("a new password shorter than 10 characters is 400, nothing changed", async () => {
    const { email, password, browsers } = await account(1);
    const self = browsers[0] as AdminClient;
    const res = await self.post("/me/password", {
      currentPassword: password,
      newPassword: "short",
    });
    expect(res.status).toBe(400);
    expect((await signIn(email, password)).status).toBe(200);
  });

  it("needs a session (401)", async () => {
    const res = await new AdminClient(server.url).post("/me/password", {
      currentPassword: "whatever it is",
      newPassword: "a brand new passphrase",
    });
    expect(res.status).toBe(401);
  });
});

describe("change password: security", () => {
  it("wrong current passwords are counted with sign-ins: past 5, 429 with Retry-After, and no check", async () => {
    const { password, browsers } = await account(1);
    const self = browsers[0] as AdminClient;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await self.post("/me/password", {
        currentPassword: `guess number ${i}`,
        newPassword: "a brand new passphrase",
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    // Even the right password is refused until the window passes: no check is made.
    const right = await self.post("/me/password", {
      currentPassword: password,
      newPassword: "a brand new passphrase",
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("sign out everywhere", () => {
  it("ends every session of the user, this one included, and clears the cookie", async () => {
    const { id, browsers } = await account(3);
    const [self, ...others] = browsers as [AdminClient, ...AdminClient[]];
    const res = await self.delete("/me/sessions");
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/^pressroom_session=;/);
    for (const c of [self, ...others]) expect((await c.get("/me")).status).toBe(401);
    expect(await stores(t.db).sessions.countDocuments({ userId: id })).toBe(0);
  });

  it("leaves other users' sessions alone, and needs a session (401)", async () => {
    const a = await account(1);
    const b = await account(1);
    await (a.browsers[0] as AdminClient).delete("/me/sessions");
    expect((await (b.browsers[0] as AdminClient).get("/me")).status).toBe(200);
    expect((await new AdminClient(server.url).delete("/me/sessions")).status).toBe(401);
  });
});
