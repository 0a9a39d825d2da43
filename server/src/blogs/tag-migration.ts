import { normaliseTag } from "@pressroom/tag-rule";
import type { Collections } from "../platform/db/collections.js";
import { newRevision } from "./blog-rules.js";
import { previewMarked } from "./preview-mark.js";
import { rewriteBlogsOnce } from "./rewrite-blogs-once.js";
import { searchFieldsOf } from "./search-terms.js";

/** Set once every stored blog's tags are in normal form; its absence makes the next start look. */
export const TAGS_NORMALISED_MARKER = "tags-normal-form-1";

/**
 * Blogs saved before tags had a normal form (@pressroom/tag-rule) may hold `Release Notes` and
 * `release-notes` side by side, which a consumer's exact `tag=` filter would tell apart. At
 * start-up, until done once, each blog whose tags are not in normal form gets them rewritten:
 * each tag normalised, repeats dropped (the first kept, order kept), and a tag that cannot be
 * normalised (an invisible character, or longer than 40 characters in normal form) dropped.
 * Such a blog gets a new `revision` and `updatedAt`, as any edit does, so consumers' ETags change.
 *
 * Idempotent and safe with several instances starting at once (rewrite-blogs-once.ts).
 * Returns how many blogs were rewritten.
 */
export function normaliseStoredTags(
  collections: Pick<Collections, "blogs" | "markers">,
): Promise<number> {
  return rewriteBlogsOnce(collections, {
    marker: TAGS_NORMALISED_MARKER,
    fields: ["tags", "status", "title", "slug", "excerpt", "bodyHtml", "coverImageUrl"],
    rewrite: (doc) => {
      const tags = [
        ...new Set(
          doc.tags.flatMap((raw) => {
            const normal = normaliseTag(raw);
            return normal.ok && normal.tag !== "" ? [normal.tag] : [];
          }),
        ),
      ];
      if (tags.length === doc.tags.length && tags.every((tag, i) => tag === doc.tags[i])) {
        return null;
      }
      return {
        $set: {
          tags,
          // Search follows the tags (search-terms.ts): the search migration may have run
          // already, on another instance or in an earlier start.
          ...searchFieldsOf({ ...doc, tags }),
          updatedAt: new Date(),
          revision: newRevision(),
          // A released blog's tags changed: consumers of the changes feed hear of it.
          ...(doc.status === "released" ? { feedPending: true } : {}),
          ...previewMarked(),
        },
      };
    },
  });
}
