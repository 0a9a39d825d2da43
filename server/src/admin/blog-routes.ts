import type { RequestHandler } from "express";
import { toBlog } from "../blogs/blog-view.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import { decodeCursor, encodeCursor } from "../blogs/cursor.js";
import type { BlogDoc } from "../db/collections.js";
import type {
  AdminBlog,
  BlogInput,
  BlogPatch,
  BodyPreview,
  BodyPreviewRequest,
} from "./admin-types.js";

type WorkspaceParams = { workspaceId: string };
type BlogParams = WorkspaceParams & { blogId: string };
type ListQuery = { status?: "draft" | "released"; limit?: number; cursor?: string };

/** Stored blog → the admin spec's `AdminBlog`: the consumer shape plus the editor's fields. */
export function toAdminBlog(doc: BlogDoc): AdminBlog {
  return {
    ...toBlog(doc),
    status: doc.status === "released" ? "released" : "draft",
    createdAt: doc.createdAt.toISOString(),
    releasedAt: doc.releasedAt?.toISOString() ?? null,
  };
}

/** Writing, releasing and removing the blogs of a workspace. */
export function blogHandlers(blogs: BlogsStore) {
  type Page = { data: AdminBlog[]; nextCursor: string | null };
  const listAdminBlogs: RequestHandler<WorkspaceParams, Page, never, ListQuery> = async (
    req,
    res,
  ) => {
    const { status, limit = 20, cursor } = req.query;
    const after = cursor === undefined ? null : decodeCursor(cursor);
    const page = await blogs.listForEditors(req.params.workspaceId, status, limit, after);
    res.json({
      data: page.blogs.map(toAdminBlog),
      nextCursor: page.next === null ? null : encodeCursor(page.next),
    });
  };

  const createBlog: RequestHandler<WorkspaceParams, AdminBlog, BlogInput> = async (req, res) => {
    const doc = await blogs.create(req.params.workspaceId, {
      ...req.body,
      bodyMarkdown: req.body.bodyMarkdown ?? "",
    });
    res.status(201).json(toAdminBlog(doc));
  };

  const previewBlogBody: RequestHandler<WorkspaceParams, BodyPreview, BodyPreviewRequest> = async (
    req,
    res,
  ) => {
    const { bodyHtml, excerpt } = await blogs.preview(req.body.bodyMarkdown);
    res.json({ bodyHtml, excerpt });
  };

  const getAdminBlog: RequestHandler<BlogParams, AdminBlog> = async (req, res) => {
    res.json(toAdminBlog(await blogs.get(req.params.workspaceId, req.params.blogId)));
  };

  const updateBlog: RequestHandler<BlogParams, AdminBlog, BlogPatch> = async (req, res) => {
    res.json(toAdminBlog(await blogs.update(req.params.workspaceId, req.params.blogId, req.body)));
  };

  const state =
    (status: "released" | "draft"): RequestHandler<BlogParams, AdminBlog> =>
    async (req, res) => {
      res.json(
        toAdminBlog(await blogs.setStatus(req.params.workspaceId, req.params.blogId, status)),
      );
    };

  const removeBlog: RequestHandler<BlogParams> = async (req, res) => {
    await blogs.setStatus(req.params.workspaceId, req.params.blogId, "removed");
    res.status(204).end();
  };

  return {
    listAdminBlogs,
    createBlog,
    previewBlogBody,
    getAdminBlog,
    updateBlog,
    releaseBlog: state("released"),
    unreleaseBlog: state("draft"),
    removeBlog,
  };
}
