import type { ErrorRequestHandler, Response } from "express";
import type { BlogAuthors } from "../blogs/blog-authors.js";
import { StaleVersion, versionOf } from "../blogs/blog-rules.js";
import type { EditedBlog } from "../blogs/blog-staging.js";
import { toAdminBlog, workingVersion } from "../blogs/blog-view.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import { editorCursor } from "../blogs/cursor.js";
import { revisionActorIds, toRevision, toRevisionSummary } from "../blogs/revision-view.js";
import { parseBlogSearch } from "../blogs/search-terms.js";
import type { BlogDoc } from "../platform/db/collections.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import { parseIfMatch } from "../platform/http/conditional.js";
import type { UsersStore } from "../users/users-store.js";
import { signedInUser } from "./guards.js";

const DEFAULT_LIMIT = 20;

/** The blog's `ETag` (admin.yaml, `BlogETag`): its version in quotes. */
const etagOf = (doc: BlogDoc): string => `"${versionOf(doc)}"`;

/** The blog as the admin API shows it, with the authors it names (blogs/blog-authors.ts). */
const adminBlogOf = async (authors: BlogAuthors, doc: EditedBlog) =>
  toAdminBlog(doc, await authors.join(doc.workspaceId, [workingVersion(doc)]));

/**
 * A conditional write that found the blog changed since (`StaleVersion`): `412` with the blog as
 * it is now (admin.yaml, `StaleVersion`). Other errors go on to the error handler.
 */
export const staleBlogAnswer =
  (authors: BlogAuthors): ErrorRequestHandler =>
  async (err, _req, res, next) => {
    if (!(err instanceof StaleVersion) || res.headersSent) {
      next(err);
      return;
    }
    try {
      const current = await adminBlogOf(authors, err.current);
      res
        .status(412)
        .setHeader("ETag", etagOf(err.current))
        .json({ message: err.message, current });
    } catch (failure) {
      next(failure);
    }
  };

/** Writing, releasing and removing the blogs of a workspace, and their history. */
export function blogHandlers(
  blogs: BlogsStore,
  users: Pick<UsersStore, "namesOf">,
  authors: BlogAuthors,
) {
  /** The blog as the admin API answers it, with its `ETag`. */
  const sendBlog = async (res: Response, doc: EditedBlog, status = 200): Promise<void> => {
    const body = await adminBlogOf(authors, doc);
    res.status(status).setHeader("ETag", etagOf(doc)).json(body);
  };

  const listAdminBlogs: AdminHandler<"listAdminBlogs"> = async (req, res) => {
    const { status, limit = DEFAULT_LIMIT, cursor, q, sort = "newest" } = req.query;
    const query = { status, sort, search: parseBlogSearch(q) };
    const after = cursor === undefined ? null : editorCursor.decode(cursor, query);
    const page = await blogs.listForEditors(req.params.workspaceId, query, limit, after);
    const named = await authors.join(req.params.workspaceId, page.blogs.map(workingVersion));
    res.json({
      data: page.blogs.map((doc) => toAdminBlog(doc, named)),
      nextCursor: page.next === null ? null : editorCursor.encode(page.next, query),
    });
  };

  const countAdminBlogs: AdminHandler<"countAdminBlogs"> = async (req, res) => {
    res.json(await blogs.countForEditors(req.params.workspaceId, parseBlogSearch(req.query.q)));
  };

  const createBlog: AdminHandler<"createBlog"> = async (req, res) => {
    const { authors: authorIds, ...fields } = req.body;
    const doc = await blogs.create(
      req.params.workspaceId,
      { ...fields, authorIds, bodyMarkdown: req.body.bodyMarkdown ?? "" },
      signedInUser(res),
    );
    await sendBlog(res, doc, 201);
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
    await sendBlog(res, await blogs.get(req.params.workspaceId, req.params.blogId));
  };

  const updateBlog: AdminHandler<"updateBlog"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    const { authors: authorIds, ...fields } = req.body;
    const patch = authorIds === undefined ? fields : { ...fields, authorIds };
    await sendBlog(
      res,
      await blogs.update(workspaceId, blogId, patch, expected, signedInUser(res)),
    );
  };

  const releaseBlog: AdminHandler<"releaseBlog"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    await sendBlog(
      res,
      await blogs.setStatus(workspaceId, blogId, "released", expected, signedInUser(res)),
    );
  };

  const unreleaseBlog: AdminHandler<"unreleaseBlog"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    await sendBlog(
      res,
      await blogs.setStatus(workspaceId, blogId, "draft", expected, signedInUser(res)),
    );
  };

  const publishBlogChanges: AdminHandler<"publishBlogChanges"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    await sendBlog(res, await blogs.publish(workspaceId, blogId, expected, signedInUser(res)));
  };

  const discardBlogChanges: AdminHandler<"discardBlogChanges"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    await sendBlog(res, await blogs.discard(workspaceId, blogId, expected, signedInUser(res)));
  };

  const removeBlog: AdminHandler<"removeBlog"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    await blogs.setStatus(workspaceId, blogId, "removed", expected, signedInUser(res));
    res.status(204).end();
  };

  const scheduleBlog: AdminHandler<"scheduleBlog"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    const time = (value: string | null | undefined) =>
      value === undefined ? undefined : value === null ? null : new Date(value);
    const input = {
      ...(req.body.publishAt === undefined ? {} : { publishAt: time(req.body.publishAt) }),
      ...(req.body.unreleaseAt === undefined ? {} : { unreleaseAt: time(req.body.unreleaseAt) }),
    };
    await sendBlog(
      res,
      await blogs.schedule(workspaceId, blogId, input, expected, signedInUser(res)),
    );
  };

  const listBlogRevisions: AdminHandler<"listBlogRevisions"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const { limit = DEFAULT_LIMIT, cursor } = req.query;
    const page = await blogs.revisions(workspaceId, blogId, limit, cursor);
    const people = await users.namesOf(revisionActorIds(page.revisions));
    res.json({
      data: page.revisions.map((doc) => toRevisionSummary(doc, people)),
      nextCursor: page.nextCursor,
    });
  };

  const getBlogRevision: AdminHandler<"getBlogRevision"> = async (req, res) => {
    const { workspaceId, blogId, revisionId } = req.params;
    const doc = await blogs.revision(workspaceId, blogId, revisionId);
    res.json(toRevision(doc, await users.namesOf(revisionActorIds([doc]))));
  };

  const restoreBlogRevision: AdminHandler<"restoreBlogRevision"> = async (req, res) => {
    const { workspaceId, blogId, revisionId } = req.params;
    const expected = parseIfMatch(req.get("if-match"));
    await sendBlog(
      res,
      await blogs.restore(workspaceId, blogId, revisionId, expected, signedInUser(res)),
    );
  };

  return {
    scheduleBlog,
    listBlogRevisions,
    getBlogRevision,
    restoreBlogRevision,
    listAdminBlogs,
    countAdminBlogs,
    createBlog,
    previewBlogBody,
    getAdminBlog,
    updateBlog,
    releaseBlog,
    unreleaseBlog,
    publishBlogChanges,
    discardBlogChanges,
    removeBlog,
  };
}
