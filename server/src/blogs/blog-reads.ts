// Longer than ~250 lines: its interface documents each read.

import type { Filter } from "mongodb";
import type { BlogDoc, Collections } from "../platform/db/collections.js";
import { notFound } from "../platform/domain-error.js";
import { blogStaging, type EditedBlog } from "./blog-staging.js";
import { type BlogViewDoc, VIEW_STORED } from "./blog-view.js";
import type { ListPosition } from "./cursor.js";
import {
  type EditorListQuery,
  type EditorPosition,
  editorCounts,
  editorPage,
} from "./editor-list.js";
import type { ProjectedBlogDoc } from "./field-selection.js";
import { type ListFilter, NO_FILTER, releasedFilter } from "./list-filter.js";
import type { PreviewMarkOf } from "./preview-mark.js";
import type { BlogSearch } from "./search-terms.js";

/** What a consumer ETag is derived from (see blog-view.ts `validatorOf`); never the content. */
export type BlogValidatorFields = Pick<
  BlogDoc,
  "_id" | "updatedAt" | "releasedAt" | "revision" | "authorIds" | "coverImageUrl"
>;
/**
 * With `authorIds` and `coverImageUrl`: the validators of the authors a blog names and of its
 * library cover are part of its ETag too (blog-authors.ts).
 */
const VALIDATOR_PROJECTION = {
  _id: 1,
  updatedAt: 1,
  releasedAt: 1,
  revision: 1,
  authorIds: 1,
  coverImageUrl: 1,
} as const;

/** A released blog's place in the consumer list, its live feed mark and its version. */
export type ReleasedMark = Pick<BlogDoc, "_id" | "releasedAt" | "feedPending" | "revision">;

/** A stored blog as a consumer's whole `Blog` reads it: its view (blog-view.ts) and validator. */
export type ConsumerBlogDoc = BlogViewDoc & BlogValidatorFields;

/**
 * The projection of a whole `Blog`: the stored fields of its view and of its validator, none of
 * the editor's (search terms, title key, outbox, …). Less for the database to decode and send:
 * the embedded one decodes only these fields of each row (server/embedded-db/README.md,
 * "Projections read only their fields").
 */
const VIEW_PROJECTION: Readonly<Record<string, 1>> = {
  ...Object.fromEntries(VIEW_STORED.map((field) => [field, 1] as const)),
  ...VALIDATOR_PROJECTION,
};

/**
 * How a consumer names a blog: by its ID (the primary index) or by its slug (the unique index
 * `workspace_slug`, platform/db/collections.ts). Either way the same checks decide what is returned.
 */
export type BlogLocator = { readonly id: string } | { readonly slug: string };

/**
 * The filter that finds the blog `at` names, before the consumer checks (`releasedIn`). By ID,
 * `_id` alone, so the embedded database (FerretDB) uses its primary index too (MongoDB does the
 * same work either way); by slug, exactly the keys of `workspace_slug`.
 */
const locate = (workspaceId: string, at: BlogLocator): Filter<BlogDoc> =>
  "id" in at ? { _id: at.id } : { workspaceId, slug: at.slug };

/** The consumer API's rule: a released blog of this workspace; drafts, removed, foreign: none. */
const releasedIn = <Doc extends Pick<BlogDoc, "workspaceId" | "status">>(
  workspaceId: string,
  doc: Doc | null,
): Doc | null =>
  doc !== null && doc.workspaceId === workspaceId && doc.status === "released" ? doc : null;

export interface BlogPage<Doc = BlogDoc> {
  blogs: Doc[];
  /** Position after the last blog, or null on the last page. */
  next: ListPosition | null;
}

/** A page of the dashboard's list (editor-list.ts). */
export interface EditorPage {
  /** With their pending changes (blog-staging.ts). */
  blogs: EditedBlog[];
  /** Position after the last blog, or null on the last page. */
  next: EditorPosition | null;
}

/** How many blogs each of the dashboard list's status filters shows. */
export interface EditorCounts {
  all: number;
  draft: number;
  released: number;
}

/**
 * Reading the blogs of a workspace: the editors' (every state but removed) and the consumer
 * API's (released only, and only the workspace's own: anything else is as if it did not exist).
 */
export interface BlogReads {
  /**
   * A blog of this workspace in any state but removed, with its pending changes (blog-staging.ts);
   * "not found" otherwise.
   */
  get(workspaceId: string, blogId: string): Promise<EditedBlog>;
  /**
   * "not found" unless the workspace has this blog in any state but removed: `get`'s check
   * alone, reading only the blog's `_id` (no content, no pending changes).
   */
  mustExist(workspaceId: string, blogId: string): Promise<void>;
  /** Every blog of the workspace, removed ones included, newest created first. */
  listAll(workspaceId: string): Promise<BlogDoc[]>;
  /**
   * The dashboard's list: drafts and released blogs (or one state), in `query`'s order and
   * search (editor-list.ts).
   */
  listForEditors(
    workspaceId: string,
    query: EditorListQuery,
    limit: number,
    after: EditorPosition | null,
  ): Promise<EditorPage>;
  /** How many blogs each of the list's status filters shows, for the same search. */
  countForEditors(workspaceId: string, search: BlogSearch | null): Promise<EditorCounts>;
  /**
   * The consumer list: released blogs, newest release first (keyset on releasedAt, _id); with
   * a filter (list-filter.ts), those that pass it, in the same order.
   */
  listReleased(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
    filter?: ListFilter,
  ): Promise<BlogPage<ConsumerBlogDoc>>;
  /**
   * The same walk as the unfiltered `listReleased`, reading only each blog's place in it, its
   * `feedPending` mark and its `revision`: what the changes feed's walk checks before it reads
   * content (changes/walk-skips.ts).
   */
  listReleasedMarks(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
  ): Promise<BlogPage<ReleasedMark>>;
  /** The same page as `listReleased`, with only the fields of its validator: no content. */
  listReleasedValidators(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
    filter?: ListFilter,
  ): Promise<BlogPage<BlogValidatorFields>>;
  /**
   * The same page as `listReleased`, reading only the validator fields and `fields` (the stored
   * fields a `fields` selection is made of, field-selection.ts): `fields=id,slug,title` reads no
   * bodies. Same filter, sort and index as `listReleased`; only the projection differs.
   */
  listReleasedProjected(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
    fields: Readonly<Record<string, 1>>,
    filter?: ListFilter,
  ): Promise<BlogPage<ProjectedBlogDoc>>;
  /**
   * Blogs whose `feedPending` mark is set, the first `limit` by `_id` (`order` 1) or the last
   * (-1) (index `feed_pending`): only what the changes feed needs to record them and to clear
   * the mark.
   */
  listFeedPending(
    workspaceId: string,
    limit: number,
    order: 1 | -1,
  ): Promise<Pick<BlogDoc, "_id" | "updatedAt" | "revision">[]>;
  /**
   * Blogs whose `previewPending` mark is set, the first `limit` by `_id` (`order` 1) or the last
   * (-1) (index `preview_pending`): what the preview feed records, and their marks.
   */
  listPreviewPending(workspaceId: string, limit: number, order: 1 | -1): Promise<PreviewMarkOf[]>;
  /** These blogs of this workspace, in any state, as stored (the preview feed's reads). */
  getMany(workspaceId: string, ids: readonly string[]): Promise<BlogDoc[]>;
  /**
   * These blogs of this workspace, in any state, with what the live changes feed reads of them:
   * a released blog's whole `Blog`, and when another one left the released set. Not the search
   * terms, which a blog carries by the hundred and which cost the embedded database as much to
   * decode as the rest of the blog (server/embedded-db/README.md, "Search pages").
   */
  getManyViews(
    workspaceId: string,
    ids: readonly string[],
  ): Promise<(ConsumerBlogDoc & Pick<BlogDoc, "workspaceId" | "status" | "removedAt">)[]>;
  /**
   * A released blog of this workspace, found by ID or slug, or null: drafts, removed and
   * foreign blogs alike.
   */
  getReleased(workspaceId: string, at: BlogLocator): Promise<ConsumerBlogDoc | null>;
  /** `getReleased` with only the fields of the blog's validator: no content. */
  getReleasedValidator(workspaceId: string, at: BlogLocator): Promise<BlogValidatorFields | null>;
  /** `getReleased` reading only the validator fields and `fields` (as `listReleasedProjected`). */
  getReleasedProjected(
    workspaceId: string,
    at: BlogLocator,
    fields: Readonly<Record<string, 1>>,
  ): Promise<ProjectedBlogDoc | null>;
}

export function blogReads(collections: Pick<Collections, "blogs" | "blogStaged">): BlogReads {
  const { blogs } = collections;
  const staging = blogStaging(collections);
  const get = async (workspaceId: string, blogId: string): Promise<EditedBlog> => {
    const doc = await blogs.findOne({ _id: blogId, workspaceId, status: { $ne: "removed" } });
    if (doc === null) throw notFound("Blog not found.");
    const [edited] = await staging.withPending([doc]);
    return edited ?? doc;
  };

  /** Keyset pagination on (field desc, _id desc): no skip, no shifting while others change. */
  const page = async <Doc extends Pick<BlogDoc, "_id" | "releasedAt" | "createdAt"> = BlogDoc>(
    filter: Filter<BlogDoc> | null,
    field: "releasedAt" | "createdAt",
    limit: number,
    after: ListPosition | null,
    projection?: Record<string, 1>,
  ): Promise<BlogPage<Doc>> => {
    // A filter that can match nothing (list-filter.ts `releasedFilter`): no query.
    if (filter === null) return { blogs: [], next: null };
    const query: Filter<BlogDoc> = { ...filter };
    if (after !== null) {
      query.$or = [{ [field]: { $lt: after.at } }, { [field]: after.at, _id: { $lt: after.id } }];
    }
    const docs = await blogs
      .find<Doc>(query, projection === undefined ? {} : { projection })
      .sort({ [field]: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    const pageDocs = docs.slice(0, limit);
    const last = pageDocs.at(-1);
    const at = last?.[field];
    const next = docs.length > limit && last !== undefined && at ? { at, id: last._id } : null;
    return { blogs: pageDocs, next };
  };

  /** These blogs by `_id` (the primary index), those of this workspace kept. */
  const many = async <Doc extends Pick<BlogDoc, "workspaceId">>(
    workspaceId: string,
    ids: readonly string[],
    projection?: Record<string, 1>,
  ): Promise<Doc[]> => {
    if (ids.length === 0) return [];
    const docs = await blogs
      .find<Doc>({ _id: { $in: [...ids] } }, projection === undefined ? {} : { projection })
      .toArray();
    return docs.filter((doc) => doc.workspaceId === workspaceId);
  };

  return {
    get,

    async mustExist(workspaceId: string, blogId: string): Promise<void> {
      const doc = await blogs.findOne(
        { _id: blogId, workspaceId, status: { $ne: "removed" } },
        { projection: { _id: 1 } },
      );
      if (doc === null) throw notFound("Blog not found.");
    },

    async listAll(workspaceId: string): Promise<BlogDoc[]> {
      return blogs.find({ workspaceId }).sort({ createdAt: -1, _id: -1 }).toArray();
    },

    async listForEditors(
      workspaceId: string,
      query: EditorListQuery,
      limit: number,
      after: EditorPosition | null,
    ): Promise<EditorPage> {
      const page = await editorPage(blogs, workspaceId, query, limit, after);
      return { blogs: await staging.withPending(page.blogs), next: page.next };
    },

    countForEditors(workspaceId: string, search: BlogSearch | null): Promise<EditorCounts> {
      return editorCounts(blogs, workspaceId, search);
    },

    listReleased(
      workspaceId: string,
      limit: number,
      after: ListPosition | null,
      filter: ListFilter = NO_FILTER,
    ): Promise<BlogPage<ConsumerBlogDoc>> {
      return page<ConsumerBlogDoc & Pick<BlogDoc, "createdAt">>(
        releasedFilter(workspaceId, filter),
        "releasedAt",
        limit,
        after,
        VIEW_PROJECTION,
      );
    },

    listReleasedMarks(
      workspaceId: string,
      limit: number,
      after: ListPosition | null,
    ): Promise<BlogPage<ReleasedMark>> {
      return page<ReleasedMark & Pick<BlogDoc, "createdAt">>(
        releasedFilter(workspaceId, NO_FILTER),
        "releasedAt",
        limit,
        after,
        { _id: 1, releasedAt: 1, feedPending: 1, revision: 1 },
      );
    },

    listReleasedValidators(
      workspaceId: string,
      limit: number,
      after: ListPosition | null,
      filter: ListFilter = NO_FILTER,
    ): Promise<BlogPage<BlogValidatorFields>> {
      return page<BlogValidatorFields & Pick<BlogDoc, "createdAt">>(
        releasedFilter(workspaceId, filter),
        "releasedAt",
        limit,
        after,
        VALIDATOR_PROJECTION,
      );
    },

    listReleasedProjected(
      workspaceId: string,
      limit: number,
      after: ListPosition | null,
      fields: Readonly<Record<string, 1>>,
      filter: ListFilter = NO_FILTER,
    ): Promise<BlogPage<ProjectedBlogDoc>> {
      return page<ProjectedBlogDoc & Pick<BlogDoc, "createdAt">>(
        releasedFilter(workspaceId, filter),
        "releasedAt",
        limit,
        after,
        { ...VALIDATOR_PROJECTION, ...fields },
      );
    },

    listFeedPending(
      workspaceId: string,
      limit: number,
      order: 1 | -1,
    ): Promise<Pick<BlogDoc, "_id" | "updatedAt" | "revision">[]> {
      return blogs
        .find<Pick<BlogDoc, "_id" | "updatedAt" | "revision">>(
          { workspaceId, feedPending: true },
          { projection: { _id: 1, updatedAt: 1, revision: 1 } },
        )
        .sort({ _id: order })
        .limit(limit)
        .toArray();
    },

    listPreviewPending(
      workspaceId: string,
      limit: number,
      order: 1 | -1,
    ): Promise<PreviewMarkOf[]> {
      return blogs
        .find<PreviewMarkOf>(
          { workspaceId, previewPending: true },
          { projection: { _id: 1, previewMark: 1 } },
        )
        .sort({ _id: order })
        .limit(limit)
        .toArray();
    },

    getMany: (workspaceId: string, ids: readonly string[]) => many<BlogDoc>(workspaceId, ids),

    getManyViews: (workspaceId: string, ids: readonly string[]) =>
      many<ConsumerBlogDoc & Pick<BlogDoc, "workspaceId" | "status" | "removedAt">>(
        workspaceId,
        ids,
        { ...VIEW_PROJECTION, workspaceId: 1, status: 1, removedAt: 1 },
      ),

    async getReleased(workspaceId: string, at: BlogLocator): Promise<ConsumerBlogDoc | null> {
      const doc = await blogs.findOne<ConsumerBlogDoc & Pick<BlogDoc, "workspaceId" | "status">>(
        locate(workspaceId, at),
        { projection: { ...VIEW_PROJECTION, workspaceId: 1, status: 1 } },
      );
      return releasedIn(workspaceId, doc);
    },

    async getReleasedValidator(
      workspaceId: string,
      at: BlogLocator,
    ): Promise<BlogValidatorFields | null> {
      const doc = await blogs.findOne<
        BlogValidatorFields & Pick<BlogDoc, "workspaceId" | "status">
      >(locate(workspaceId, at), {
        projection: { ...VALIDATOR_PROJECTION, workspaceId: 1, status: 1 },
      });
      return releasedIn(workspaceId, doc);
    },

    async getReleasedProjected(
      workspaceId: string,
      at: BlogLocator,
      fields: Readonly<Record<string, 1>>,
    ): Promise<ProjectedBlogDoc | null> {
      const doc = await blogs.findOne<ProjectedBlogDoc & Pick<BlogDoc, "workspaceId" | "status">>(
        locate(workspaceId, at),
        { projection: { ...VALIDATOR_PROJECTION, ...fields, workspaceId: 1, status: 1 } },
      );
      return releasedIn(workspaceId, doc);
    },
  };
}
