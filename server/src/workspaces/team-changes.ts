import type { AuditLog } from "../audit/audit-log.js";
import type { InvitationsStore } from "../invitations/invitations-store.js";
import type { Role } from "../platform/db/collections.js";
import type { Logger } from "../platform/logger.js";
import type { MemberOf, WorkspacesStore } from "./workspaces-store.js";

/** Who acts (the signed-in user), in which workspace, and where to log a best-effort failure. */
export interface TeamActor {
  readonly workspaceId: string;
  readonly actor: string;
  readonly log: Logger;
}

/**
 * Changes of a workspace's team that leave an audit entry (admin.yaml, listAudit): adding,
 * role changes, removals and leaving. An owner who stops being one (removed, left, made a
 * member) takes their pending invitations along: they are withdrawn, each with an
 * `invitation.withdrawn` entry. That is best effort — a failure is logged, the change stands —
 * because accepting checks the sender's role again anyway (invitations/invitation-use.ts).
 */
export interface TeamChanges {
  /** `addMember`: an entry only when an account was made a member (members see it listed). */
  add(at: TeamActor, email: string): Promise<void>;
  /** The member with the new role; an entry only when the role changed. */
  changeRole(at: TeamActor, userId: string, role: Role): Promise<MemberOf>;
  /** Removing a member, or leaving (`userId` is the actor). */
  remove(at: TeamActor, userId: string): Promise<void>;
}

export function teamChanges(deps: {
  workspaces: Pick<WorkspacesStore, "addMember" | "changeRole" | "removeMember">;
  invitations: Pick<InvitationsStore, "withdrawAllBy">;
  audit: AuditLog;
}): TeamChanges {
  const { workspaces, invitations, audit } = deps;

  /** Withdraws the invitations of `inviterId`, who is no owner of the workspace any more. */
  async function withdrawInvitationsOf(at: TeamActor, inviterId: string): Promise<void> {
    try {
      const withdrawn = await invitations.withdrawAllBy(at.workspaceId, inviterId);
      for (const invitationId of withdrawn) {
        await audit.record({
          workspaceId: at.workspaceId,
          actor: at.actor,
          action: "invitation.withdrawn",
          details: { invitationId, reason: "inviter_not_owner" },
        });
      }
    } catch (err) {
      at.log.warn(
        { err, workspaceId: at.workspaceId, inviterId },
        "withdrawing the invitations of a former owner failed; accepting them checks again",
      );
    }
  }

  return {
    async add(at: TeamActor, email: string): Promise<void> {
      const userId = await workspaces.addMember(at.workspaceId, email);
      if (userId === null) return;
      await audit.record({
        workspaceId: at.workspaceId,
        actor: at.actor,
        action: "member.added",
        details: { userId, role: "member" },
      });
    },

    async changeRole(at: TeamActor, userId: string, role: Role): Promise<MemberOf> {
      const { member, previousRole } = await workspaces.changeRole(at.workspaceId, userId, role);
      if (previousRole !== role) {
        await audit.record({
          workspaceId: at.workspaceId,
          actor: at.actor,
          action: "member.role_changed",
          details: { userId, role, previousRole },
        });
        if (previousRole === "owner") await withdrawInvitationsOf(at, userId);
      }
      return member;
    },

    async remove(at: TeamActor, userId: string): Promise<void> {
      const role = await workspaces.removeMember(at.workspaceId, userId);
      await audit.record({
        workspaceId: at.workspaceId,
        actor: at.actor,
        action: userId === at.actor ? "member.left" : "member.removed",
        details: { userId, role },
      });
      if (role === "owner") await withdrawInvitationsOf(at, userId);
    },
  };
}
