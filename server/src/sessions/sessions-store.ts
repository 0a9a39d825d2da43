import { createHash, randomBytes } from "node:crypto";
import type { Collections, UserDoc } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";

/** How a session token is stored and known: its SHA-256, never the token itself. */
export const hashToken = (token: string) =>
  createHash("sha256").update(token, "utf8").digest("hex");

export const SESSIONS_ENDED_MESSAGE =
  "The account's password changed or its sessions were ended while signing in. Sign in again.";

/** An account as a sign-in read it: its id and the generation read with the hash it checked. */
export type SigningIn = Pick<UserDoc, "_id" | "passwordGeneration">;

export interface SessionsStoreOptions {
  /** Tests only: holds a new session between the password check and its insert. */
  readonly beforeSessionInsert?: (userId: string) => Promise<void>;
}

/** A session just made: its token, for the cookie (only its hash is stored), and its end. */
export interface NewSession {
  token: string;
  expiresAt: Date;
}

/** Sign-in sessions: a random token in the cookie, only its hash in the database. */
export interface SessionsStore {
  /** A new session of the account, unless its sessions were ended since `user` was read. */
  create(user: SigningIn): Promise<NewSession>;
  /** The user id of a live session, or null; expired sessions are deleted on sight. */
  userOf(token: string): Promise<string | null>;
  /** Ends the session of this token (signing out); nothing when there is none. */
  delete(token: string): Promise<void>;
  /**
   * Ends every session of the user but the one of `keepToken` (a password change). After the
   * account's `passwordGeneration` has grown (users-store.ts), so sign-ins in flight end too.
   */
  endOthers(userId: string, keepToken: string): Promise<void>;
  /** Ends every session of the user ("sign out everywhere"); after the generation grew. */
  endAll(userId: string): Promise<void>;
}

/**
 * A session is never stored for a password (or a "sign out everywhere") older than the
 * account's current one. The account's `passwordGeneration` grows with each such event, which
 * then deletes the other sessions; `create` inserts the session, reads the generation again and
 * takes the session back when it moved since the sign-in read it with the hash it checked. Why
 * this holds under any interleaving, on every instance: if the second read saw the old
 * generation, the event's write — and so its delete, which comes after it — came after the
 * insert, and the delete finds the session; otherwise `create` deletes it itself. The token
 * leaves `create` only after that read, so no request ever carries a session that could survive.
 * Requests pay nothing for it: the check is on sign-in, not on every request.
 */
export function sessionsStore(
  { sessions, users }: Collections,
  ttlMs: number,
  options: SessionsStoreOptions = {},
): SessionsStore {
  return {
    async create(user: SigningIn): Promise<NewSession> {
      const token = randomBytes(32).toString("base64url");
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ttlMs);
      await options.beforeSessionInsert?.(user._id);
      const _id = hashToken(token);
      await sessions.insertOne({ _id, userId: user._id, createdAt: now, expiresAt });
      const current = await users.findOne({ _id: user._id });
      if ((current?.passwordGeneration ?? 0) !== (user.passwordGeneration ?? 0)) {
        await sessions.deleteOne({ _id });
        throw new DomainError("unauthenticated", SESSIONS_ENDED_MESSAGE);
      }
      return { token, expiresAt };
    },

    async userOf(token: string): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const id = hashToken(token);
      const doc = await sessions.findOne({ _id: id });
      if (doc === null) return null;
      if (doc.expiresAt.getTime() <= Date.now()) {
        await sessions.deleteOne({ _id: id });
        return null;
      }
      return doc.userId;
    },

    async delete(token: string): Promise<void> {
      await sessions.deleteOne({ _id: hashToken(token) });
    },

    async endOthers(userId: string, keepToken: string): Promise<void> {
      await sessions.deleteMany({ userId, _id: { $ne: hashToken(keepToken) } });
    },

    async endAll(userId: string): Promise<void> {
      await sessions.deleteMany({ userId });
    },
  };
}
