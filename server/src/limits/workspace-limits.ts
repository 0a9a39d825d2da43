import type { Collections, RateLimitSetting } from "../platform/db/collections.js";

export interface WorkspaceLimitsOptions {
  /** How long a workspace's default is kept: a changed default reaches other instances within it. */
  readonly ttlMs?: number;
  /** Most workspaces kept; the least recently used goes first. */
  readonly maxEntries?: number;
  /** The clock, in epoch ms; tests pass their own. */
  readonly now?: () => number;
}

interface Entry {
  readonly value: Promise<RateLimitSetting | null>;
  readonly until: number;
}

/**
 * Workspaces' default rate limits (`WorkspaceDoc.rateLimit`), cached in this process for a few
 * seconds (default 5 s, at most 10,000 workspaces, least recently used out first), so a key
 * without a limit of its own costs no round trip per request. A changed default therefore
 * applies within `ttlMs` on every instance; a key's own limit is read with the key on every
 * request and applies at once. Concurrent misses share one read.
 */
export function workspaceLimits(
  { workspaces }: Pick<Collections, "workspaces">,
  options: WorkspaceLimitsOptions = {},
) {
  const ttlMs = options.ttlMs ?? 5000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const read = async (workspaceId: string): Promise<RateLimitSetting | null> => {
    const doc = await workspaces.findOne(
      { _id: workspaceId },
      { projection: { _id: 1, rateLimit: 1 } },
    );
    return doc?.rateLimit ?? null;
  };

  return {
    /** The workspace's default limit; null when it sets none. */
    defaultOf(workspaceId: string): Promise<RateLimitSetting | null> {
      const at = now();
      const cached = entries.get(workspaceId);
      if (cached !== undefined && cached.until > at) {
        // Most recently used last: Map keeps insertion order.
        entries.delete(workspaceId);
        entries.set(workspaceId, cached);
        return cached.value;
      }
      const value = read(workspaceId);
      const entry = { value, until: at + ttlMs };
      entries.delete(workspaceId);
      entries.set(workspaceId, entry);
      // A failed read is not kept.
      value.catch(() => {
        if (entries.get(workspaceId) === entry) entries.delete(workspaceId);
      });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
      return value;
    },
  };
}

export type WorkspaceLimits = ReturnType<typeof workspaceLimits>;
