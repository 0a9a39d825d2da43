/**
 * Which blogs show a library image (admin.yaml `deleteMedia`'s `409`): those whose live version
 * shows it (`BlogDoc.mediaIds`, index `blog_media`) and those whose pending changes do
 * (`StagedContentDoc.mediaIds`, index `staged_media`), removed blogs left out. Two index
 * look-ups and one read of the blogs found by `_id`.
 */
import { stagedId } from "../blogs/blog-staging.js";
import type { BlogDoc, Collections } from "../platform/db/collections.js";

/** How many of the blogs showing an image an answer names. */
export const NAMED_USERS = 20;
/** At most this many of each kind are looked at: `total` is exact below it. */
const LOOKED_AT = 1000;

export type MediaUserDoc = Pick<BlogDoc, "_id" | "title" | "slug" | "status">;

export interface MediaUsers {
  readonly total: number;
  /** Up to `NAMED_USERS`, released first, then by title. */
  readonly blogs: readonly MediaUserDoc[];
}

const USER_FIELDS = { _id: 1, title: 1, slug: 1, status: 1 } as const;

const order = (a: MediaUserDoc, b: MediaUserDoc): number =>
  (a.status === "released" ? 0 : 1) - (b.status === "released" ? 0 : 1) ||
  a.title.localeCompare(b.title) ||
  (a._id < b._id ? -1 : 1);

export async function blogsShowing(
  c: Pick<Collections, "blogs" | "blogStaged">,
  workspaceId: string,
  mediaId: string,
): Promise<MediaUsers> {
  const [live, pending] = await Promise.all([
    c.blogs
      .find({ workspaceId, mediaIds: mediaId }, { projection: USER_FIELDS })
      .limit(LOOKED_AT)
      .toArray(),
    c.blogStaged
      .find({ workspaceId, mediaIds: mediaId }, { projection: { _id: 1, blogId: 1 } })
      .limit(LOOKED_AT)
      .toArray(),
  ]);
  const byId = new Map<string, MediaUserDoc>();
  for (const doc of live) if (doc.status !== "removed") byId.set(doc._id, doc);
  const pendingOf = new Map(pending.map((doc) => [doc.blogId, doc._id]));
  const unread = [...pendingOf.keys()].filter((blogId) => !byId.has(blogId));
  if (unread.length > 0) {
    // By `_id` alone, the workspace checked here: with `workspaceId` in the filter the embedded
    // database walked the workspace's blogs (its longest index on it) instead of the IDs, as
    // body-image-sizes.ts found for images.
    const blogs = await c.blogs
      .find<MediaUserDoc & Pick<BlogDoc, "workspaceId" | "staged">>(
        { _id: { $in: unread } },
        { projection: { ...USER_FIELDS, workspaceId: 1, staged: 1 } },
      )
      .toArray();
    for (const { staged, workspaceId: of, ...doc } of blogs) {
      if (of !== workspaceId) continue;
      // Only the pending changes the blog names now: older ones are deleted after it moves on.
      const current =
        staged !== undefined && pendingOf.get(doc._id) === stagedId(doc._id, staged.revision);
      if (current && doc.status !== "removed") byId.set(doc._id, doc);
    }
  }
  const users = [...byId.values()].sort(order);
  return { total: users.length, blogs: users.slice(0, NAMED_USERS) };
}
