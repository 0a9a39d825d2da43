import { mediaIdsOf } from "../media/body-images.js";
import type { Collections } from "../platform/db/collections.js";
import { fillStaged, markDone } from "./rewrite-blogs-once.js";

/** Set once every stored pending change has its `mediaIds`. */
export const STAGED_MEDIA_MARKER = "staged-media-ids-1";

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
  const written = await fillStaged(
    blogStaged,
    "mediaIds",
    ["bodyHtml", "coverImageUrl"],
    mediaIdsOf,
  );
  await markDone(markers, STAGED_MEDIA_MARKER);
  return written;
}
