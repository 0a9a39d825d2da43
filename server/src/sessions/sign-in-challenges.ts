import { createHash, randomBytes } from "node:crypto";
import type { Collections, UserDoc } from "../platform/db/collections.js";

/** How long a right password waits for its second step. */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;

const hashOf = (challenge: string): string =>
  createHash("sha256").update(challenge, "utf8").digest("hex");

/** A sign-in waiting for its code: whose, and the password generation it was checked at. */
export interface WaitingSignIn {
  readonly hash: string;
  readonly userId: string;
  readonly generation: number;
}

/**
 * Sign-ins whose password was right, waiting for the account's code (admin.yaml, signIn's `202`
 * and signInWithCode). The challenge — 256 random bits, base64url — is given to the browser once
 * and stored only as its SHA-256 hash; it lasts 5 minutes and signs in once.
 */
export interface SignInChallenges {
  /** A new challenge for the account as read when its password was checked. */
  create(user: Pick<UserDoc, "_id" | "passwordGeneration">): Promise<{
    challenge: string;
    expiresAt: Date;
  }>;
  /** The live sign-in of this challenge, or null (unknown, expired, used). */
  find(challenge: string): Promise<WaitingSignIn | null>;
  /** Uses the challenge up; false when another request did first. */
  use(hash: string): Promise<boolean>;
}

export function signInChallenges(
  { signInChallenges: challenges }: Collections,
  now: () => number = Date.now,
): SignInChallenges {
  return {
    async create(user) {
      const challenge = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now() + CHALLENGE_LIFETIME_MS);
      await challenges.insertOne({
        _id: hashOf(challenge),
        userId: user._id,
        generation: user.passwordGeneration ?? 0,
        expiresAt,
      });
      return { challenge, expiresAt };
    },

    async find(challenge) {
      // By `_id` alone, the expiry checked here: with `expiresAt` in the filter, SQLite on the
      // embedded database searched the expiry index (every live challenge) instead of the key
      // (server/embedded-db/app_query_plans_test.go).
      const doc = await challenges.findOne({ _id: hashOf(challenge) });
      if (doc === null || doc.expiresAt.getTime() <= now()) return null;
      return { hash: doc._id, userId: doc.userId, generation: doc.generation };
    },

    async use(hash) {
      const res = await challenges.deleteOne({ _id: hash });
      return res.deletedCount === 1;
    },
  };
}
