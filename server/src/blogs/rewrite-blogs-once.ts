import type { Filter, MatchKeysAndValues, UpdateFilter, WithId } from "mongodb";
import type { BlogDoc, Collections, StagedContentDoc } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { versionFilter } from "./blog-rules.js";

const BATCH = 500;

export interface BlogRewrite {
  /** The `markers` document set once every blog's rewrite applied; while present, nothing runs. */
  marker: string;
  /** The fields `rewrite` reads (`_id`, `revision` and `updatedAt` are always read). */
  fields: readonly (keyof BlogDoc)[];
  /** The update a blog needs, or null when it is already as it should be. */
  rewrite: (doc: WithId<BlogDoc>) => UpdateFilter<BlogDoc> | null;
}

/**
 * A start-up migration's loop: every stored blog looked at once, and rewritten when `rewrite`
 * says so, until done (the marker). In batches by `_id` (an index range each, with a limit): the
 * embedded database decodes a batch at a time, not every blog at once (a single `find({})` held
 * them all in its memory).
 *
 * Idempotent, and safe with several instances starting at once: a blog's rewrite is a
 * compare-and-set on the version read (as blog-writes.ts does; a blog edited meanwhile is not
 * touched), and the marker is only set when every rewrite applied, so a lost race is looked at
 * again on the next start. Returns how many blogs were rewritten.
 */
export async function rewriteBlogsOnce(
  { blogs, markers }: Pick<Collections, "blogs" | "markers">,
  { marker, fields, rewrite }: BlogRewrite,
): Promise<number> {
  if ((await markers.countDocuments({ _id: marker }, { limit: 1 })) > 0) return 0;
  const projection = Object.fromEntries(
    ["_id", "revision", "updatedAt", ...fields].map((field) => [field, 1]),
  );
  let rewritten = 0;
  let complete = true;
  let after = "";
  for (;;) {
    const batch = await blogs
      .find({ _id: { $gt: after } }, { projection })
      .sort({ _id: 1 })
      .limit(BATCH)
      .toArray();
    for (const doc of batch) {
      const update = rewrite(doc);
      if (update === null) continue;
      const { matchedCount } = await blogs.updateOne(
        { _id: doc._id, ...versionFilter(doc) },
        update,
      );
      if (matchedCount === 1) rewritten++;
      else complete = false;
    }
    const last = batch.at(-1);
    if (last === undefined || batch.length < BATCH) break;
    after = last._id;
  }
  if (complete) await markDone(markers, marker);
  return rewritten;
}

/** The fields of pending changes that start-up migrations derive from what is stored. */
type StagedDerived = "readingTimeMinutes" | "mediaIds";

/**
 * A start-up migration's loop over pending changes (`blogStaged`): each one without `field` gets
 * it, `derive`d from the fields it `reads`, in batches by `_id` as above. Pending changes are
 * never edited once stored, so setting what is missing (only while it still is) cannot undo
 * anything, and several instances starting at once write the same. Sets no marker: the caller's
 * migration does, when all of it is done. Returns how many pending changes were written.
 */
export async function fillStaged<F extends StagedDerived>(
  blogStaged: Collections["blogStaged"],
  field: F,
  reads: readonly (keyof StagedContentDoc)[],
  derive: (doc: WithId<StagedContentDoc>) => NonNullable<StagedContentDoc[F]>,
): Promise<number> {
  const projection = Object.fromEntries(["_id", field, ...reads].map((name) => [name, 1]));
  let written = 0;
  let after = "";
  for (;;) {
    const batch = await blogStaged
      .find({ _id: { $gt: after } }, { projection })
      .sort({ _id: 1 })
      .limit(BATCH)
      .toArray();
    for (const doc of batch) {
      if (doc[field] !== undefined) continue;
      const stillMissing: Filter<StagedContentDoc> = { _id: doc._id, [field]: { $exists: false } };
      const derived: MatchKeysAndValues<StagedContentDoc> = { [field]: derive(doc) };
      const { modifiedCount } = await blogStaged.updateOne(stillMissing, { $set: derived });
      written += modifiedCount;
    }
    const last = batch.at(-1);
    if (last === undefined || batch.length < BATCH) break;
    after = last._id;
  }
  return written;
}

/** Sets a start-up migration's `marker`: done, never looked at again. */
export async function markDone(markers: Collections["markers"], marker: string): Promise<void> {
  try {
    await markers.updateOne(
      { _id: marker },
      { $setOnInsert: { at: new Date() } },
      { upsert: true },
    );
  } catch (err) {
    // Another instance starting at once set it first: FerretDB (and MongoDB before 4.2) do not
    // retry a racing upsert on its duplicate key. The marker is there, which is what counts.
    if (!isDuplicateKey(err)) throw err;
  }
}
