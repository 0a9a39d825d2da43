import type { FeedChange } from "../changes/changes-feed.js";
import type { BlogDoc } from "../platform/db/collections.js";
import type { AdminBlog } from "../platform/http/admin-types.js";
import type { Blog, Change } from "../platform/http/consumer-types.js";

/** Stored blog → the spec's `Blog`: explicit fields, ISO strings, no `_id`, nothing extra. */
export function toBlog(doc: BlogDoc): Blog {
  return {
    id: doc._id,
    slug: doc.slug,
    title: doc.title,
    excerpt: doc.excerpt,
    bodyMarkdown: doc.bodyMarkdown,
    bodyHtml: doc.bodyHtml,
    tags: doc.tags,
    authorName: doc.authorName,
    coverImageUrl: doc.coverImageUrl,
    releasedAt: (doc.releasedAt ?? doc.updatedAt).toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/** A change of the feed → the spec's `Change`: the blog as `Blog`, or the id and time of a delete. */
export function toChange(change: FeedChange): Change {
  return change.type === "upsert"
    ? { type: "upsert", blog: toBlog(change.blog) }
    : { type: "delete", id: change.id, at: change.at.toISOString() };
}

/** Stored blog → the admin spec's `AdminBlog`: the consumer shape plus the editor's fields. */
export function toAdminBlog(doc: BlogDoc): AdminBlog {
  return {
    ...toBlog(doc),
    status: doc.status === "released" ? "released" : "draft",
    createdAt: doc.createdAt.toISOString(),
    releasedAt: doc.releasedAt?.toISOString() ?? null,
  };
}

/**
 * What identifies this version of a blog's `toBlog` output: a new `revision` on every write,
 * plus the times (for blogs stored before revisions existed). Never reads the content, so a
 * conditional request can be answered from a projection.
 */
export function validatorOf(
  doc: Pick<BlogDoc, "_id" | "updatedAt" | "releasedAt" | "revision">,
): string {
  return `${doc._id}.${doc.revision ?? ""}.${doc.updatedAt.getTime()}.${doc.releasedAt?.getTime() ?? ""}`;
}
