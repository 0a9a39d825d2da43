import { LRUCache } from "lru-cache";
import type { Collections, RateLimitSetting } from "../platform/db/collections.js";

export interface WorkspaceLimitsOptions {
  /** How long a workspace's default is kept: a changed default reaches other instances within it. */
  readonly ttlMs?: number;
  /** Most workspaces kept; the least recently used goes first. */
  readonly maxEntries?: number;
  /** The clock, in epoch ms; tests pass their own. */
  readonly now?: () => number;
}

/**
 * Workspaces' default rate limits (`WorkspaceDoc.rateLimit`), cached in this process for a few
 * seconds (default 5 s, at most 10,000 workspaces, least recently used out first), so a key
 * without a limit of its own costs no round trip per request. A changed default therefore
 * applies within `ttlMs` (after the read that fetched the old one) on every instance; a key's
 * own limit is read with the key on every request and applies at once. Concurrent misses share
 * one read, and a failed read is not kept.
 */
export interface WorkspaceLimits {
  /** The workspace's default limit; null when it sets none. */
  defaultOf(workspaceId: string): Promise<RateLimitSetting | null>;
}

export function workspaceLimits(
  { workspaces }: Pick<Collections, "workspaces">,
  options: WorkspaceLimitsOptions = {},
): WorkspaceLimits {
  const now = options.now;
  // lru-cache keeps no null: the setting is boxed.
  const cache = new LRUCache<string, { readonly setting: RateLimitSetting | null }>({
    max: options.maxEntries ?? 10_000,
    ttl: options.ttlMs ?? 5000,
    ...(now === undefined ? {} : { perf: { now } }),
    fetchMethod: async (workspaceId) => {
      const doc = await workspaces.findOne(
        { _id: workspaceId },
        { projection: { _id: 1, rateLimit: 1 } },
      );
      return { setting: doc?.rateLimit ?? null };
    },
  });
  return {
    async defaultOf(workspaceId) {
      return (await cache.fetch(workspaceId))?.setting ?? null;
    },
  };
}
