/**
 * Personal access tokens (admin.yaml, createAccessToken; README, "Access tokens"): a user's
 * credential for scripts and CI jobs on the admin API. The token (`pr_pat_`, 36 random base62
 * characters and a checksum, keys/key-format.ts) is answered once at creation; only its SHA-256
 * hash is stored, as the `_id`, so each request's lookup reads the primary index. A revoke
 * deletes the document: the token's next request, on any instance, finds nothing.
 */

import { hashKey, isWellFormedSecret, mintSecret, shapeOf } from "../keys/key-format.js";
import type { AccessTokenDoc, Collections } from "../platform/db/collections.js";
import { conflict, invalid, notFound } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";

export const ACCESS_TOKEN_PREFIX = "pr_pat_";
const SHAPE = shapeOf(ACCESS_TOKEN_PREFIX);
/** Tokens one user may hold. */
export const MAX_TOKENS_PER_USER = 50;
export const MIN_TOKEN_LIFETIME_MS = 86_400_000;
export const MAX_TOKEN_LIFETIME_MS = 366 * 86_400_000;
export const TOO_MANY_TOKENS_MESSAGE = `You have ${MAX_TOKENS_PER_USER} access tokens: revoke one first.`;

export const isAccessTokenShaped = (raw: string): boolean =>
  isWellFormedSecret(raw, ACCESS_TOKEN_PREFIX, SHAPE);

/** What a request made with a token may do: whose it is, and its scopes. */
export interface TokenGrant {
  readonly tokenId: string;
  /** Its name, for the audit log's entries of what it did. */
  readonly name: string;
  /** The token's hash, for recording its use. */
  readonly hash: string;
  readonly userId: string;
  readonly scopes: readonly string[];
}

export interface NewAccessToken {
  name: string;
  scopes: readonly string[];
  expiresAt: Date;
}

export interface AccessTokensStore {
  /** A new token; its secret only in the answer. "invalid" for an expiry out of bounds. */
  create(userId: string, input: NewAccessToken): Promise<{ doc: AccessTokenDoc; secret: string }>;
  /** The grant of a live token, or null (malformed, unknown, revoked or expired). */
  authenticate(raw: string): Promise<TokenGrant | null>;
  /** The user's tokens, newest first. */
  list(userId: string): Promise<AccessTokenDoc[]>;
  /** Deletes the user's token; "not_found" when they have none of that id. */
  revoke(userId: string, tokenId: string): Promise<void>;
  /** `lastUsedAt` of each token hash, as batched by a LastUsedRecorder (keys/last-used.ts). */
  recordLastUsed(entries: ReadonlyMap<string, Date>): Promise<void>;
}

export function accessTokensStore(
  { accessTokens }: Collections,
  now: () => number = Date.now,
): AccessTokensStore {
  return {
    async create(userId, input) {
      const at = now();
      const lifetime = input.expiresAt.getTime() - at;
      if (lifetime < MIN_TOKEN_LIFETIME_MS || lifetime > MAX_TOKEN_LIFETIME_MS) {
        throw invalid("expiresAt must be 1 to 366 days in the future.");
      }
      const minted = mintSecret(ACCESS_TOKEN_PREFIX);
      const doc: AccessTokenDoc = {
        _id: minted.hash,
        tokenId: newId("tok"),
        userId,
        name: input.name.trim(),
        prefix: minted.prefix,
        scopes: [...new Set(input.scopes)],
        createdAt: new Date(at),
        expiresAt: input.expiresAt,
        lastUsedAt: null,
      };
      await accessTokens.insertOne(doc);
      // Counted after the insert, so of parallel creates past the bound the last ones see
      // every other's document and take theirs back: never more than the bound are kept.
      if ((await accessTokens.countDocuments({ userId })) > MAX_TOKENS_PER_USER) {
        await accessTokens.deleteOne({ _id: doc._id });
        throw conflict(TOO_MANY_TOKENS_MESSAGE);
      }
      return { doc, secret: minted.raw };
    },

    async authenticate(raw) {
      if (!isAccessTokenShaped(raw)) return null;
      const hash = hashKey(raw);
      const doc = await accessTokens.findOne({ _id: hash });
      if (doc === null || doc.expiresAt.getTime() <= now()) return null;
      return {
        tokenId: doc.tokenId,
        name: doc.name,
        hash,
        userId: doc.userId,
        scopes: doc.scopes,
      };
    },

    list: (userId) => accessTokens.find({ userId }).sort({ createdAt: -1 }).toArray(),

    async revoke(userId, tokenId) {
      const res = await accessTokens.deleteOne({ tokenId, userId });
      if (res.deletedCount !== 1) throw notFound("Access token not found.");
    },

    async recordLastUsed(entries) {
      const ops = [...entries].map(([hash, at]) => ({
        updateOne: { filter: { _id: hash }, update: { $max: { lastUsedAt: at } } },
      }));
      if (ops.length > 0) await accessTokens.bulkWrite(ops, { ordered: false });
    },
  };
}
