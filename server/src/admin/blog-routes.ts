import { toAdminBlog } from "../blogs/blog-view.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import { editorCursor } from "../blogs/cursor.js";
import { parseBlogSearch } from "../blogs/search-terms.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import { signedInUser } from "./guards.js";

const DEFAULT_LIMIT = 20;

/** Writing, releasing and removing the blogs of a workspace. */
export function blogHandlers(blogs: BlogsStore) {
  const listAdminBlogs: AdminHandler<"listAdminBlogs"> = async (req, res) => {
    const { status, limit = DEFAULT_LIMIT, cursor, q, sort = "newest" } = req.query;
    const query = { status, sort, search: parseBlogSearch(q) };
    const after = cursor === undefined ? null : editorCursor.decode(cursor, query);
    const page = await blogs.listForEditors(req.params.workspaceId, query, limit, after);
    res.json({
      data: page.blogs.map(toAdminBlog),
      nextCursor: page.next === null ? null : editorCursor.encode(page.next, query),
    });
  };

  const countAdminBlogs: AdminHandler<"countAdminBlogs"> = async (req, res) => {
    res.json(await blogs.countForEditors(req.params.workspaceId, parseBlogSearch(req.query.q)));
  };

  const createBlog: AdminHandler<"createBlog"> = async (req, res) => {
    const doc = await blogs.create(req.params.workspaceId, {
      ...req.body,
      bodyMarkdown: req.body.bodyMarkdown ?? "",
    });
    res.status(201).json(toAdminBlog(doc));
  };

  const previewBlogBody: AdminHandler<"previewBlogBody"> = async (req, res) => {
    const { bodyHtml, excerpt } = await blogs.preview(
      req.params.workspaceId,
      signedInUser(res),
      req.body.bodyMarkdown,
    );
    res.json({ bodyHtml, excerpt });
  };

  const getAdminBlog: AdminHandler<"getAdminBlog"> = async (req, res) => {
    res.json(toAdminBlog(await blogs.get(req.params.workspaceId, req.params.blogId)));
  };

  const updateBlog: AdminHandler<"updateBlog"> = async (req, res) => {
    res.json(toAdminBlog(await blogs.update(req.params.workspaceId, req.params.blogId, req.body)));
  };

  const releaseBlog: AdminHandler<"releaseBlog"> = async (req, res) => {
    res.json(
      toAdminBlog(await blogs.setStatus(req.params.workspaceId, req.params.blogId, "released")),
    );
  };

  const unreleaseBlog: AdminHandler<"unreleaseBlog"> = async (req, res) => {
    res.json(
      toAdminBlog(await blogs.setStatus(req.params.workspaceId, req.params.blogId, "draft")),
    );
  };

  const removeBlog: AdminHandler<"removeBlog"> = async (req, res) => {
    await blogs.setStatus(req.params.workspaceId, req.params.blogId, "removed");
    res.status(204).end();
  };

  return {
    listAdminBlogs,
    countAdminBlogs,
    createBlog,
    previewBlogBody,
    getAdminBlog,
    updateBlog,
    releaseBlog,
    unreleaseBlog,
    removeBlog,
  };
}
