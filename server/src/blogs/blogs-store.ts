import type { Collections } from "../platform/db/collections.js";
import type { BlogHistory, HistoryPage } from "./blog-history.js";
import { type BlogReads, blogReads } from "./blog-reads.js";
import { blogStaging } from "./blog-staging.js";
import { type BlogWriteDeps, type BlogWrites, blogWrites } from "./blog-writes.js";
import { type BlogTagCounts, tagCounts } from "./tag-counts.js";

export type { BlogPage, BlogValidatorFields } from "./blog-reads.js";
export type { BlogFields, NewBlog } from "./blog-rules.js";

/**
 * Blogs of a workspace: writes for the dashboard and operators (blog-writes.ts, by the rules of
 * blog-rules.ts), and the editors' and the consumer API's reads (blog-reads.ts, tag-counts.ts).
 */
export interface BlogsStore extends BlogReads, BlogTagCounts, BlogWrites {
  /** A blog's history, newest first (blog-history.ts); "not found" for a removed blog. */
  revisions(
    workspaceId: string,
    blogId: string,
    limit: number,
    cursor?: string,
  ): Promise<HistoryPage>;
  /** One revision of a blog, with its content (blog-history.ts). */
  revision: BlogHistory["get"];
}

export function blogsStore(
  collections: Collections,
  deps: Omit<BlogWriteDeps, "find" | "staging">,
): BlogsStore {
  const reads = blogReads(collections);
  const writes = blogWrites(collections, {
    ...deps,
    find: reads.get,
    staging: blogStaging(collections),
  });
  return {
    ...reads,
    ...tagCounts(collections),
    ...writes,
    async revisions(workspaceId, blogId, limit, cursor) {
      await reads.mustExist(workspaceId, blogId);
      return deps.history.page(workspaceId, blogId, limit, cursor);
    },
    async revision(workspaceId, blogId, revisionId) {
      await reads.mustExist(workspaceId, blogId);
      return deps.history.get(workspaceId, blogId, revisionId);
    },
  };
}
