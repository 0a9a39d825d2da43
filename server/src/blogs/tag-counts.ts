import type { Filter } from "mongodb";
import type { BlogDoc, Collections } from "../platform/db/collections.js";
import { compareCodePoints } from "./tag-filter.js";

/** The spec's bound of the list (TagList.data maxItems): the most used tags. */
const MAX_TAGS = 1000;

export interface TagCount {
  readonly tag: string;
  readonly count: number;
}

/** The blogs store's tag counts, as stored now (tag-counts-cache.ts keeps them per change). */
export interface BlogTagCounts {
  /**
   * How many released blogs of a workspace carry each tag (openapi.yaml, listTags): most used
   * first, ties in code point order, the first 1,000.
   */
  tagCounts(workspaceId: string): Promise<TagCount[]>;
}

/**
 * One aggregate: the workspace's released blogs (the `released_list` index's prefix), their tags
 * unwound and grouped, so that only one count per tag leaves the database. A blog's tags are
 * distinct, so a tag's count is its blogs. Drafts, removed blogs and other workspaces are never
 * read. MongoDB runs it server-side; the embedded database answers exactly this shape with one
 * SQL `GROUP BY` over the blogs' stored tags (server/embedded-db/README.md, "Counts of a field's
 * values"), never holding the blogs in its memory. The answer is kept per change of the workspace
 * (tag-counts-cache.ts), so this runs once per change.
 */
export function tagCounts({ blogs }: Pick<Collections, "blogs">): BlogTagCounts {
  return {
    async tagCounts(workspaceId: string): Promise<TagCount[]> {
      const match: Filter<BlogDoc> = { workspaceId, status: "released" };
      const groups = await blogs
        .aggregate<{ _id: string; count: number }>([
          { $match: match },
          { $project: { tags: 1 } },
          { $unwind: "$tags" },
          { $group: { _id: "$tags", count: { $sum: 1 } } },
        ])
        .toArray();
      return groups
        .map(({ _id, count }) => ({ tag: _id, count }))
        .sort((a, b) => b.count - a.count || compareCodePoints(a.tag, b.tag))
        .slice(0, MAX_TAGS);
    },
  };
}
