import type { Collections } from "../platform/db/collections.js";
import { readingTimeOf } from "./reading-time.js";
import { fillStaged, rewriteBlogsOnce } from "./rewrite-blogs-once.js";

/** Set once every stored blog and pending change has its reading time. */
export const READING_TIME_MARKER = "blog-reading-time-1";

/**
 * Blogs stored before `readingTimeMinutes` existed (openapi.yaml, `Blog.readingTimeMinutes`)
 * get it, derived from their stored `bodyHtml` as a save derives it (reading-time.ts); so do
 * pending changes (`blogStaged`), which publishing makes live. Derived fields only: no new
 * `revision` or `updatedAt`. Idempotent and safe with several instances starting at once: a
 * blog's rewrite is a compare-and-set on its version (rewrite-blogs-once.ts), and pending
 * changes are never edited once stored, so setting what is missing cannot undo anything.
 * Returns how many documents were written.
 */
export async function fillReadingTimes(
  collections: Pick<Collections, "blogs" | "blogStaged" | "markers">,
): Promise<number> {
  const { blogStaged, markers } = collections;
  if ((await markers.countDocuments({ _id: READING_TIME_MARKER }, { limit: 1 })) > 0) return 0;
  let written = await fillStaged(blogStaged, "readingTimeMinutes", ["bodyHtml"], (doc) =>
    readingTimeOf(doc.bodyHtml),
  );
  // The blogs' loop sets the marker, only once every blog's rewrite applied.
  written += await rewriteBlogsOnce(collections, {
    marker: READING_TIME_MARKER,
    fields: ["bodyHtml", "readingTimeMinutes"],
    rewrite: (doc) =>
      doc.readingTimeMinutes === undefined
        ? { $set: { readingTimeMinutes: readingTimeOf(doc.bodyHtml) } }
        : null,
  });
  return written;
}
