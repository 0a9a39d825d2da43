import type { Filter } from "mongodb";
import type { BlogDoc, Collections } from "../platform/db/collections.js";
import { compareCodePoints } from "./tag-filter.js";

/** The spec's bound of the list (TagList.data maxItems): the most used tags. */
const MAX_TAGS = 1000;

export interface TagCount {
  readonly tag: string;
  readonly count: number;
}

/** Released blogs read per query while counting. */
const BATCH = 1000;

/** The blogs store's tag counts, as stored now (tag-counts-cache.ts keeps them per change). */
export interface BlogTagCounts {
  /**
   * How many released blogs of a workspace carry each tag (openapi.yaml, listTags): most used
   * first, ties in code point order, the first 1,000.
   */
  tagCounts(workspaceId: string): Promise<TagCount[]>;
}

/**
 * The workspace's released blogs are read in pages of 1,000 along the `released_list` index (the
 * consumer list's keyset walk), only their tags and sort keys, and counted here; a blog's tags
 * are distinct, so a tag's count is its blogs. Drafts, removed blogs and other workspaces are
 * never read. Pages, not one aggregate: the embedded database runs an aggregate's later stages
 * over every matched blog at once in its own memory (hundreds of MB at 50,000 blogs); a page at a
 * time it holds 1,000. The answer is kept per change of the workspace (tag-counts-cache.ts), so
 * this runs once per change.
 */
export function tagCounts({ blogs }: Pick<Collections, "blogs">, batch = BATCH): BlogTagCounts {
  return {
    async tagCounts(workspaceId: string): Promise<TagCount[]> {
      const counts = new Map<string, number>();
      let after: { releasedAt: Date; _id: string } | null = null;
      for (;;) {
        const filter: Filter<BlogDoc> = { workspaceId, status: "released" };
        if (after !== null) {
          filter.$or = [
            { releasedAt: { $lt: after.releasedAt } },
            { releasedAt: after.releasedAt, _id: { $lt: after._id } },
          ];
        }
        const page = await blogs
          .find<Pick<BlogDoc, "_id" | "releasedAt" | "tags">>(filter, {
            projection: { _id: 1, releasedAt: 1, tags: 1 },
          })
          .sort({ releasedAt: -1, _id: -1 })
          .limit(batch)
          .toArray();
        for (const blog of page) {
          for (const tag of blog.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
        }
        const last = page.at(-1);
        if (last === undefined || page.length < batch || last.releasedAt === null) break;
        after = { releasedAt: last.releasedAt, _id: last._id };
      }
      return [...counts]
        .map(([tag, count]) => ({ tag, count }))
        .sort((a, b) => b.count - a.count || compareCodePoints(a.tag, b.tag))
        .slice(0, MAX_TAGS);
    },
  };
}
