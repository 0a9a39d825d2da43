import type { Collections } from "../db/collections.js";
import { newRevision } from "./blog-rules.js";
import { normaliseTag } from "./tag-rule.js";

/** Set once every stored blog's tags are in normal form; its absence makes the next start look. */
const BATCH = 500;
export const TAGS_NORMALISED_MARKER = "tags-normal-form-1";
const MARKER = TAGS_NORMALISED_MARKER;

/**
 * Blogs saved before tags had a normal form (blogs/tag-rule.ts) may hold `Release Notes` and
 * `release-notes` side by side, which a consumer's exact `tag=` filter would tell apart. At
 * start-up, until done once, each blog whose tags are not in normal form gets them rewritten:
 * each tag normalised, repeats dropped (the first kept, order kept), and a tag that cannot be
 * normalised (an invisible character, or longer than 40 characters in normal form) dropped.
 * Such a blog gets a new `revision` and `updatedAt`, as any edit does, so consumers' ETags change.
 *
 * Idempotent, and safe with several instances starting at once: a blog's rewrite is a
 * compare-and-set on the version read (as blog-writes.ts does), and the marker is only set
 * when every rewrite applied, so a lost race is looked at again on the next start.
 * Returns how many blogs were rewritten.
 */
export async function normaliseStoredTags({
  blogs,
  markers,
}: Pick<Collections, "blogs" | "markers">): Promise<number> {
  if ((await markers.countDocuments({ _id: MARKER }, { limit: 1 })) > 0) return 0;
  let rewritten = 0;
  let complete = true;
  // In batches by `_id` (an index range each, with a limit): the embedded database decodes a
  // batch at a time, not every blog at once (a single `find({})` held them all in its memory).
  let after = "";
  for (;;) {
    const batch = await blogs
      .find(
        { _id: { $gt: after } },
        { projection: { _id: 1, tags: 1, revision: 1, updatedAt: 1, status: 1 } },
      )
      .sort({ _id: 1 })
      .limit(BATCH)
      .toArray();
    for (const doc of batch) {
      const tags = [
        ...new Set(
          doc.tags.flatMap((raw) => {
            const normal = normaliseTag(raw);
            return normal.ok && normal.tag !== "" ? [normal.tag] : [];
          }),
        ),
      ];
      if (tags.length === doc.tags.length && tags.every((tag, i) => tag === doc.tags[i])) continue;
      const version =
        doc.revision === undefined
          ? { revision: { $exists: false }, updatedAt: doc.updatedAt }
          : { revision: doc.revision };
      const { matchedCount } = await blogs.updateOne(
        { _id: doc._id, ...version },
        {
          $set: {
            tags,
            updatedAt: new Date(),
            revision: newRevision(),
            // A released blog's tags changed: consumers of the changes feed hear of it.
            ...(doc.status === "released" ? { feedPending: true } : {}),
          },
        },
      );
      if (matchedCount === 1) rewritten++;
      else complete = false;
    }
    const last = batch.at(-1);
    if (last === undefined || batch.length < BATCH) break;
    after = last._id;
  }
  if (complete) {
    await markers.updateOne(
      { _id: MARKER },
      { $setOnInsert: { at: new Date() } },
      { upsert: true },
    );
  }
  return rewritten;
}
