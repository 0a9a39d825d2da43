// An invitation holds only while its sender is an owner of the workspace (README, "Team":
// Invitations; admin.yaml, acceptInvitation and InvitationGone): an owner who is removed, leaves
// or is made a member takes their pending invitations along, and accepting checks the sender's
// role again, so a link cannot hand out more than its sender still holds. Team changes leave
// audit entries every member reads (admin.yaml, listAudit and AuditDetails), never an email.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { holdPoints } from "../support/hold-points.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type CreatedInvitation = components["schemas"]["CreatedInvitation"];
type Invitation = components["schemas"]["Invitation"];
type AuditEntry = components["schemas"]["AuditEntry"];
type Member = components["schemas"]["Member"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ownerId: string;
let ws: string;

/** Accepts of an invitation id held after their claim, before they join. */
const points = holdPoints();
const holdAccept = (id: string) => points.hold(id);

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(
    t.db,
    {},
    {
      testHooks: {
        afterInvitationClaim: (id) => points.pass(id),
      },
    },
  );
  owner = new AdminClient(server.url);
  const me = (await owner.post<Me>("/setup", OWNER)).body;
  ws = me.workspaces[0]?.id ?? "";
  ownerId = me.user.id;
});

let n = 0;
/** A new account made a member (`addMember`), then an owner when asked; signed in. */
async function teammate(role: "owner" | "member") {
  n += 1;
  const email = `teammate${n}@example.com`;
  const password = `teammate password ${n}`;
  const user = await stores(t.db).users.create({ email, name: `Teammate ${n}`, password });
  expect((await owner.post(`/workspaces/${ws}/members`, { email })).status).toBe(202);
  if (role === "owner") {
    const res = await owner.patch(`/workspaces/${ws}/members/${user._id}`, { role: "owner" });
    expect(res.status).toBe(200);
  }
  const client = new AdminClient(server.url);
  expect((await client.post("/session", { email, password })).status).toBe(200);
  return { id: user._id, name: user.name, email, client };
}

async function inviteAs(client: AdminClient, role: "owner" | "member") {
  n += 1;
  const email = `invitee${n}@example.com`;
  const res = await client.post<CreatedInvitation>(`/workspaces/${ws}/invitations`, {
    email,
    role,
  });
  expect(res.status).toBe(201);
  return { email, id: res.body.invitation.id, token: res.body.link.split("#/join/")[1] ?? "" };
}

const acceptAsNew = (token: string) =>
  new AdminClient(server.url).post<Me>("/invitations/accept", {
    token,
    name: "Xavier Invitee",
    password: "xavier's passphrase",
  });

const pendingIds = async () =>
  (await owner.get<{ data: Invitation[] }>(`/workspaces/${ws}/invitations`)).body.data.map(
    (i) => i.id,
  );

const roleOf = async (email: string) =>
  (await owner.get<{ data: Member[] }>(`/workspaces/${ws}/members`)).body.data.find(
    (m) => m.user.email === email,
  )?.role ?? null;

const auditEntries = async (client = owner) =>
  (await client.get<{ data: AuditEntry[] }>(`/workspaces/${ws}/audit?limit=100`)).body.data;

describe("an invitation outlives no sender's authority", () => {
  it("an owner invites X as owner and is removed by another owner: the link no longer works, X is no owner", async () => {
    const a = await teammate("owner");
    const invitation = await inviteAs(a.client, "owner");
    expect((await owner.delete(`/workspaces/${ws}/members/${a.id}`)).status).toBe(204);
    expect(await pendingIds()).not.toContain(invitation.id);
    const res = await acceptAsNew(invitation.token);
    expect(res.status).toBe(404);
    expect(await roleOf(invitation.email)).toBeNull();
    const withdrawn = (await auditEntries()).find(
      (e) => e.action === "invitation.withdrawn" && e.details.invitationId === invitation.id,
    );
    expect(withdrawn).toMatchObject({
      actor: { id: ownerId, name: OWNER.name },
      details: { invitationId: invitation.id, reason: "inviter_not_owner" },
    });
  });

  it("a demoted owner's invitations are withdrawn too; one who leaves takes theirs along", async () => {
    const a = await teammate("owner");
    const byDemoted = await inviteAs(a.client, "member");
    expect(
      (await owner.patch(`/workspaces/${ws}/members/${a.id}`, { role: "member" })).status,
    ).toBe(200);
    expect(await pendingIds()).not.toContain(byDemoted.id);
    expect((await acceptAsNew(byDemoted.token)).status).toBe(404);

    const b = await teammate("owner");
    const byLeaver = await inviteAs(b.client, "owner");
    expect((await b.client.delete(`/workspaces/${ws}/members/${b.id}`)).status).toBe(204);
    expect(await pendingIds()).not.toContain(byLeaver.id);
    expect((await acceptAsNew(byLeaver.token)).status).toBe(404);
    expect(await roleOf(byLeaver.email)).toBeNull();
  });

  it("accepting checks the sender's role itself: a link whose withdrawal was missed answers 410, then 404", async () => {
    const a = await teammate("owner");
    const invitation = await inviteAs(a.client, "owner");
    // Taken away by another way than the API's (the operator's store, a change on an instance
    // that failed to withdraw): the invitation is still pending.
    await stores(t.db).workspaces.removeMember(ws, a.id);
    expect(await pendingIds()).toContain(invitation.id);
    const looked = await new AdminClient(server.url).post("/invitations/lookup", {
      token: invitation.token,
    });
    expect(looked).toMatchObject({
      status: 410,
      body: {
        message:
          "This invitation was withdrawn: whoever sent it is no longer an owner of the workspace. Ask an owner for a new one.",
      },
    });
    expect((await acceptAsNew(invitation.token)).status).toBe(404);
    expect(await roleOf(invitation.email)).toBeNull();
    expect(await pendingIds()).not.toContain(invitation.id);
    const withdrawn = (await auditEntries()).find(
      (e) => e.action === "invitation.withdrawn" && e.details.invitationId === invitation.id,
    );
    expect(withdrawn).toMatchObject({ actor: null, details: { reason: "inviter_not_owner" } });
  });

  it("a sender removed while the accept is under way (after its checks, before it joins): the join is undone, 410", async () => {
    const a = await teammate("owner");
    const invitation = await inviteAs(a.client, "owner");
    const hold = holdAccept(invitation.id);
    const accepting = acceptAsNew(invitation.token);
    await hold.reached; // the link was checked and claimed; the sender was an owner then
    expect((await owner.delete(`/workspaces/${ws}/members/${a.id}`)).status).toBe(204);
    hold.release();
    const res = await accepting;
    expect(res).toMatchObject({
      status: 410,
      body: {
        message:
          "This invitation was withdrawn: whoever sent it is no longer an owner of the workspace. Ask an owner for a new one.",
      },
    });
    expect(await roleOf(invitation.email)).toBeNull();
    const again = await new AdminClient(server.url).post("/invitations/lookup", {
      token: invitation.token,
    });
    expect(again.status).toBe(404);
  });

  it("the same when the sender is made a member before the link is first used (accept answers 410)", async () => {
    const a = await teammate("owner");
    const invitation = await inviteAs(a.client, "owner");
    await stores(t.db).memberships.updateOne(
      { _id: `${ws}:${a.id}` },
      { $set: { role: "member" } },
    );
    const res = await acceptAsNew(invitation.token);
    expect(res.status).toBe(410);
    expect(await roleOf(invitation.email)).toBeNull();
    // No account was made with the invited email either: the check comes first.
    expect(await collections(t.db).users.countDocuments({ email: invitation.email })).toBe(0);
  });
});

describe("audit log: team actions, for every member to read, without emails", () => {
  it("invitations made, withdrawn and accepted; members added, given a role, removed, leaving", async () => {
    const invited = await inviteAs(owner, "member");
    const withdrawnOne = await inviteAs(owner, "owner");
    expect((await owner.delete(`/workspaces/${ws}/invitations/${withdrawnOne.id}`)).status).toBe(
      204,
    );
    const joined = await acceptAsNew(invited.token);
    expect(joined.status).toBe(201);
    const joinedId = joined.body.user.id;
    const m = await teammate("member");
    expect((await owner.patch(`/workspaces/${ws}/members/${m.id}`, { role: "owner" })).status).toBe(
      200,
    );
    expect((await owner.delete(`/workspaces/${ws}/members/${joinedId}`)).status).toBe(204);
    expect((await m.client.delete(`/workspaces/${ws}/members/${m.id}`)).status).toBe(204);

    const olive = { id: ownerId, name: OWNER.name };
    const xavier = { id: joinedId, name: "Xavier Invitee" };
    const mia = { id: m.id, name: m.name };
    const entries = await auditEntries();
    const find = (action: string, pick: (e: AuditEntry) => boolean = () => true) =>
      entries.find((e) => e.action === action && pick(e));
    expect(find("invitation.created", (e) => e.details.invitationId === invited.id)).toMatchObject({
      actor: olive,
      keyId: null,
      details: { invitationId: invited.id, role: "member" },
    });
    expect(
      find("invitation.withdrawn", (e) => e.details.invitationId === withdrawnOne.id),
    ).toMatchObject({ actor: olive, details: { reason: "withdrawn" } });
    expect(find("member.joined", (e) => e.details.member?.id === joinedId)).toMatchObject({
      actor: xavier,
      details: { invitationId: invited.id, role: "member", member: xavier },
    });
    expect(find("member.added", (e) => e.details.member?.id === m.id)).toMatchObject({
      actor: olive,
      details: { role: "member", member: mia },
    });
    expect(find("member.role_changed", (e) => e.details.member?.id === m.id)).toMatchObject({
      actor: olive,
      details: { role: "owner", previousRole: "member", member: mia },
    });
    expect(find("member.removed", (e) => e.details.member?.id === joinedId)).toMatchObject({
      actor: olive,
      details: { role: "member", member: xavier },
    });
    expect(find("member.left", (e) => e.details.member?.id === m.id)).toMatchObject({
      actor: mia,
      details: { role: "owner", member: mia },
    });
    // Every member reads the log: no invitee's email is in it, nor any link's token.
    const member = await teammate("member");
    const text = JSON.stringify(await auditEntries(member.client));
    expect(text).toContain("member.joined");
    for (const secret of [invited.email, withdrawnOne.email, invited.token, withdrawnOne.token]) {
      expect(text).not.toContain(secret);
    }
  });
});
