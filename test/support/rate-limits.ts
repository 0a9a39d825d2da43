import type { Db } from "mongodb";
import type { RateLimitSetting } from "../../server/src/platform/db/collections.js";
import { collections } from "../../server/src/platform/db/collections.js";

/**
 * Sets a key's own rate limit (`ApiKeyDoc.rateLimit`) by writing its document, as the admin
 * API's key settings do; a key's own limit applies from its next request.
 */
export async function setKeyRateLimit(
  db: Db,
  keyId: string,
  rateLimit: RateLimitSetting | null,
): Promise<void> {
  await collections(db).apiKeys.updateOne({ keyId }, { $set: { rateLimit } });
}

/** Sets a workspace's default limit (`WorkspaceDoc.rateLimit`); instances see it within 5 s. */
export async function setWorkspaceRateLimit(
  db: Db,
  workspaceId: string,
  rateLimit: RateLimitSetting | null,
): Promise<void> {
  await collections(db).workspaces.updateOne({ _id: workspaceId }, { $set: { rateLimit } });
}

/**
 * A limit no suite reaches: for the suites that fire thousands of requests a minute with one
 * key (property tests, contract runs), so the production default (1,200 per 60 s) stays on in
 * their servers while their keys are not throttled.
 */
export const UNTHROTTLED: RateLimitSetting = { requests: 1_000_000, windowSeconds: 60 };

/** Gives a key a limit no suite reaches (`UNTHROTTLED`). */
export const unthrottle = (db: Db, keyId: string): Promise<void> =>
  setKeyRateLimit(db, keyId, UNTHROTTLED);
