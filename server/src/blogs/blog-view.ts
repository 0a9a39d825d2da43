import type { Blog } from "../api-types.js";
import type { BlogDoc } from "../db/collections.js";

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
