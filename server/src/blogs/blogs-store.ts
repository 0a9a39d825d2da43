import type { AuditLog } from "../audit/audit-log.js";
import type { Collections } from "../platform/db/collections.js";
import { type BlogReads, blogReads } from "./blog-reads.js";
import { type BlogWrites, blogWrites } from "./blog-writes.js";
import type { BodyRenderer } from "./render-pool.js";
import { type BlogTagCounts, tagCounts } from "./tag-counts.js";

export type { BlogPage, BlogValidatorFields } from "./blog-reads.js";
export type { BlogFields, NewBlog } from "./blog-rules.js";

/**
 * Blogs of a workspace: writes for the dashboard and operators (blog-writes.ts, by the rules of
 * blog-rules.ts), and the editors' and the consumer API's reads (blog-reads.ts, tag-counts.ts).
 */
export interface BlogsStore extends BlogReads, BlogTagCounts, BlogWrites {}

export function blogsStore(
  collections: Collections,
  renderer: BodyRenderer,
  /** Told after a write that queued a webhook event (the outbox relay's nudge). */
  onOutboxEvent?: (blogId: string) => void,
  /** Where state changes are recorded (blog-writes.ts, `Actor`). */
  audit?: AuditLog,
): BlogsStore {
  const reads = blogReads(collections);
  const writes = blogWrites(collections, renderer, reads.get, onOutboxEvent, audit);
  return { ...reads, ...tagCounts(collections), ...writes };
}
