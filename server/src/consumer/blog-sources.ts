import type {
  BlogLocator,
  BlogPage,
  BlogValidatorFields,
  ConsumerBlogDoc,
} from "../blogs/blog-reads.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import type { ListPosition } from "../blogs/cursor.js";
import type { ProjectedBlogDoc } from "../blogs/field-selection.js";
import type { ListFilter } from "../blogs/list-filter.js";
import type { TagCount } from "../blogs/tag-counts.js";
import type { PreviewReads } from "../preview/preview-reads.js";

/**
 * Where the consumer operations read blogs from: the live perspective (released blogs, the
 * blogs store's projected reads) or the preview perspective (openapi.yaml, "Preview"). The
 * handlers (blog-handlers.ts) are the same for both, so parameters, cursors, `fields`, ETags
 * and errors cannot drift apart between them.
 */
export interface BlogSource {
  /** Joins every ETag's kind: a preview ETag is never a live one. */
  readonly etagKind: string;
  page(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
    filter: ListFilter,
  ): Promise<BlogPage<ConsumerBlogDoc>>;
  /** The same page's validators only (a conditional request's read). */
  pageValidators(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
    filter: ListFilter,
  ): Promise<BlogPage<BlogValidatorFields>>;
  /** The same page with only the validators and `fields`' stored fields. */
  pageProjected(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
    fields: Readonly<Record<string, 1>>,
    filter: ListFilter,
  ): Promise<BlogPage<ProjectedBlogDoc>>;
  get(workspaceId: string, at: BlogLocator): Promise<ConsumerBlogDoc | null>;
  getValidator(workspaceId: string, at: BlogLocator): Promise<BlogValidatorFields | null>;
  getProjected(
    workspaceId: string,
    at: BlogLocator,
    fields: Readonly<Record<string, 1>>,
  ): Promise<ProjectedBlogDoc | null>;
  /** `listTags`' counts. */
  tagCounts(workspaceId: string): Promise<TagCount[]>;
}

/** Released blogs only, each read with just what its answer needs (blog-reads.ts). */
export function liveSource(
  blogs: BlogsStore,
  tagCounts: (workspaceId: string) => Promise<TagCount[]>,
): BlogSource {
  return {
    etagKind: "",
    page: (w, limit, after, filter) => blogs.listReleased(w, limit, after, filter),
    pageValidators: (w, limit, after, filter) =>
      blogs.listReleasedValidators(w, limit, after, filter),
    pageProjected: (w, limit, after, fields, filter) =>
      blogs.listReleasedProjected(w, limit, after, fields, filter),
    get: (w, at) => blogs.getReleased(w, at),
    getValidator: (w, at) => blogs.getReleasedValidator(w, at),
    getProjected: (w, at, fields) => blogs.getReleasedProjected(w, at, fields),
    tagCounts,
  };
}

/**
 * The preview perspective: whole blogs with their pending changes for every read (a preview
 * page is not worth a projection of its own; preview-reads.ts), under ETag kinds of their own.
 */
export function previewSource(reads: PreviewReads): BlogSource {
  return {
    etagKind: "preview;",
    page: reads.page,
    pageValidators: reads.page,
    pageProjected: (w, limit, after, _fields, filter) => reads.page(w, limit, after, filter),
    get: reads.get,
    getValidator: reads.get,
    getProjected: (w, at) => reads.get(w, at),
    tagCounts: reads.tagCounts,
  };
}
