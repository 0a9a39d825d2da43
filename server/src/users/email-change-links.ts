/**
 * Email changes waiting for their confirmation link, as stored (users/email-change.ts has the
 * rules). As a password-reset link's (password-reset-links.ts), the token is 32 random bytes in
 * the link's fragment and only its SHA-256 hash is kept; the document's `_id` is the account's,
 * so an account has one waiting change: a new one replaces it in one write, and the link of the
 * one before stops working at once. A link is claimed by one update whose filter is "this token,
 * not used yet": atomic on MongoDB and on the embedded database (server/embedded-db/README.md,
 * "Single-document writes are atomic"), so of two uses at the same moment exactly one gets it.
 */
import { randomBytes } from "node:crypto";
import type { Collections, EmailChangeDoc, UserDoc } from "../platform/db/collections.js";
import { hashToken } from "../sessions/sessions-store.js";

/** How long a confirmation link works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 3_600_000;

/** A link's token is stored as a session token is: its SHA-256 hex (sessions-store.ts). */
export const hashEmailChangeToken = hashToken;

export interface EmailChangeLinks {
  /**
   * A new link's token for the account's change to `newEmail` (normalised by the caller), made
   * for its current email and password (`passwordGeneration`); the account's earlier link stops
   * working.
   */
  issue(
    user: Pick<UserDoc, "_id" | "email" | "passwordGeneration">,
    newEmail: string,
  ): Promise<{ token: string; expiresAt: Date }>;
  /** Marks the link used and answers it, if it is neither used, replaced nor expired at `now`. */
  claim(token: string, now: Date): Promise<EmailChangeDoc | null>;
  /** The account's change, used or not, expired or not; null when none is stored. */
  of(userId: string): Promise<EmailChangeDoc | null>;
  /** Deletes the account's waiting change (all of it, or only the one with `token`'s link). */
  cancel(userId: string, token?: string): Promise<void>;
}

export function emailChangeLinks(
  { emailChanges }: Collections,
  now: () => number = Date.now,
): EmailChangeLinks {
  return {
    async issue(user, newEmail) {
      const token = randomBytes(32).toString("base64url");
      const createdAt = new Date(now());
      const expiresAt = new Date(createdAt.getTime() + EMAIL_CHANGE_TTL_MS);
      const change: Omit<EmailChangeDoc, "_id"> = {
        tokenHash: hashEmailChangeToken(token),
        newEmail,
        fromEmail: user.email,
        generation: user.passwordGeneration ?? 0,
        createdAt,
        expiresAt,
        usedAt: null,
      };
      await emailChanges.updateOne({ _id: user._id }, { $set: change }, { upsert: true });
      return { token, expiresAt };
    },

    // Read by the token's hash, then the compare-and-set names it again: a link replaced by a
    // newer request between the two (same `_id`, another hash) is not claimed. A link past its
    // time is refused on the read, changing nothing.
    async claim(token, at) {
      const tokenHash = hashEmailChangeToken(token);
      const change = await emailChanges.findOne({ tokenHash });
      if (change === null || change.usedAt !== null || change.expiresAt.getTime() <= at.getTime()) {
        return null;
      }
      const won = await emailChanges.updateOne(
        { _id: change._id, tokenHash, usedAt: null },
        { $set: { usedAt: at } },
      );
      return won.modifiedCount === 1 ? change : null;
    },

    of: (userId) => emailChanges.findOne({ _id: userId }),

    async cancel(userId, token) {
      await emailChanges.deleteOne(
        token === undefined
          ? { _id: userId }
          : { _id: userId, tokenHash: hashEmailChangeToken(token) },
      );
    },
  };
}
