import { MongoServerError } from "mongodb";
import type { Collections, MembershipDoc, Role, UserDoc } from "../db/collections.js";
import { HttpError } from "../http/errors.js";
import { newId } from "../ids.js";
import { hashPassword } from "./passwords.js";

export interface UserView {
  id: string;
  name: string;
  email: string;
}

export interface WorkspaceView {
  id: string;
  name: string;
  role: Role;
  createdAt: string;
}

export interface MemberView {
  user: UserView;
  role: Role;
  addedAt: string;
}

/** An email as accounts are stored and looked up (and sign-in attempts counted) by. */
export const normalEmail = (email: string): string => email.trim().toLowerCase();

export const toUserView = (u: UserDoc): UserView => ({ id: u._id, name: u.name, email: u.email });
const membershipId = (workspaceId: string, userId: string) => `${workspaceId}:${userId}`;
const isDuplicateKey = (err: unknown) => err instanceof MongoServerError && err.code === 11000;

/** Users, the workspaces they belong to, and first-run setup. */
export function usersStore({ users, memberships, workspaces, markers }: Collections) {
  const addMembership = async (workspaceId: string, userId: string, role: Role) => {
    const doc: MembershipDoc = {
      _id: membershipId(workspaceId, userId),
      workspaceId,
      userId,
      role,
      createdAt: new Date(),
    };
    await memberships.insertOne(doc);
    return doc;
  };

  const store = {
    async create(input: { email: string; name: string; password: string }): Promise<UserDoc> {
      const doc: UserDoc = {
        _id: newId("usr"),
        email: normalEmail(input.email),
        name: input.name.trim(),
        passwordHash: await hashPassword(input.password),
        createdAt: new Date(),
      };
      try {
        await users.insertOne(doc);
      } catch (err) {
        if (isDuplicateKey(err)) throw new HttpError(409, "A user with this email exists already.");
        throw err;
      }
      return doc;
    },

    findByEmail: (email: string) => users.findOne({ email: normalEmail(email) }),
    findById: (id: string) => users.findOne({ _id: id }),

    async setupNeeded(): Promise<boolean> {
      return (await markers.countDocuments({ _id: "setup" }, { limit: 1 })) === 0;
    },

    /** First run only: the marker's unique `_id` lets exactly one caller through, ever. */
    async setup(input: { email: string; name: string; password: string; workspaceName: string }) {
      try {
        await markers.insertOne({ _id: "setup", at: new Date() });
      } catch (err) {
        if (isDuplicateKey(err)) throw new HttpError(409, "Pressroom is set up already.");
        throw err;
      }
      try {
        const user = await store.create(input);
        const workspace = await store.createWorkspace(user._id, input.workspaceName);
        return { user, workspace };
      } catch (err) {
        // Leave setup open again rather than locked with no owner.
        await markers.deleteOne({ _id: "setup" });
        throw err;
      }
    },

    async createWorkspace(ownerId: string, name: string): Promise<WorkspaceView> {
      const doc = { _id: newId("ws"), name: name.trim(), createdAt: new Date() };
      if (doc.name === "") throw new HttpError(400, "A workspace needs a name.");
      await workspaces.insertOne(doc);
      await addMembership(doc._id, ownerId, "owner");
      return { id: doc._id, name: doc.name, role: "owner", createdAt: doc.createdAt.toISOString() };
    },

    /** The user's role in the workspace, or null when they are not a member. */
    async roleIn(workspaceId: string, userId: string): Promise<Role | null> {
      const m = await memberships.findOne({ _id: membershipId(workspaceId, userId) });
      return m?.role ?? null;
    },

    async workspacesOf(userId: string): Promise<WorkspaceView[]> {
      const mine = await memberships.find({ userId }).toArray();
      const docs = await workspaces
        .find({ _id: { $in: mine.map((m) => m.workspaceId) } })
        .sort({ createdAt: 1, _id: 1 })
        .toArray();
      const roles = new Map(mine.map((m) => [m.workspaceId, m.role]));
      return docs.map((w) => ({
        id: w._id,
        name: w.name,
        role: roles.get(w._id) ?? "member",
        createdAt: w.createdAt.toISOString(),
      }));
    },

    async rename(workspaceId: string, name: string): Promise<void> {
      await workspaces.updateOne({ _id: workspaceId }, { $set: { name: name.trim() } });
    },

    async members(workspaceId: string): Promise<MemberView[]> {
      const list = await memberships.find({ workspaceId }).sort({ createdAt: 1, _id: 1 }).toArray();
      const people = await store.namesOf(list.map((m) => m.userId));
      return list.flatMap((m) => {
        const user = people.get(m.userId);
        return user ? [{ user, role: m.role, addedAt: m.createdAt.toISOString() }] : [];
      });
    },

    /**
     * Makes the account with this email a member, when there is one and it is not a member yet.
     * Says nothing about which happened: the caller answers alike in every case (issue 20,
     * finding 9), so adding members cannot be used to find out who has an account.
     */
    async addMember(workspaceId: string, email: string): Promise<void> {
      const user = await store.findByEmail(email);
      if (user === null) return;
      try {
        await addMembership(workspaceId, user._id, "member");
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },

    async removeMember(workspaceId: string, userId: string): Promise<void> {
      const role = await store.roleIn(workspaceId, userId);
      if (role === null) throw new HttpError(404, "Member not found.");
      if (role === "owner") throw new HttpError(409, "The owner cannot be removed.");
      await memberships.deleteOne({ _id: membershipId(workspaceId, userId) });
    },

    /** id → user view, for showing who did what. One query. */
    async namesOf(ids: Iterable<string>): Promise<Map<string, UserView>> {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      const docs = await users.find({ _id: { $in: unique } }).toArray();
      return new Map(docs.map((u) => [u._id, toUserView(u)]));
    },
  };
  return store;
}

export type UsersStore = ReturnType<typeof usersStore>;
