import type { AuthorDoc } from "../platform/db/collections.js";
import type { Author } from "../platform/http/admin-types.js";

/** A stored author → admin.yaml's `Author`. */
export const toAuthor = (doc: AuthorDoc): Author => ({
  id: doc._id,
  name: doc.name,
  slug: doc.slug,
  bio: doc.bio,
  avatarUrl: doc.avatarUrl,
  websiteUrl: doc.websiteUrl,
  createdAt: doc.createdAt.toISOString(),
  updatedAt: doc.updatedAt.toISOString(),
});
