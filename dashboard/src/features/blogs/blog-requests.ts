import { type AdminBlog, api, type BlogInput, type BlogPatch, call, send } from "../../api.js";

// The editor's calls to the admin API (admin.yaml, "Blogs"), one function each.

export const loadBlog = (workspaceId: string, blogId: string): Promise<AdminBlog> =>
  call(
    api.GET("/workspaces/{workspaceId}/blogs/{blogId}", {
      params: { path: { workspaceId, blogId } },
    }),
  );

export const createBlog = (workspaceId: string, body: BlogInput): Promise<AdminBlog> =>
  call(api.POST("/workspaces/{workspaceId}/blogs", { params: { path: { workspaceId } }, body }));

export const updateBlog = (
  workspaceId: string,
  blogId: string,
  body: BlogPatch,
): Promise<AdminBlog> =>
  call(
    api.PATCH("/workspaces/{workspaceId}/blogs/{blogId}", {
      params: { path: { workspaceId, blogId } },
      body,
    }),
  );

/** Release (consumers read it at once) or unrelease (they lose it at once). */
export function moveBlog(
  workspaceId: string,
  blogId: string,
  to: "release" | "unrelease",
): Promise<AdminBlog> {
  const path = { params: { path: { workspaceId, blogId } } };
  return call(
    to === "release"
      ? api.POST("/workspaces/{workspaceId}/blogs/{blogId}/release", path)
      : api.POST("/workspaces/{workspaceId}/blogs/{blogId}/unrelease", path),
  );
}

export const removeBlog = (workspaceId: string, blogId: string): Promise<void> =>
  send(
    api.DELETE("/workspaces/{workspaceId}/blogs/{blogId}", {
      params: { path: { workspaceId, blogId } },
    }),
  );
