import type { Request, Response } from "express";
import type { AuditLog } from "../audit/audit-log.js";
import {
  ALREADY_INVITED_MESSAGE,
  ALREADY_MEMBER_MESSAGE,
} from "../invitations/invitation-rules.js";
import type { InvitationUse } from "../invitations/invitation-use.js";
import { toInvitation } from "../invitations/invitation-view.js";
import type { CreatedInvitation, InvitationsStore } from "../invitations/invitations-store.js";
import type { Mailer } from "../mail/mailer.js";
import { conflict, notFound } from "../platform/domain-error.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import { normalEmail, type UsersStore } from "../users/users-store.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";
import {
  clearSessionCookie,
  dashboardOrigin,
  requestOrigin,
  sessionTokenOf,
  setSessionCookie,
  signedInUser,
} from "./guards.js";
import type { MeView } from "./me-view.js";

export interface InvitationDeps {
  invitations: InvitationsStore;
  use: InvitationUse;
  audit: AuditLog;
  users: Pick<UsersStore, "findByEmail" | "namesOf">;
  workspaces: Pick<WorkspacesStore, "byId" | "roleIn">;
  sessions: Pick<SessionsStore, "userOf" | "delete">;
  me: MeView["me"];
  publicOrigin: string | undefined;
  mailer: Mailer | undefined;
  secureCookies: boolean;
}

/**
 * Invitations: owners make, list and withdraw them; anyone with a link looks at it and accepts
 * it (the rules: invitations/invitation-rules.ts). The link's token is answered once, by
 * create, and otherwise only ever read from request bodies: never logged, never stored.
 */
export function invitationHandlers(deps: InvitationDeps) {
  /**
   * The answer that shows an invitation's new link, once: mailed first when the server sends
   * mail (a failure is logged without its error, whose message might quote the link).
   */
  const withLink = async (
    req: Request<{ workspaceId: string }>,
    res: Response,
    { doc, token }: CreatedInvitation,
  ) => {
    const link = `${dashboardOrigin(req, deps.publicOrigin)}/dashboard/#/join/${token}`;
    const people = await deps.users.namesOf([doc.invitedBy]);
    let sent = false;
    if (deps.mailer !== undefined) {
      const workspace = await deps.workspaces.byId(doc.workspaceId);
      try {
        await deps.mailer.sendInvitation({
          to: doc.email,
          link,
          workspaceName: workspace?.name ?? "",
          invitedBy: people.get(doc.invitedBy)?.name ?? "",
        });
        sent = true;
      } catch (err) {
        const kind = err instanceof Error ? err.name : typeof err;
        res.locals.log.warn({ invitationId: doc._id, kind }, "mailing an invitation failed");
      }
    }
    const mail = deps.mailer === undefined ? "off" : sent ? "sent" : ("failed" as const);
    return { invitation: toInvitation(doc, people), link, sent, mail } as const;
  };

  const createInvitation: AdminHandler<"createInvitation"> = async (req, res) => {
    const { workspaceId } = req.params;
    const invitedBy = signedInUser(res);
    const account = await deps.users.findByEmail(req.body.email);
    if (account !== null && (await deps.workspaces.roleIn(workspaceId, account._id)) !== null) {
      throw conflict(ALREADY_MEMBER_MESSAGE);
    }
    // One pending invitation per email: a second would be a second live link to one person.
    // Checked, then made: two owners inviting one email at the same moment may make two.
    const email = normalEmail(req.body.email);
    if ((await deps.invitations.pending(workspaceId)).some((i) => i.email === email)) {
      throw conflict(ALREADY_INVITED_MESSAGE);
    }
    const created = await deps.invitations.create({
      workspaceId,
      email: req.body.email,
      role: req.body.role,
      invitedBy,
    });
    // Not the email: every member reads the log; owners see it in the pending invitations.
    await deps.audit.record({
      workspaceId,
      actor: invitedBy,
      action: "invitation.created",
      details: { invitationId: created.doc._id, role: created.doc.role },
    });
    res.status(201).json(await withLink(req, res, created));
  };

  const resendInvitation: AdminHandler<"resendInvitation"> = async (req, res) => {
    const { workspaceId, invitationId } = req.params;
    const invitedBy = signedInUser(res);
    const renewed = await deps.invitations.renew(workspaceId, invitationId, invitedBy);
    if (renewed === null) throw notFound("Invitation not found.");
    await deps.audit.record({
      workspaceId,
      actor: invitedBy,
      action: "invitation.resent",
      details: { invitationId, role: renewed.doc.role },
    });
    res.json(await withLink(req, res, renewed));
  };

  const listInvitations: AdminHandler<"listInvitations"> = async (req, res) => {
    const pending = await deps.invitations.pending(req.params.workspaceId);
    const people = await deps.users.namesOf(pending.map((i) => i.invitedBy));
    res.json({ data: pending.map((i) => toInvitation(i, people)) });
  };

  const withdrawInvitation: AdminHandler<"withdrawInvitation"> = async (req, res) => {
    const { workspaceId, invitationId } = req.params;
    if (!(await deps.invitations.withdraw(workspaceId, invitationId))) {
      throw notFound("Invitation not found.");
    }
    await deps.audit.record({
      workspaceId,
      actor: signedInUser(res),
      action: "invitation.withdrawn",
      details: { invitationId, reason: "withdrawn" },
    });
    res.status(204).end();
  };

  const lookUpInvitation: AdminHandler<"lookUpInvitation"> = async (req, res) => {
    res.json(await deps.use.lookUp(req.body.token, req.ip));
  };

  // Open to everyone, like sign-in; reads the session cookie itself, for an existing account.
  const acceptInvitation: AdminHandler<"acceptInvitation"> = async (req, res) => {
    const cookie = sessionTokenOf(req);
    const signedInAs = cookie === undefined ? null : await deps.sessions.userOf(cookie);
    const { userId, session } = await deps.use.accept(req.body, signedInAs, req.ip);
    if (session !== null) {
      setSessionCookie(res, session.token, session.expiresAt, deps.secureCookies);
    } else if (cookie !== undefined && signedInAs !== userId) {
      // A password of an account with two-step sign-in joins without signing in: the browser
      // is signed in as nobody else afterwards, as it would be as the invitee otherwise.
      await deps.sessions.delete(cookie);
      clearSessionCookie(res, deps.secureCookies);
    }
    res.status(201).json(await deps.me(userId, requestOrigin(res)));
  };

  return {
    createInvitation,
    resendInvitation,
    listInvitations,
    withdrawInvitation,
    lookUpInvitation,
    acceptInvitation,
  };
}
