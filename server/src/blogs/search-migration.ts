import type { Collections } from "../platform/db/collections.js";
import { rewriteBlogsOnce } from "./rewrite-blogs-once.js";
import { searchFieldsOf } from "./search-terms.js";

/** Set once every stored blog has its search fields; its absence makes the next start look. */
// 2: the consumer search's `textTerms` joined them (text-search.ts); 3: `mediaIds`.
export const SEARCH_FIELDS_MARKER = "blog-search-fields-3";

/**
 * Blogs stored before the admin search existed have no `searchTerms` and `titleKey`
 * (search-terms.ts), and those stored before the consumer search no `textTerms`
 * (text-search.ts), so a search or the title sort would never find them. At start-up, until
 * done once, each blog whose fields are missing or differ from what its title, slug, tags,
 * excerpt, body and cover give gets them. Derived fields only: no new `revision` or `updatedAt` (consumers see nothing,
 * the "recently edited" order does not change).
 *
 * Idempotent and safe with several instances starting at once (rewrite-blogs-once.ts). Runs
 * after the tag rewrite (tag-migration.ts), so it sees tags in normal form. Returns how many
 * blogs were written.
 */
export function fillSearchFields(
  collections: Pick<Collections, "blogs" | "markers">,
): Promise<number> {
  return rewriteBlogsOnce(collections, {
    marker: SEARCH_FIELDS_MARKER,
    fields: [
      "title",
      "slug",
      "tags",
      "excerpt",
      "bodyHtml",
      "coverImageUrl",
      "searchTerms",
      "titleKey",
      "textTerms",
      "mediaIds",
    ],
    rewrite: (doc) => {
      const fields = searchFieldsOf(doc);
      const same =
        doc.titleKey === fields.titleKey &&
        JSON.stringify(doc.searchTerms) === JSON.stringify(fields.searchTerms) &&
        JSON.stringify(doc.textTerms) === JSON.stringify(fields.textTerms) &&
        JSON.stringify(doc.mediaIds) === JSON.stringify(fields.mediaIds);
      return same ? null : { $set: fields };
    },
  });
}
