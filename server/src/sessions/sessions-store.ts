import { createHash, randomBytes } from "node:crypto";
import type { Collections } from "../db/collections.js";

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** Sign-in sessions: a random token in the cookie, only its hash in the database. */
export function sessionsStore({ sessions }: Collections, ttlMs: number) {
  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString("base64url");
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ttlMs);
      await sessions.insertOne({ _id: hashToken(token), userId, createdAt: now, expiresAt });
      return { token, expiresAt };
    },

    /** The user id of a live session, or null; expired sessions are deleted on sight. */
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

    /** Ends every session of the user but the one of `keepToken` (a password change). */
    async endOthers(userId: string, keepToken: string): Promise<void> {
      await sessions.deleteMany({ userId, _id: { $ne: hashToken(keepToken) } });
    },

    /** Ends every session of the user ("sign out everywhere"). */
    async endAll(userId: string): Promise<void> {
      await sessions.deleteMany({ userId });
    },
  };
}

export type SessionsStore = ReturnType<typeof sessionsStore>;
