import { keysetCursor, readTime } from "../platform/cursor.js";
import type {
  BlogRevisionDoc,
  Collections,
  RevisionAction,
  RevisionContent,
} from "../platform/db/collections.js";
import { notFound } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import {
  authorIdsOf,
  PRESENTATION_FIELDS,
  type PresentationField,
  presentationOf,
  sameAuthors,
} from "./blog-rules.js";
import type { EditedBlog } from "./blog-staging.js";

const isPresentationField = (field: string): field is PresentationField =>
  (PRESENTATION_FIELDS as readonly string[]).includes(field);

/** The content fields a revision keeps, in the order the API lists what changed. */
const CONTENT_FIELDS = [
  "title",
  "slug",
  "excerpt",
  "bodyMarkdown",
  "tags",
  "authorName",
  "authorIds",
  "coverImageUrl",
  ...PRESENTATION_FIELDS,
] as const satisfies readonly (keyof RevisionContent)[];

/** A history page's cursor: its last revision's time and id. */
const historyCursor = keysetCursor({ value: readTime, idPattern: /^rev_[A-Za-z0-9]{1,60}$/ });

/** A write of a blog that applied, as its history keeps it. */
export interface AppliedWrite {
  /** The blog before the write; null when it created the blog. */
  readonly before: EditedBlog | null;
  readonly after: EditedBlog;
  readonly action: RevisionAction;
  /** The user who did it; null for the operator's CLI. */
  readonly by: string | null;
  readonly restoredFrom?: string;
  /**
   * When the write read the blog it applied to: a write of a blog applies only to the version
   * it read, so each applied after the one before had read, and these times keep their order
   * however late each is recorded.
   */
  readonly at: Date;
}

export interface HistoryPage {
  /** Newest first, without their content but title and slug. */
  readonly revisions: BlogRevisionDoc[];
  readonly nextCursor: string | null;
}

/**
 * A blog's history (admin.yaml, "History"): a revision per write that applied, in a collection
 * of its own (`blogRevisions`), so that no blog read ever loads it.
 */
export interface BlogHistory {
  /**
   * Keeps a revision of `write` (but of a save that changed no content field), then deletes the
   * blog's oldest beyond the bound. Called after the write applied: a crash in between loses
   * the revision, never the write.
   */
  record(write: AppliedWrite): Promise<void>;
  /** The blog's revisions, newest first; `cursor` is a page's `nextCursor`. */
  page(workspaceId: string, blogId: string, limit: number, cursor?: string): Promise<HistoryPage>;
  /** One revision of the blog, with its content; "not found" when not kept (or another's). */
  get(workspaceId: string, blogId: string, revisionId: string): Promise<BlogRevisionDoc>;
  /** Deletes the blog's history (its removal). */
  forget(workspaceId: string, blogId: string): Promise<void>;
}

/** What the editor shows of `doc`: its pending changes, if any, else its content. */
function workingContent(doc: EditedBlog): RevisionContent {
  const source = doc.pending ?? doc;
  return {
    title: source.title,
    slug: source.slug,
    excerpt: source.excerpt,
    bodyMarkdown: source.bodyMarkdown,
    tags: [...source.tags],
    authorName: source.authorName,
    authorIds: [...authorIdsOf(source)],
    coverImageUrl: source.coverImageUrl,
    ...presentationOf(source),
  };
}

/** The fields of `after` that differ from `before` (all of them after a create). */
function changedFields(
  before: RevisionContent | null,
  after: RevisionContent,
): (keyof RevisionContent)[] {
  if (before === null) return [...CONTENT_FIELDS];
  const [was, is] = [presentationOf(before), presentationOf(after)];
  return CONTENT_FIELDS.filter((field) =>
    field === "tags"
      ? before.tags.join("\n") !== after.tags.join("\n")
      : field === "authorIds"
        ? !sameAuthors(before, after)
        : isPresentationField(field)
          ? was[field] !== is[field]
          : before[field] !== after[field],
  );
}

/**
 * The `blogRevisions` collection: revisions are inserted, never updated, so they need no
 * transaction; a page is one index range of `{workspaceId, blogId, at desc, _id desc}`.
 * `kept`: the newest revisions of each blog that stay (config `BLOG_REVISIONS_KEPT`).
 */
export function blogHistory({ blogRevisions }: Collections, kept: number): BlogHistory {
  return {
    async record({ before, after, action, by, restoredFrom, at }) {
      const { status } = after;
      if (status === "removed") return;
      const content = workingContent(after);
      const changed = changedFields(before === null ? null : workingContent(before), content);
      // A save of what was there already (a draft saved unchanged) is no step of its history.
      if (action === "edited" && changed.length === 0) return;
      const doc: BlogRevisionDoc = {
        _id: `rev_${randomBase62(16)}`,
        workspaceId: after.workspaceId,
        blogId: after._id,
        at,
        by,
        action,
        status,
        pendingChanges: after.staged !== undefined,
        changed,
        ...(restoredFrom === undefined ? {} : { restoredFrom }),
        content,
      };
      await blogRevisions.insertOne(doc);
      // A new blog's history is this one revision, within any bound (`kept` is at least 1):
      // nothing to count or prune, and its creator waits for one round trip less.
      if (before === null) return;
      // The oldest revisions past the bound, if any, go: a count (an index search in SQL on
      // the embedded database) and, only past the bound, a sorted find with a limit. No skip:
      // the embedded database reads every document of the collection for one (its README,
      // "What still falls back to a scan in Go"). Two writers pruning at once delete the same
      // revisions; the bound holds either way.
      const scope = { workspaceId: doc.workspaceId, blogId: doc.blogId };
      const over = (await blogRevisions.countDocuments(scope)) - kept;
      if (over > 0) {
        const oldest = await blogRevisions
          .find(scope, { projection: { _id: 1 } })
          .sort({ at: 1, _id: 1 })
          .limit(over)
          .toArray();
        await blogRevisions.deleteMany({ ...scope, _id: { $in: oldest.map((r) => r._id) } });
      }
    },

    async page(workspaceId, blogId, limit, cursor) {
      const after = cursor === undefined ? null : historyCursor.decode(cursor);
      const filter =
        after === null
          ? { workspaceId, blogId }
          : {
              workspaceId,
              blogId,
              $or: [{ at: { $lt: after.value } }, { at: after.value, _id: { $lt: after.id } }],
            };
      const docs = await blogRevisions
        .find(filter, {
          projection: {
            "content.excerpt": 0,
            "content.bodyMarkdown": 0,
            "content.tags": 0,
            "content.authorName": 0,
            "content.authorIds": 0,
            "content.coverImageUrl": 0,
            ...Object.fromEntries(PRESENTATION_FIELDS.map((field) => [`content.${field}`, 0])),
          },
        })
        .sort({ at: -1, _id: -1 })
        .limit(limit + 1)
        .toArray();
      const revisions = docs.slice(0, limit);
      const last = revisions.at(-1);
      const nextCursor =
        docs.length > limit && last !== undefined
          ? historyCursor.encode({ value: last.at, id: last._id })
          : null;
      return { revisions, nextCursor };
    },

    async get(workspaceId, blogId, revisionId) {
      const doc = await blogRevisions.findOne({ _id: revisionId, workspaceId, blogId });
      if (doc === null) throw notFound("Revision not found.");
      return doc;
    },

    async forget(workspaceId, blogId) {
      await blogRevisions.deleteMany({ workspaceId, blogId });
    },
  };
}
