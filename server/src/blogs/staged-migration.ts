import type { Collections, StagedContent } from "../platform/db/collections.js";
import { blogStaging } from "./blog-staging.js";
import { markDone } from "./rewrite-blogs-once.js";

/** Set once no blog holds its pending changes' content itself; its absence makes a start look. */
export const STAGED_APART_MARKER = "blog-staged-apart-1";

/** A blog as stored before blog-staging.ts: its pending changes' content inside it. */
interface HeldInside {
  _id: string;
  workspaceId: string;
  staged: StagedContent;
}

/**
 * Pending changes saved before their content moved out of the blog (blog-staging.ts) held it in
 * `BlogDoc.staged`. At start-up, until done once, each such blog's content is copied to
 * `blogStaged` and then its `staged` becomes the version alone, a compare-and-set on that version
 * (a blog edited meanwhile is left to the next start). No new `revision`: nobody hears of it.
 * Idempotent and safe with several instances starting at once. Returns how many blogs moved.
 */
export async function moveStagedContentApart(
  collections: Pick<Collections, "blogs" | "blogStaged" | "markers">,
): Promise<number> {
  const { blogs, markers } = collections;
  if ((await markers.countDocuments({ _id: STAGED_APART_MARKER }, { limit: 1 })) > 0) return 0;
  const staging = blogStaging(collections);
  const held = await blogs
    .find<HeldInside>(
      { "staged.bodyMarkdown": { $exists: true } },
      { projection: { _id: 1, workspaceId: 1, staged: 1 } },
    )
    .toArray();
  let moved = 0;
  let complete = true;
  for (const { _id, workspaceId, staged } of held) {
    // The content first, as every staged edit stores it: the blog names it only once it is there.
    await staging.put(workspaceId, _id, staged);
    const { matchedCount } = await blogs.updateOne(
      { _id, "staged.revision": staged.revision, "staged.bodyMarkdown": { $exists: true } },
      { $set: { staged: { revision: staged.revision, updatedAt: staged.updatedAt } } },
    );
    if (matchedCount === 1) moved++;
    else complete = false;
  }
  if (complete) await markDone(markers, STAGED_APART_MARKER);
  return moved;
}
