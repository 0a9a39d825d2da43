import {
  type AdminBlog,
  ApiError,
  api,
  type BlogInput,
  type BlogPatch,
  type BlogRevision,
  type BlogSchedule,
  call,
  type RevisionPage,
  send,
} from "../../api.js";

// The editor's calls to the admin API (admin.yaml, "Blogs"), one function each. Every write
// names the version it was made on (`If-Match`, admin.yaml "Conditional writes"): a blog
// someone else changed meanwhile is refused with 412 and its current version (`staleBlogOf`).

export const loadBlog = (workspaceId: string, blogId: string): Promise<AdminBlog> =>
  call(
    api.GET("/workspaces/{workspaceId}/blogs/{blogId}", {
      params: { path: { workspaceId, blogId } },
    }),
  );

export const createBlog = (workspaceId: string, body: BlogInput): Promise<AdminBlog> =>
  call(api.POST("/workspaces/{workspaceId}/blogs", { params: { path: { workspaceId } }, body }));

/** The `If-Match` of a write made on `blog` as this page last had it: its ETag. */
const onVersion = (blog: AdminBlog) => ({ "If-Match": `"${blog.version}"` });

/** Saves `body` onto `base`, unless the blog is no longer at `base`'s version. */
export const updateBlog = (
  workspaceId: string,
  base: AdminBlog,
  body: BlogPatch,
): Promise<AdminBlog> =>
  call(
    api.PATCH("/workspaces/{workspaceId}/blogs/{blogId}", {
      params: { path: { workspaceId, blogId: base.id }, header: onVersion(base) },
      body,
    }),
  );

/** Release (consumers read it at once) or unrelease (they lose it at once) `base`'s version. */
export function moveBlog(
  workspaceId: string,
  base: AdminBlog,
  to: "release" | "unrelease",
): Promise<AdminBlog> {
  const params = { path: { workspaceId, blogId: base.id }, header: onVersion(base) };
  return call(
    to === "release"
      ? api.POST("/workspaces/{workspaceId}/blogs/{blogId}/release", { params })
      : api.POST("/workspaces/{workspaceId}/blogs/{blogId}/unrelease", { params }),
  );
}

/**
 * Publish (consumers see the pending changes at once) or discard (the blog returns to its
 * released version) a released blog's pending changes, made on `base`'s version.
 */
export function settleChanges(
  workspaceId: string,
  base: AdminBlog,
  how: "publish" | "discard",
): Promise<AdminBlog> {
  const params = { path: { workspaceId, blogId: base.id }, header: onVersion(base) };
  return call(
    how === "publish"
      ? api.POST("/workspaces/{workspaceId}/blogs/{blogId}/publish", { params })
      : api.POST("/workspaces/{workspaceId}/blogs/{blogId}/discard", { params }),
  );
}

/** Removes the blog, if it is still at `base`'s version. */
export const removeBlog = (workspaceId: string, base: AdminBlog): Promise<void> =>
  send(
    api.DELETE("/workspaces/{workspaceId}/blogs/{blogId}", {
      params: { path: { workspaceId, blogId: base.id }, header: onVersion(base) },
    }),
  );

/** Sets, moves or cancels `base`'s scheduled release, publish or unrelease (admin.yaml, "Schedules"). */
export const scheduleBlog = (
  workspaceId: string,
  base: AdminBlog,
  body: BlogSchedule,
): Promise<AdminBlog> =>
  call(
    api.PUT("/workspaces/{workspaceId}/blogs/{blogId}/schedule", {
      params: { path: { workspaceId, blogId: base.id }, header: onVersion(base) },
      body,
    }),
  );

/** One page of the blog's history, newest first (admin.yaml, "History"). */
export const loadRevisions = (
  workspaceId: string,
  blogId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<RevisionPage> =>
  call(
    api.GET("/workspaces/{workspaceId}/blogs/{blogId}/revisions", {
      params: {
        path: { workspaceId, blogId },
        query: { limit: 50, ...(cursor === null ? {} : { cursor }) },
      },
      ...(signal === undefined ? {} : { signal }),
    }),
  );

/** One revision with the content it left. */
export const loadRevision = (
  workspaceId: string,
  blogId: string,
  revisionId: string,
): Promise<BlogRevision> =>
  call(
    api.GET("/workspaces/{workspaceId}/blogs/{blogId}/revisions/{revisionId}", {
      params: { path: { workspaceId, blogId, revisionId } },
    }),
  );

/** Saves a revision's content as a new edit on top of `base` (a released blog's: pending). */
export const restoreRevision = (
  workspaceId: string,
  base: AdminBlog,
  revisionId: string,
): Promise<AdminBlog> =>
  call(
    api.POST("/workspaces/{workspaceId}/blogs/{blogId}/revisions/{revisionId}/restore", {
      params: { path: { workspaceId, blogId: base.id, revisionId }, header: onVersion(base) },
    }),
  );

/** The blog as it is now, when `err` refused a write because it changed meanwhile (412). */
export function staleBlogOf(err: unknown): AdminBlog | null {
  if (!(err instanceof ApiError) || err.status !== 412) return null;
  const { body } = err;
  if (typeof body !== "object" || body === null || !("current" in body)) return null;
  const { current } = body;
  if (typeof current !== "object" || current === null || !("version" in current)) return null;
  // admin.yaml's StaleBlog: `current` is the AdminBlog as stored now.
  return current as AdminBlog;
}
