import type { components } from "../../../openapi/generated/admin.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { InvitationDoc } from "../db/collections.js";
import { DomainError, gone, notFound } from "../domain-error.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import type { SignInThrottle } from "../sessions/sign-in-throttle.js";
import type { UsersStore } from "../users/users-store.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";
import {
  acceptanceFits,
  hashInvitationToken,
  INVITER_NOT_OWNER_MESSAGE,
  SIGN_IN_FIRST_MESSAGE,
  UNKNOWN_LINK_MESSAGE,
  USED_MESSAGE,
  usableInvitation,
} from "./invitation-rules.js";
import type { InvitationsStore } from "./invitations-store.js";

type InvitationPreview = components["schemas"]["InvitationPreview"];

export interface InvitationUseDeps {
  invitations: InvitationsStore;
  throttle: SignInThrottle;
  users: Pick<UsersStore, "findByEmail" | "create" | "namesOf">;
  workspaces: Pick<WorkspacesStore, "byId" | "join" | "roleIn" | "removeMember">;
  sessions: Pick<SessionsStore, "create">;
  audit: AuditLog;
  now?: () => number;
}

export interface Acceptance {
  token: string;
  name?: string | undefined;
  password?: string | undefined;
}

/**
 * Looking at and accepting an invitation link, the two things a person without a session may do
 * with one. Each attempt is counted as a sign-in is (sign-in-throttle.ts): against the client's
 * address (20 per window) and against the link (5); one with a link that works is taken off
 * again, so only unknown, used or expired links use the allowance up.
 */
export function invitationUse(deps: InvitationUseDeps) {
  const now = deps.now ?? Date.now;
  /** What the throttle counts a link's attempts by, in place of an email: never the token. */
  const attemptKey = (token: string) => `invitation:${hashInvitationToken(token).slice(0, 32)}`;

  const usable = async (token: string, ip: string | undefined) => {
    const attempt = await deps.throttle.begin(attemptKey(token), ip);
    const doc = usableInvitation(await deps.invitations.byToken(token), new Date(now()));
    const workspace = await deps.workspaces.byId(doc.workspaceId);
    if (workspace === null) throw notFound(UNKNOWN_LINK_MESSAGE);
    // A link that works is no guess: only unknown, used and expired links stay counted.
    await attempt.succeeded();
    if (!(await inviterIsOwner(doc))) throw await withdrawStale(doc);
    return { doc, workspace };
  };

  /** Whether the invitation's sender is (still) an owner of its workspace. */
  const inviterIsOwner = async (doc: InvitationDoc) =>
    (await deps.workspaces.roleIn(doc.workspaceId, doc.invitedBy)) === "owner";

  /** Withdraws an invitation whose sender is an owner no more; the answer to give (410). */
  const withdrawStale = async (doc: InvitationDoc) => {
    if (await deps.invitations.drop(doc._id)) {
      await deps.audit.record({
        workspaceId: doc.workspaceId,
        actor: null,
        action: "invitation.withdrawn",
        details: { invitationId: doc._id, reason: "inviter_not_owner" },
      });
    }
    return gone(INVITER_NOT_OWNER_MESSAGE);
  };

  /**
   * After joining, the sender's role once more: when it was taken away meanwhile, the join is
   * undone and the invitation withdrawn. If it still was an owner at this read, the join came
   * before the sender's loss of the role, as if accepted a moment earlier. An undo that would
   * leave the workspace without an owner (its last other owner left meanwhile) is not made.
   */
  const recheckInviter = async (doc: InvitationDoc, userId: string) => {
    if (await inviterIsOwner(doc)) return;
    try {
      await deps.workspaces.removeMember(doc.workspaceId, userId);
    } catch (err) {
      if (err instanceof DomainError && err.code === "conflict") return;
      throw err;
    }
    throw await withdrawStale(doc);
  };

  return {
    async lookUp(token: string, ip: string | undefined): Promise<InvitationPreview> {
      const { doc, workspace } = await usable(token, ip);
      const [people, account] = await Promise.all([
        deps.users.namesOf([doc.invitedBy]),
        deps.users.findByEmail(doc.email),
      ]);
      return {
        workspaceName: workspace.name,
        email: doc.email,
        role: doc.role,
        invitedBy: people.get(doc.invitedBy)?.name ?? null,
        expiresAt: doc.expiresAt.toISOString(),
        accountExists: account !== null,
      };
    },

    /**
     * Joins the workspace with the link: as the signed-in account when one has the invited
     * email, else as a new account (then a new session too). Nothing changes when it fails.
     */
    async accept(
      body: Acceptance,
      signedInAs: string | null,
      ip: string | undefined,
    ): Promise<{ userId: string; session: { token: string; expiresAt: Date } | null }> {
      const { doc } = await usable(body.token, ip);
      const account = await deps.users.findByEmail(doc.email);
      acceptanceFits(account === null ? null : { id: account._id }, signedInAs, body);
      if (account !== null && (await deps.workspaces.roleIn(doc.workspaceId, account._id))) {
        throw new DomainError("conflict", "You are a member of this workspace already.");
      }
      const claimedAt = await deps.invitations.claim(doc._id);
      if (claimedAt === null) throw new DomainError("gone", USED_MESSAGE);
      let userId: string;
      try {
        userId = account?._id ?? (await createAccount(doc.email, body));
        await deps.workspaces.join(doc.workspaceId, userId, doc.role);
      } catch (err) {
        await deps.invitations.release(doc._id, claimedAt);
        throw err;
      }
      await recheckInviter(doc, userId);
      await deps.invitations.acceptedBy(doc._id, userId);
      await deps.audit.record({
        workspaceId: doc.workspaceId,
        actor: userId,
        action: "member.joined",
        details: { invitationId: doc._id, role: doc.role, userId },
      });
      return {
        userId,
        session: account === null ? await deps.sessions.create({ _id: userId }) : null,
      };
    },
  };

  async function createAccount(email: string, body: Acceptance): Promise<string> {
    try {
      const user = await deps.users.create({
        email,
        name: body.name ?? "",
        password: body.password ?? "",
      });
      return user._id;
    } catch (err) {
      // The account appeared since it was looked up: it must sign in and accept as itself.
      if (err instanceof DomainError && err.code === "conflict") {
        throw new DomainError("conflict", SIGN_IN_FIRST_MESSAGE);
      }
      throw err;
    }
  }
}

export type InvitationUse = ReturnType<typeof invitationUse>;
