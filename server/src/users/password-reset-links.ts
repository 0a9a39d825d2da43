/**
 * Password-reset links as stored (users/password-reset.ts has the rules): the token is 32
 * random bytes in the link's fragment, and only its SHA-256 hash is kept, as the document's
 * `_id`. A link is claimed by one update whose filter is "not used yet": atomic on
 * MongoDB and on the embedded database (server/embedded-db/README.md, "Single-document writes
 * are atomic"), so of two uses at the same moment exactly one gets the link.
 */
import { randomBytes } from "node:crypto";
import type { Collections, PasswordResetDoc, UserDoc } from "../platform/db/collections.js";
import { hashToken } from "../sessions/sessions-store.js";

/** How long a link works. */
export const RESET_LINK_TTL_MS = 30 * 60_000;

/** A link's token is stored as a session token is: its SHA-256 hex (sessions-store.ts). */
export const hashResetToken = hashToken;

export interface PasswordResetLinks {
  /** A new link's token for the account, made for its current password (`passwordGeneration`). */
  issue(
    user: Pick<UserDoc, "_id" | "passwordGeneration">,
  ): Promise<{ token: string; expiresAt: Date }>;
  /** Marks the link used and answers it, if it is neither used nor expired at `now`; else null. */
  claim(token: string, now: Date): Promise<PasswordResetDoc | null>;
}

export function passwordResetLinks(
  { passwordResets }: Collections,
  now: () => number = Date.now,
): PasswordResetLinks {
  return {
    async issue(user) {
      const token = randomBytes(32).toString("base64url");
      const createdAt = new Date(now());
      const expiresAt = new Date(createdAt.getTime() + RESET_LINK_TTL_MS);
      await passwordResets.insertOne({
        _id: hashResetToken(token),
        userId: user._id,
        generation: user.passwordGeneration ?? 0,
        createdAt,
        expiresAt,
        usedAt: null,
      });
      return { token, expiresAt };
    },

    // Read by `_id`, then the compare-and-set on `usedAt` alone: one filter naming the expiry
    // too makes SQLite search the expiry index instead (the plan test's shapes), and a link
    // past its time is refused on the read, changing nothing.
    async claim(token, at) {
      const _id = hashResetToken(token);
      const link = await passwordResets.findOne({ _id });
      if (link === null || link.usedAt !== null || link.expiresAt.getTime() <= at.getTime()) {
        return null;
      }
      const won = await passwordResets.updateOne({ _id, usedAt: null }, { $set: { usedAt: at } });
      return won.modifiedCount === 1 ? link : null;
    },
  };
}
