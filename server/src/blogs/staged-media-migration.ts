import { mediaIdsOf } from "../media/body-images.js";
import type { Collections } from "../platform/db/collections.js";
import { markDone } from "./rewrite-blogs-once.js";

/** Set once every stored pending change has its `mediaIds`. */
export const STAGED_MEDIA_MARKER = "staged-media-ids-1";

const BATCH = 500;

/**
 * Pending changes (`blogStaged`) stored before `mediaIds` existed get it, derived from their
 * body and cover as `staging.put` derives it (media/body-images.ts), so deleting a library image
 * finds the blogs whose pending changes show it. (The blogs' own come with their search fields,
 * search-migration.ts.) Pending changes are never edited once stored: setting what is missing
 * cannot undo anything, and several instances starting at once write the same. Returns how many
 * documents were written.
 */
export async function fillStagedMediaIds(
  collections: Pick<Collections, "blogStaged" | "markers">,
): Promise<number> {
  const { blogStaged, markers } = collections;
  if ((await markers.countDocuments({ _id: STAGED_MEDIA_MARKER }, { limit: 1 })) > 0) return 0;
  let written = 0;
  let after = "";
  for (;;) {
    const batch = await blogStaged
      .find(
        { _id: { $gt: after } },
        { projection: { _id: 1, bodyHtml: 1, coverImageUrl: 1, mediaIds: 1 } },
      )
      .sort({ _id: 1 })
      .limit(BATCH)
      .toArray();
    for (const doc of batch) {
      if (doc.mediaIds !== undefined) continue;
      const { modifiedCount } = await blogStaged.updateOne(
        { _id: doc._id, mediaIds: { $exists: false } },
        { $set: { mediaIds: mediaIdsOf(doc) } },
      );
      written += modifiedCount;
    }
    const last = batch.at(-1);
    if (last === undefined || batch.length < BATCH) break;
    after = last._id;
  }
  await markDone(markers, STAGED_MEDIA_MARKER);
  return written;
}
