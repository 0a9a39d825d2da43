import { mediaIdsOf } from "../media/body-images.js";
import type {
  BlogDoc,
  Collections,
  StagedContent,
  StagedContentDoc,
} from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";

/**
 * A blog as editors read it: the stored blog, and the content of its pending changes when it has
 * some (`BlogDoc.staged` names them; admin.yaml, "Staged changes"). `pending` is absent when the
 * blog has none, and also, should its content document be missing, when `staged` names some
 * anyway: the next staged edit, a discard or a publish then puts the blog right.
 */
export type EditedBlog = BlogDoc & { pending?: StagedContent };

/** The `_id` of the content of `blogId`'s pending changes at `revision`. */
export const stagedId = (blogId: string, revision: string): string => `${blogId}:${revision}`;

/**
 * The content of blogs' pending changes, a `blogStaged` document per version (StagedContentDoc):
 * stored apart from the blog, so the blog's row (all that consumers read) stays the size of its
 * live version. The blog's compare-and-set on `staged.revision` stays the one atomic step of a
 * write: a version's content is inserted before any blog names it and deleted only once its
 * blog names another, so a blog never names content that is not there (a crash in between
 * leaves a document no blog names; a removal deletes those).
 */
export interface BlogStaging {
  /** The blogs, each with its pending changes' content. One read for all of them. */
  withPending(docs: readonly BlogDoc[]): Promise<EditedBlog[]>;
  /** Stores `content`, the pending changes `blogId` is about to name. */
  put(workspaceId: string, blogId: string, content: StagedContent): Promise<void>;
  /** Deletes the content of `blogId`'s pending changes at `revision` (no blog names it now). */
  drop(blogId: string, revision: string): Promise<void>;
  /** Deletes every pending change of the blog (its removal). */
  forget(workspaceId: string, blogId: string): Promise<void>;
}

/** Stored document → the pending changes' content (without its keys). */
function contentOf({
  _id: _i,
  workspaceId: _w,
  blogId: _b,
  mediaIds: _m,
  ...content
}: StagedContentDoc) {
  return content;
}

export function blogStaging({ blogStaged }: Pick<Collections, "blogStaged">): BlogStaging {
  return {
    async withPending(docs) {
      const ids = docs.flatMap((d) =>
        d.staged === undefined ? [] : [stagedId(d._id, d.staged.revision)],
      );
      if (ids.length === 0) return [...docs];
      const found = new Map(
        (await blogStaged.find({ _id: { $in: ids } }).toArray()).map((s) => [s._id, s]),
      );
      return docs.map((doc) => {
        const stored =
          doc.staged === undefined ? undefined : found.get(stagedId(doc._id, doc.staged.revision));
        return stored === undefined ? doc : { ...doc, pending: contentOf(stored) };
      });
    },

    async put(workspaceId, blogId, content) {
      try {
        await blogStaged.insertOne({
          ...content,
          _id: stagedId(blogId, content.revision),
          workspaceId,
          blogId,
          mediaIds: mediaIdsOf(content),
        });
      } catch (err) {
        // Revisions are random and new on every edit: the same one twice is a retried insert.
        if (!isDuplicateKey(err)) throw err;
      }
    },

    async drop(blogId, revision) {
      await blogStaged.deleteOne({ _id: stagedId(blogId, revision) });
    },

    async forget(workspaceId, blogId) {
      await blogStaged.deleteMany({ workspaceId, blogId });
    },
  };
}
