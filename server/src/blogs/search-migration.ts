import type { Collections } from "../db/collections.js";
import { versionFilter } from "./blog-rules.js";
import { searchFieldsOf } from "./search-terms.js";

const BATCH = 500;
/** Set once every stored blog has its search fields; its absence makes the next start look. */
export const SEARCH_FIELDS_MARKER = "blog-search-fields-1";

/**
 * Blogs stored before the admin search existed have no `searchTerms` and `titleKey`
 * (search-terms.ts), so a search or the title sort would never find them. At start-up, until
 * done once, each blog whose fields are missing or differ from what its title, slug and tags
 * give gets them. Derived fields only: no new `revision` or `updatedAt` (consumers see nothing,
 * the "recently edited" order does not change).
 *
 * Idempotent and safe with several instances starting at once: each write is a compare-and-set
 * on the version read (a blog edited meanwhile got its fields from that edit), and the marker is
 * set only when every write applied. Runs after the tag rewrite (tag-migration.ts), so it sees
 * tags in normal form. Returns how many blogs were written.
 */
export async function fillSearchFields({
  blogs,
  markers,
}: Pick<Collections, "blogs" | "markers">): Promise<number> {
  if ((await markers.countDocuments({ _id: SEARCH_FIELDS_MARKER }, { limit: 1 })) > 0) return 0;
  let written = 0;
  let complete = true;
  // In batches by `_id` (an index range each): never every blog in memory at once.
  let after = "";
  for (;;) {
    const batch = await blogs
      .find(
        { _id: { $gt: after } },
        {
          projection: {
            _id: 1,
            title: 1,
            slug: 1,
            tags: 1,
            revision: 1,
            updatedAt: 1,
            searchTerms: 1,
            titleKey: 1,
          },
        },
      )
      .sort({ _id: 1 })
      .limit(BATCH)
      .toArray();
    for (const doc of batch) {
      const fields = searchFieldsOf(doc);
      if (
        doc.titleKey === fields.titleKey &&
        JSON.stringify(doc.searchTerms) === JSON.stringify(fields.searchTerms)
      ) {
        continue;
      }
      const { matchedCount } = await blogs.updateOne(
        { _id: doc._id, ...versionFilter(doc) },
        { $set: fields },
      );
      if (matchedCount === 1) written++;
      else complete = false;
    }
    const last = batch.at(-1);
    if (last === undefined || batch.length < BATCH) break;
    after = last._id;
  }
  if (complete) {
    await markers.updateOne(
      { _id: SEARCH_FIELDS_MARKER },
      { $setOnInsert: { at: new Date() } },
      { upsert: true },
    );
  }
  return written;
}
