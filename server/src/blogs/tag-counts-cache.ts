import { LRUCache } from "lru-cache";
import type { TagCount } from "./tag-counts.js";

/**
 * Marked blogs one `/tags` call records at most before it reads the position
 * (change-recorder.ts). Clearing a mark rewrites its blog, about a millisecond each on the
 * embedded database with the app's indexes, and with every blog of a 45,000-blog workspace
 * marked the feed's bound of 500 made the first `/tags` wait 1.24 s (BENCHMARKS.md, "Bulk paths
 * after an import"). `/tags` needs only a position that moved if the counts may have; draining
 * the marks is the feed's work (MAX_RECORDED_PER_CALL a call), so it records fewer.
 */
export const TAGS_RECORDED_PER_CALL = 100;
/** Workspaces whose counts one process keeps (least recently asked dropped first). */
const MAX_WORKSPACES = 1000;

export interface TagCountsCacheDeps {
  /** The counts as stored now (tag-counts.ts): one aggregate over the workspace's released blogs. */
  readonly compute: (workspaceId: string) => Promise<TagCount[]>;
  /**
   * The workspace's changes-feed position after recording its marked blogs, at most
   * TAGS_RECORDED_PER_CALL of them (change-recorder.ts): it moves with every write that changes
   * what a released blog is, tags included. A recording that leaves marks for later appended
   * entries, so the position it returns is a new one: the counts are computed again.
   */
  readonly version: (workspaceId: string) => Promise<number>;
}

/**
 * The tag counts of `GET /tags`, computed once per position of the workspace's changes feed:
 * the counts a fresh computation would give, without one per call.
 */
export type TagCountsCache = (workspaceId: string) => Promise<TagCount[]>;

/**
 * Every write that can change the counts (a release, an unrelease, a removal, an edit of a
 * released blog) marks its blog for the feed in the same update, and the position is read after
 * those marks are recorded; so counts kept for the current position are the counts a fresh
 * aggregate would give, in every instance (the position lives in the database). Computing them
 * reads the tags of every released blog of the workspace, which is what this spares the calls in
 * between.
 */
export function tagCountsCache(deps: TagCountsCacheDeps): TagCountsCache {
  const kept = new LRUCache<string, { version: number; counts: Promise<TagCount[]> }>({
    max: MAX_WORKSPACES,
  });
  return async (workspaceId: string): Promise<TagCount[]> => {
    const version = await deps.version(workspaceId);
    const hit = kept.get(workspaceId);
    if (hit !== undefined && hit.version === version) return hit.counts;
    const counts = deps.compute(workspaceId);
    kept.set(workspaceId, { version, counts });
    // A failed computation is not kept.
    counts.catch(() => {
      if (kept.peek(workspaceId)?.counts === counts) kept.delete(workspaceId);
    });
    return counts;
  };
}
