import type { Collections } from "../db/collections.js";
import { compareCodePoints } from "./tag-filter.js";

/** The spec's bound of the list (TagList.data maxItems): the most used tags. */
const MAX_TAGS = 1000;

export interface TagCount {
  readonly tag: string;
  readonly count: number;
}

/**
 * How many released blogs of a workspace carry each tag (openapi.yaml, listTags): most used
 * first, ties in code point order, the first 1,000. One aggregate over the workspace's released blogs (the
 * `released_list` index's prefix); a blog's tags are distinct, so a tag's count is its blogs.
 * Drafts, removed blogs and other workspaces never enter the `$match`.
 */
export function tagCounts({ blogs }: Pick<Collections, "blogs">) {
  return {
    async tagCounts(workspaceId: string): Promise<TagCount[]> {
      const groups = await blogs
        .aggregate<{ _id: string; count: number }>([
          { $match: { workspaceId, status: "released" } },
          // Only the tags go on. Not `_id: 0`: FerretDB 1.24 crashes on `$project` excluding
          // `_id` followed by `$unwind` (the whole embedded database process ends).
          { $project: { tags: 1 } },
          { $unwind: "$tags" },
          { $group: { _id: "$tags", count: { $sum: 1 } } },
        ])
        .toArray();
      return groups
        .map((g) => ({ tag: g._id, count: g.count }))
        .sort((a, b) => b.count - a.count || compareCodePoints(a.tag, b.tag))
        .slice(0, MAX_TAGS);
    },
  };
}
