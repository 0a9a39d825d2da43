import type { components } from "../../../openapi/generated/admin.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { InvitationDoc } from "../platform/db/collections.js";
import { DomainError, gone, notFound } from "../platform/domain-error.js";
import type { NewSession, SessionsStore, SigningIn } from "../sessions/sessions-store.js";
import type { SignInThrottle } from "../sessions/sign-in-throttle.js";
import { hasTwoStep } from "../users/two-step-store.js";
import type { UsersStore } from "../users/users-store.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";
import {
  HOW_TO_ACCEPT_MESSAGE,
  hashInvitationToken,
  INVITER_NOT_OWNER_MESSAGE,
  UNKNOWN_LINK_MESSAGE,
  USED_MESSAGE,
  usableInvitation,
} from "./invitation-rules.js";
import type { InvitationsStore } from "./invitations-store.js";
import { inviteeCheck } from "./invitee.js";

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

/** An accepted invitation: who joined, and their new session unless they were signed in. */
export interface AcceptedInvitation {
  userId: string;
  session: NewSession | null;
}

/**
 * Looking at and accepting an invitation link, the two things a person without a session may do
 * with one. Each attempt is counted as a sign-in is (sign-in-throttle.ts): against the client's
 * address (20 per window) and against the link (5); one with a link that works is taken off
 * again, so only unknown, used or expired links use the allowance up.
 */
export interface InvitationUse {
  /** What the link invites to, for the page that accepts it; nothing about the email's account. */
  lookUp(token: string, ip: string | undefined): Promise<InvitationPreview>;
  /**
   * Joins the workspace with the link, as the invited email's account: the signed-in one, one
   * signed in with its password, or a new one (invitee.ts); the last two get a new session.
   * Nothing changes when it fails.
   */
  accept(
    body: Acceptance,
    signedInAs: string | null,
    ip: string | undefined,
  ): Promise<AcceptedInvitation>;
}

export function invitationUse(deps: InvitationUseDeps): InvitationUse {
  const now = deps.now ?? Date.now;
  const inviteeOf = inviteeCheck(deps);
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
      const people = await deps.users.namesOf([doc.invitedBy]);
      // Nothing about the invited email's account: a link anyone can make must not tell.
      return {
        workspaceName: workspace.name,
        email: doc.email,
        role: doc.role,
        invitedBy: people.get(doc.invitedBy)?.name ?? null,
        expiresAt: doc.expiresAt.toISOString(),
      };
    },

    async accept(
      body: Acceptance,
      signedInAs: string | null,
      ip: string | undefined,
    ): Promise<AcceptedInvitation> {
      const { doc } = await usable(body.token, ip);
      const invitee = await inviteeOf(doc.email, body, signedInAs, ip);
      if (
        invitee.kind !== "new" &&
        (await deps.workspaces.roleIn(doc.workspaceId, invitee.user._id))
      ) {
        throw new DomainError("conflict", "You are a member of this workspace already.");
      }
      const claimedAt = await deps.invitations.claim(doc._id);
      if (claimedAt === null) throw new DomainError("gone", USED_MESSAGE);
      let user: SigningIn;
      try {
        user = invitee.kind === "new" ? await createAccount(doc.email, invitee) : invitee.user;
        await deps.workspaces.join(doc.workspaceId, user._id, doc.role);
      } catch (err) {
        await deps.invitations.release(doc._id, claimedAt);
        throw err;
      }
      if (invitee.kind === "new") await invitee.attempt.succeeded();
      await recheckInviter(doc, user._id);
      await deps.invitations.acceptedBy(doc._id, user._id);
      await deps.audit.record({
        workspaceId: doc.workspaceId,
        actor: user._id,
        action: "member.joined",
        details: { invitationId: doc._id, role: doc.role, userId: user._id },
      });
      return {
        userId: user._id,
        // An account with two-step sign-in signs in with its code, never by a password alone.
        session:
          invitee.kind === "signed-in" || (invitee.kind === "password" && hasTwoStep(invitee.user))
            ? null
            : await deps.sessions.create(user),
      };
    },
  };

  async function createAccount(
    email: string,
    input: { name: string; password: string },
  ): Promise<SigningIn> {
    try {
      return await deps.users.create({ email, name: input.name, password: input.password });
    } catch (err) {
      // The account appeared since it was looked up: it signs in, or accepts signed in as it.
      if (err instanceof DomainError && err.code === "conflict") {
        throw new DomainError("conflict", HOW_TO_ACCEPT_MESSAGE);
      }
      throw err;
    }
  }
}
