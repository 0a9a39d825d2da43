// Who may manage a workspace's members (admin.yaml, changeMemberRole and removeMember; the
// rules in server/src/workspaces/workspace-rules.ts): owners change roles and remove members,
// any member may leave, and a workspace never loses its last owner — not even when two owners
// demote each other at the same moment, on one server or on two.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type Member = components["schemas"]["Member"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ownerId: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ownerId = (await owner.post<Me>("/setup", OWNER)).body.user.id;
});

let people = 0;
/** A new account, signed in, on `url`. */
async function person(url = server.url): Promise<{ client: AdminClient; id: string }> {
  people += 1;
  const email = `person${people}@example.com`;
  const password = `password of person ${people}`;
  const user = await stores(t.db).users.create({ email, name: `Person ${people}`, password });
  const client = new AdminClient(url);
  expect((await client.post("/session", { email, password })).status).toBe(200);
  return { client, id: user._id };
}

/** A workspace of the setup owner's with the given people as members (role "member"). */
async function workspaceWith(...members: { id: string }[]): Promise<string> {
  const ws = (await owner.post<{ id: string }>("/workspaces", { name: `Team ${people}` })).body.id;
  for (const m of members) await stores(t.db).workspaces.join(ws, m.id, "member");
  return ws;
}

const roles = async (ws: string) =>
  Object.fromEntries(
    (await owner.get<{ data: Member[] }>(`/workspaces/${ws}/members`)).body.data.map((m) => [
      m.user.id,
      m.role,
    ]),
  );

const ownerCount = (ws: string) =>
  stores(t.db).memberships.countDocuments({ workspaceId: ws, role: "owner" });

describe("members: happy path", () => {
  it("an owner makes a member an owner and back; the list shows name, email, role and when added", async () => {
    const bob = await person();
    const ws = await workspaceWith(bob);
    const promoted = await owner.patch<Member>(`/workspaces/${ws}/members/${bob.id}`, {
      role: "owner",
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ user: { id: bob.id }, role: "owner" });
    expect(typeof promoted.body.addedAt).toBe("string");
    expect(await roles(ws)).toEqual({ [ownerId]: "owner", [bob.id]: "owner" });
    // Several owners are alike: the promoted one may demote the first.
    const demoted = await bob.client.patch<Member>(`/workspaces/${ws}/members/${ownerId}`, {
      role: "member",
    });
    expect(demoted).toMatchObject({ status: 200, body: { role: "member" } });
    expect(await roles(ws)).toEqual({ [ownerId]: "member", [bob.id]: "owner" });
  });

  it("a member leaves by removing themselves; an owner leaves while another owner remains", async () => {
    const bob = await person();
    const carol = await person();
    const ws = await workspaceWith(bob, carol);
    expect((await bob.client.delete(`/workspaces/${ws}/members/${bob.id}`)).status).toBe(204);
    expect((await bob.client.get(`/workspaces/${ws}/members`)).status).toBe(404);
    await owner.patch(`/workspaces/${ws}/members/${carol.id}`, { role: "owner" });
    expect((await owner.delete(`/workspaces/${ws}/members/${ownerId}`)).status).toBe(204);
    expect(await ownerCount(ws)).toBe(1);
    expect((await carol.client.get(`/workspaces/${ws}/members`)).status).toBe(200);
  });

  it("an owner removes another owner while one remains", async () => {
    const bob = await person();
    const ws = await workspaceWith(bob);
    await owner.patch(`/workspaces/${ws}/members/${bob.id}`, { role: "owner" });
    expect((await owner.delete(`/workspaces/${ws}/members/${bob.id}`)).status).toBe(204);
    expect(await roles(ws)).toEqual({ [ownerId]: "owner" });
  });
});

describe("members: errors", () => {
  it("the last owner can be neither demoted, removed, nor leave: 409 with a clear message, nothing changed", async () => {
    const bob = await person();
    const ws = await workspaceWith(bob);
    const before = await stores(t.db).memberships.find({ workspaceId: ws }).toArray();
    for (const res of [
      await owner.patch(`/workspaces/${ws}/members/${ownerId}`, { role: "member" }),
      await owner.delete(`/workspaces/${ws}/members/${ownerId}`),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        message: "A workspace needs an owner. Make another member an owner first.",
      });
    }
    expect(await stores(t.db).memberships.find({ workspaceId: ws }).toArray()).toEqual(before);
  });

  it("an unknown member is 404, an invalid role 400", async () => {
    const ws = await workspaceWith();
    const missing = await owner.patch(`/workspaces/${ws}/members/usr_nobody`, { role: "owner" });
    expect(missing).toMatchObject({ status: 404, body: { message: "Member not found." } });
    expect((await owner.delete(`/workspaces/${ws}/members/usr_nobody`)).status).toBe(404);
    const bad = await owner.patch(`/workspaces/${ws}/members/${ownerId}`, { role: "admin" });
    expect(bad.status).toBe(400);
  });
});

describe("members: security, by role", () => {
  it("a member cannot make themselves (or anyone) an owner, nor remove others: 403, nothing changed", async () => {
    const bob = await person();
    const carol = await person();
    const ws = await workspaceWith(bob, carol);
    const before = await roles(ws);
    for (const res of [
      await bob.client.patch(`/workspaces/${ws}/members/${bob.id}`, { role: "owner" }),
      await bob.client.patch(`/workspaces/${ws}/members/${carol.id}`, { role: "owner" }),
      await bob.client.patch(`/workspaces/${ws}/members/${ownerId}`, { role: "member" }),
      await bob.client.delete(`/workspaces/${ws}/members/${carol.id}`),
      await bob.client.delete(`/workspaces/${ws}/members/${ownerId}`),
    ]) {
      expect(res).toMatchObject({
        status: 403,
        body: { message: "Only the workspace owner can do this." },
      });
    }
    expect(await roles(ws)).toEqual(before);
  });

  it("an outsider gets 404 for every member action, as for a workspace that does not exist", async () => {
    const outsider = await person();
    const ws = await workspaceWith();
    for (const res of [
      await outsider.client.patch(`/workspaces/${ws}/members/${ownerId}`, { role: "member" }),
      await outsider.client.patch(`/workspaces/${ws}/members/${outsider.id}`, { role: "owner" }),
      await outsider.client.delete(`/workspaces/${ws}/members/${ownerId}`),
      await outsider.client.delete(`/workspaces/${ws}/members/${outsider.id}`),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { message: "Workspace not found." } });
    }
    expect(await roles(ws)).toEqual({ [ownerId]: "owner" });
  });

  it("without a session: 401", async () => {
    const ws = await workspaceWith();
    const anonymous = new AdminClient(server.url);
    expect(
      (await anonymous.patch(`/workspaces/${ws}/members/${ownerId}`, { role: "member" })).status,
    ).toBe(401);
  });
});

describe("members: the last owner under concurrency", () => {
  // The loser is refused either way: 409 when both passed the role check before either wrote
  // (the last-owner rule), 403 when its check ran after the winner's write had made it a member.
  it("two owners demoting each other at once on one server: one wins, the other is refused (409, or 403 once demoted), one owner stays", async () => {
    for (let round = 0; round < 5; round++) {
      const bob = await person();
      const ws = await workspaceWith(bob);
      await owner.patch(`/workspaces/${ws}/members/${bob.id}`, { role: "owner" });
      const [a, b] = await Promise.all([
        owner.patch(`/workspaces/${ws}/members/${bob.id}`, { role: "member" }),
        bob.client.patch(`/workspaces/${ws}/members/${ownerId}`, { role: "member" }),
      ]);
      const [won, refused] = [a.status, b.status].sort();
      expect(won).toBe(200);
      expect([403, 409]).toContain(refused);
      expect(await ownerCount(ws)).toBe(1);
    }
  });

  it("two owners leaving at once through two servers on one database never leave it without an owner", async () => {
    const second = await startTestServer(t.db);
    for (let round = 0; round < 5; round++) {
      const bob = await person(second.url);
      const ws = await workspaceWith(bob);
      await owner.patch(`/workspaces/${ws}/members/${bob.id}`, { role: "owner" });
      const [a, b] = await Promise.all([
        owner.delete(`/workspaces/${ws}/members/${ownerId}`),
        bob.client.patch(`/workspaces/${ws}/members/${bob.id}`, { role: "member" }),
      ]);
      // Each change is re-checked after its write and undone if it left no owner: at most one
      // of them stays (both may be refused when they interleave exactly).
      expect([a.status, b.status]).not.toEqual([204, 200]);
      for (const res of [a, b]) expect([200, 204, 409]).toContain(res.status);
      expect(await ownerCount(ws)).toBeGreaterThanOrEqual(1);
      await owner.patch(`/workspaces/${ws}/members/${ownerId}`, { role: "owner" }).catch(() => {});
    }
  });
});
