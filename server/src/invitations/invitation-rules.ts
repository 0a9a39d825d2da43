/**
 * The rules of invitations, in one place (admin.yaml, createInvitation and acceptInvitation):
 * - only an owner invites, lists pending invitations and withdraws them;
 * - a link works once and for 7 days; the token is 32 random bytes, and only its SHA-256 hash
 *   is stored;
 * - a used or expired link is told so (410) while the invitation is kept (7 days past its
 *   expiry); an unknown link — never issued, withdrawn, or deleted — is 404, and nothing more;
 * - who accepts is the invited email's account — signed in as it, with its password, or created
 *   with a name and password (invitee.ts) — and no answer tells whether that account exists
 *   but the one that creates it;
 * - a link holds only while its sender is an owner of the workspace: otherwise it is withdrawn
 *   when next used (410, then 404), as it is when the sender stops being one.
 */
import { createHash, randomBytes } from "node:crypto";
import type { InvitationDoc } from "../platform/db/collections.js";
import { gone, notFound } from "../platform/domain-error.js";

/** How long a link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
/** How long after its expiry an invitation is kept, so a late click hears "expired", not "unknown". */
export const INVITATION_KEEP_MS = 7 * 86_400_000;

export const UNKNOWN_LINK_MESSAGE = "This invitation link is not valid.";
export const USED_MESSAGE = "This invitation has been used already.";
export const EXPIRED_MESSAGE = "This invitation has expired. Ask for a new one.";
/** The same whether or not an account has the invited email (admin.yaml, acceptInvitation). */
export const HOW_TO_ACCEPT_MESSAGE =
  "To accept, sign in as the invited email, or create an account with it.";
export const INVITER_NOT_OWNER_MESSAGE =
  "This invitation was withdrawn: whoever sent it is no longer an owner of the workspace. Ask an owner for a new one.";
export const ALREADY_MEMBER_MESSAGE = "This email belongs to a member of the workspace already.";
export const ALREADY_INVITED_MESSAGE =
  "This email has a pending invitation to the workspace already: resend it, or withdraw it first.";

/** A new link's token (43 base64url characters) and the hash that is stored of it. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token) };
}

export const hashInvitationToken = (token: string): string =>
  createHash("sha256").update(token, "utf8").digest("hex");

/** Whether a string can be a token at all (no database read for one that cannot). */
export const isTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The invitation, if its link may still be used at `now`; otherwise the answer why not. */
export function usableInvitation(doc: InvitationDoc | null, now: Date): InvitationDoc {
  if (doc === null) throw notFound(UNKNOWN_LINK_MESSAGE);
  if (doc.acceptedAt !== null) throw gone(USED_MESSAGE);
  if (doc.expiresAt.getTime() <= now.getTime()) throw gone(EXPIRED_MESSAGE);
  return doc;
}
