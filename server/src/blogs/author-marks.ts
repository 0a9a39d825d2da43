import type { ChangeLog } from "../changes/change-log.js";
import type { BlogDoc, Collections } from "../platform/db/collections.js";
import { previewMarked } from "./preview-mark.js";

/** Blogs one round reads and marks: every update names at most this many by `_id`. */
export const MARK_BATCH = 500;

export interface AuthorMarkDeps {
  readonly collections: Pick<Collections, "blogs" | "blogStaged">;
  /** The live changes feed's log: entries appended for the released blogs at once. */
  readonly log: Pick<ChangeLog, "appendMany">;
}

/**
 * What an author's edit or removal does to the blogs that name them (openapi.yaml, "Authors"):
 * blogs show their authors as read (blog-authors.ts), so each such blog changed, and both
 * changes feeds must list it again. Called after the author's own write, in rounds of
 * MARK_BATCH blogs by `_id` (no update names more, whatever the author wrote):
 * - released blogs get their `feedPending` mark (so a crash before the next step still gets
 *   them recorded) and an entry in the live log at once, numbered after the author's write: a
 *   recording that read the mark before it was set could clear it (its compare-and-set is on the
 *   blog's revision, which an author's edit leaves), the entry cannot be lost that way. A blog
 *   listed twice is applied twice by a mirror, harmlessly;
 * - drafts, released blogs and blogs whose pending changes name the author get a new preview
 *   mark: a new `previewMark` is the preview recorder's compare-and-set, so no clear loses it.
 * Returns how many blogs it marked.
 */
export async function markBlogsNaming(
  deps: AuthorMarkDeps,
  workspaceId: string,
  authorId: string,
): Promise<number> {
  const { blogs, blogStaged } = deps.collections;
  let marked = 0;
  let after = "";
  for (;;) {
    const batch = await blogs
      .find<Pick<BlogDoc, "_id" | "status">>(
        {
          workspaceId,
          status: { $in: ["draft", "released"] },
          authorIds: authorId,
          _id: { $gt: after },
        },
        { projection: { _id: 1, status: 1 } },
      )
      .sort({ _id: 1 })
      .limit(MARK_BATCH)
      .toArray();
    if (batch.length === 0) break;
    const released = batch.filter((blog) => blog.status === "released").map((blog) => blog._id);
    // By `_id` alone (the IDs were read within the workspace): the primary index finds them. A
    // blog unreleased meanwhile and marked is recorded as the delete it is, once more.
    if (released.length > 0) {
      await blogs.updateMany({ _id: { $in: released } }, { $set: { feedPending: true } });
    }
    await blogs.updateMany(
      { _id: { $in: batch.map((blog) => blog._id) } },
      { $set: previewMarked() },
    );
    if (released.length > 0) {
      await deps.log.appendMany(
        workspaceId,
        released.map((blogId) => ({ blogId })),
      );
    }
    marked += batch.length;
    after = batch.at(-1)?._id ?? after;
    if (batch.length < MARK_BATCH) break;
  }
  // Pending changes that name the author: the workspace's are few (one per blog with changes
  // waiting), read by `blog_staged_slug` and checked here, as the preview's tags read them.
  const staged = await blogStaged
    .find({ workspaceId }, { projection: { blogId: 1, authorIds: 1 } })
    .toArray();
  const ids = [
    ...new Set(staged.filter((doc) => doc.authorIds?.includes(authorId)).map((doc) => doc.blogId)),
  ];
  for (let i = 0; i < ids.length; i += MARK_BATCH) {
    const chunk = ids.slice(i, i + MARK_BATCH);
    await blogs.updateMany({ _id: { $in: chunk } }, { $set: previewMarked() });
    marked += chunk.length;
  }
  return marked;
}
