import type { WithId } from "mongodb";
import type {
  Collections,
  MembershipDoc,
  Role,
  UserDoc,
  WorkspaceDoc,
} from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { conflict, notFound } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";
import type { UsersStore } from "../users/users-store.js";
import { ownerGuard } from "./owner-guard.js";
import { existingMember, workspaceName } from "./workspace-rules.js";

/** A workspace with the role one user has in it. */
export interface WorkspaceWithRole {
  workspace: WorkspaceDoc;
  role: Role;
}

/** A membership with the account it belongs to. */
export interface MemberOf {
  membership: MembershipDoc;
  user: Pick<UserDoc, "_id" | "name" | "email">;
}

/** A member's role changed: the member as it is now, and the role it had. */
export interface RoleChange {
  member: MemberOf;
  previousRole: Role;
}

/**
 * Workspaces and their memberships (the rules they follow: workspace-rules.ts). Accounts are the
 * users store's: this one looks them up by email and id.
 */
export interface WorkspacesStore {
  /** A new workspace; with `ownerId`, that user is its owner (the operator's CLI has none). */
  create(name: string, ownerId?: string | null): Promise<WorkspaceDoc>;
  /** Every workspace, oldest first: the operator's list. */
  list(): Promise<WorkspaceDoc[]>;
  /** Checked as on create; the workspace as renamed. */
  rename(workspaceId: string, name: string): Promise<WorkspaceDoc>;
  /**
   * Sets (null: clears) the preview URL, already checked (preview/preview-url.ts), in one
   * update; the workspace as it is now, and the URL it had before.
   */
  setPreviewUrl(
    workspaceId: string,
    previewUrl: string | null,
  ): Promise<{ workspace: WorkspaceDoc; previous: string | null }>;
  /**
   * Sets whether the workspace's owners must use two-step sign-in, in one update; the workspace
   * as it is now, and the rule before.
   */
  setOwnersNeedTwoStep(
    workspaceId: string,
    required: boolean,
  ): Promise<{ workspace: WorkspaceDoc; previous: boolean }>;
  /** Whether the workspace's owners must use two-step sign-in. */
  ownersNeedTwoStep(workspaceId: string): Promise<boolean>;
  /** Names of the workspaces the user owns that require two-step sign-in of their owners. */
  ownedRequiringTwoStep(userId: string): Promise<string[]>;
  /** The workspace, or null. */
  byId(workspaceId: string): Promise<WithId<WorkspaceDoc> | null>;
  /** The user's role in the workspace, or null when they are not a member. */
  roleIn(workspaceId: string, userId: string): Promise<Role | null>;
  /** The workspaces a user belongs to, oldest first, with their role in each. */
  of(userId: string): Promise<WorkspaceWithRole[]>;
  /** Members in the order they were added; memberships of deleted accounts are left out. */
  members(workspaceId: string): Promise<MemberOf[]>;
  /**
   * Makes the account with this email a member, when there is one and it is not a member yet.
   * The caller answers alike in every case (admin.yaml, addMember), so adding members cannot
   * be used to find out who has an account; the id of the account added, or null, is for the
   * audit log.
   */
  addMember(workspaceId: string, email: string): Promise<string | null>;
  /**
   * Makes a user with an accepted invitation a member ("conflict" when they are one already).
   * The caller has checked the invitation.
   */
  join(workspaceId: string, userId: string, role: Role): Promise<void>;
  /**
   * The member with the new role, and the role before; never leaves the workspace without an
   * owner (409).
   */
  changeRole(workspaceId: string, userId: string, role: Role): Promise<RoleChange>;
  /**
   * Removes a membership (or leaves); never the workspace's last owner (409). The role the
   * membership had.
   */
  removeMember(workspaceId: string, userId: string): Promise<Role>;
}

const membershipId = (workspaceId: string, userId: string) => `${workspaceId}:${userId}`;

export function workspacesStore(
  c: Collections,
  users: Pick<UsersStore, "findByEmail" | "namesOf">,
): WorkspacesStore {
  const { workspaces, memberships } = c;
  const guard = ownerGuard(c);
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

  const store: WorkspacesStore = {
    async create(name: string, ownerId: string | null = null): Promise<WorkspaceDoc> {
      const doc: WorkspaceDoc = {
        _id: newId("ws"),
        name: workspaceName(name),
        createdAt: new Date(),
      };
      await workspaces.insertOne(doc);
      if (ownerId !== null) await addMembership(doc._id, ownerId, "owner");
      return doc;
    },

    list(): Promise<WorkspaceDoc[]> {
      return workspaces.find({}).sort({ createdAt: 1, _id: 1 }).toArray();
    },

    async rename(workspaceId: string, name: string): Promise<WorkspaceDoc> {
      const trimmed = workspaceName(name);
      await workspaces.updateOne({ _id: workspaceId }, { $set: { name: trimmed } });
      const doc = await workspaces.findOne({ _id: workspaceId });
      if (doc === null) throw notFound("Workspace not found.");
      return doc;
    },

    async setPreviewUrl(workspaceId: string, previewUrl: string | null) {
      const before = await workspaces.findOneAndUpdate(
        { _id: workspaceId },
        { $set: { previewUrl } },
        { returnDocument: "before" },
      );
      if (before === null) throw notFound("Workspace not found.");
      return { workspace: { ...before, previewUrl }, previous: before.previewUrl ?? null };
    },

    async setOwnersNeedTwoStep(workspaceId: string, required: boolean) {
      const before = await workspaces.findOneAndUpdate(
        { _id: workspaceId },
        { $set: { ownersNeedTwoStep: required } },
        { returnDocument: "before" },
      );
      if (before === null) throw notFound("Workspace not found.");
      return {
        workspace: { ...before, ownersNeedTwoStep: required },
        previous: before.ownersNeedTwoStep === true,
      };
    },

    async ownersNeedTwoStep(workspaceId: string): Promise<boolean> {
      const doc = await workspaces.findOne(
        { _id: workspaceId },
        { projection: { _id: 1, ownersNeedTwoStep: 1 } },
      );
      return doc?.ownersNeedTwoStep === true;
    },

    async ownedRequiringTwoStep(userId: string): Promise<string[]> {
      const owned = await memberships.find({ userId, role: "owner" }).toArray();
      if (owned.length === 0) return [];
      const docs = await workspaces
        .find({ _id: { $in: owned.map((m) => m.workspaceId) }, ownersNeedTwoStep: true })
        .sort({ createdAt: 1, _id: 1 })
        .toArray();
      return docs.map((w) => w.name);
    },

    byId: (workspaceId: string) => workspaces.findOne({ _id: workspaceId }),

    async roleIn(workspaceId: string, userId: string): Promise<Role | null> {
      const m = await memberships.findOne({ _id: membershipId(workspaceId, userId) });
      return m?.role ?? null;
    },

    async of(userId: string): Promise<WorkspaceWithRole[]> {
      const mine = await memberships.find({ userId }).toArray();
      const docs = await workspaces
        .find({ _id: { $in: mine.map((m) => m.workspaceId) } })
        .sort({ createdAt: 1, _id: 1 })
        .toArray();
      const roles = new Map(mine.map((m) => [m.workspaceId, m.role]));
      return docs.map((workspace) => ({ workspace, role: roles.get(workspace._id) ?? "member" }));
    },

    async members(workspaceId: string): Promise<MemberOf[]> {
      const list = await memberships.find({ workspaceId }).sort({ createdAt: 1, _id: 1 }).toArray();
      const people = await users.namesOf(list.map((m) => m.userId));
      return list.flatMap((membership) => {
        const user = people.get(membership.userId);
        return user ? [{ membership, user }] : [];
      });
    },

    async addMember(workspaceId: string, email: string): Promise<string | null> {
      const user = await users.findByEmail(email);
      if (user === null) return null;
      try {
        await addMembership(workspaceId, user._id, "member");
        // For the audit log, which only members read: they see the new member listed anyway.
        return user._id;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        return null;
      }
    },

    async join(workspaceId: string, userId: string, role: Role): Promise<void> {
      try {
        await addMembership(workspaceId, userId, role);
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict("You are a member of this workspace already.");
        throw err;
      }
    },

    async changeRole(workspaceId: string, userId: string, role: Role): Promise<RoleChange> {
      const _id = membershipId(workspaceId, userId);
      const current = existingMember(await store.roleIn(workspaceId, userId));
      if (current === "owner" && role === "member") {
        await guard.takeAwayOwner(workspaceId, {
          write: async () => {
            await memberships.updateOne({ _id }, { $set: { role: "member" } });
          },
          undo: async () => {
            await memberships.updateOne({ _id }, { $set: { role: "owner" } });
          },
        });
      } else if (current !== role) {
        await memberships.updateOne({ _id }, { $set: { role } });
      }
      const [member] = (await store.members(workspaceId)).filter((m) => m.user._id === userId);
      if (member === undefined) throw notFound("Member not found.");
      return { member, previousRole: current };
    },

    async removeMember(workspaceId: string, userId: string): Promise<Role> {
      const _id = membershipId(workspaceId, userId);
      const doc = await memberships.findOne({ _id });
      const role = existingMember(doc?.role ?? null);
      if (doc === null || doc.role !== "owner") {
        await memberships.deleteOne({ _id });
        return role;
      }
      await guard.takeAwayOwner(workspaceId, {
        write: async () => {
          await memberships.deleteOne({ _id });
        },
        undo: async () => {
          try {
            await memberships.insertOne(doc);
          } catch (err) {
            if (!isDuplicateKey(err)) throw err;
          }
        },
      });
      return role;
    },
  };
  return store;
}
