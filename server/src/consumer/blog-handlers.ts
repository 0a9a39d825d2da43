import type { Request, Response } from "express";
import type { BlogLocator } from "../blogs/blog-reads.js";
import { toBlog, validatorOf } from "../blogs/blog-view.js";
import { type ListPosition, listCursor } from "../blogs/cursor.js";
import { type FieldSelection, toPartialBlog } from "../blogs/field-selection.js";
import { type ListFilter, parseListFilter } from "../blogs/list-filter.js";
import { notFound } from "../platform/domain-error.js";
import { notModified, validatorEtag } from "../platform/http/conditional.js";
import type {
  BlogList,
  ConsumerHandler,
  ConsumerResponseBody,
  PartialBlogList,
} from "../platform/http/consumer-types.js";
import { requestWorkspace } from "./authenticate.js";
import type { BlogSource } from "./blog-sources.js";
import { requestTagFilter } from "./list-query.js";
import { requestFields } from "./unknown-fields.js";

const DEFAULT_LIMIT = 20;

// ETags are derived from the blogs' validators (id, revision, times — blog-view.ts), not from
// the body: a conditional request reads only those fields, and an unchanged page or blog
// answers 304 without its content ever leaving the database. A page's tag covers its blogs in
// order and whether more follow, which is everything its body (data, nextCursor) is made of.
// A `fields` selection is another representation of the same blogs: its canonical key (names
// in the spec's order, each once) joins the kind, so each set has its own tags; the whole Blog
// (no `fields`, or all of them) keeps the kinds it always had, hence the same ETags.
// A tag set (canonical: distinct, in code point order) is likewise its own representation, and
// so is each filter (list-filter.ts; a tag set alone keeps the key it always had).
// A perspective's kind (blog-sources.ts: empty for the live one) leads every kind, so a preview
// ETag is never a live one.
const kindOf = (kind: string, fields: FieldSelection | null, filter: ListFilter | null = null) =>
  `${kind}${filter === null || filter.key === "" ? "" : `;${filter.key}`}${
    fields === null ? "" : `;fields=${fields.key}`
  }`;
const nextCursorOf = (page: { next: ListPosition | null }, filter: ListFilter) =>
  page.next === null ? null : listCursor.encode(page.next, filter);

/**
 * listBlogs, getBlog and getBlogBySlug (openapi.yaml): the blogs of the key's workspace in the
 * source's perspective (blog-sources.ts: released ones, or the preview).
 */
export function blogHandlers(blogs: BlogSource) {
  const pageEtag = (
    page: { blogs: Parameters<typeof validatorOf>[0][]; next: unknown },
    fields: FieldSelection | null,
    filter: ListFilter,
  ) =>
    validatorEtag(
      kindOf(`${blogs.etagKind}${page.next === null ? "list-last" : "list-more"}`, fields, filter),
      page.blogs.map(validatorOf),
    );
  const blogEtag = (doc: Parameters<typeof validatorOf>[0], fields: FieldSelection | null) =>
    validatorEtag(kindOf(`${blogs.etagKind}blog`, fields), [validatorOf(doc)]);

  const listBlogs: ConsumerHandler<"listBlogs"> = async (req, res) => {
    const workspaceId = requestWorkspace(res);
    const limit = req.query.limit ?? DEFAULT_LIMIT;
    const filter = parseListFilter(requestTagFilter(res), req.query);
    const after =
      req.query.cursor === undefined ? null : listCursor.decode(req.query.cursor, filter);
    const fields = requestFields(res);
    const ifNoneMatch = req.get("if-none-match");
    if (ifNoneMatch !== undefined) {
      const current = await blogs.pageValidators(workspaceId, limit, after, filter);
      if (notModified(ifNoneMatch, res, pageEtag(current, fields, filter))) return;
    }
    if (fields === null) {
      const page = await blogs.page(workspaceId, limit, after, filter);
      res.setHeader("ETag", pageEtag(page, null, filter));
      res.json({
        data: page.blogs.map(toBlog),
        nextCursor: nextCursorOf(page, filter),
      } satisfies BlogList);
      return;
    }
    const page = await blogs.pageProjected(workspaceId, limit, after, fields.projection, filter);
    res.setHeader("ETag", pageEtag(page, fields, filter));
    res.json({
      data: page.blogs.map((doc) => toPartialBlog(doc, fields)),
      nextCursor: nextCursorOf(page, filter),
    } satisfies PartialBlogList);
  };

  /**
   * One blog, by ID or by slug: both operations are this one path (read, checks,
   * `fields`, ETag, 304, 404), so their bodies, tags and "not found" answers cannot drift apart.
   * A blog has one ETag per field set, whichever way it is named.
   */
  const sendBlog = async (
    req: Request,
    res: Response<ConsumerResponseBody<"getBlog" | "getBlogBySlug">>,
    at: BlogLocator,
  ): Promise<void> => {
    const workspaceId = requestWorkspace(res);
    const fields = requestFields(res);
    const ifNoneMatch = req.get("if-none-match");
    if (ifNoneMatch !== undefined) {
      const current = await blogs.getValidator(workspaceId, at);
      if (current === null) throw notFound("Blog not found.");
      if (notModified(ifNoneMatch, res, blogEtag(current, fields))) return;
    }
    if (fields === null) {
      const doc = await blogs.get(workspaceId, at);
      if (doc === null) throw notFound("Blog not found.");
      res.setHeader("ETag", blogEtag(doc, null));
      res.json(toBlog(doc));
      return;
    }
    const doc = await blogs.getProjected(workspaceId, at, fields.projection);
    if (doc === null) throw notFound("Blog not found.");
    res.setHeader("ETag", blogEtag(doc, fields));
    res.json(toPartialBlog(doc, fields));
  };

  const getBlog: ConsumerHandler<"getBlog"> = (req, res) =>
    sendBlog(req, res, { id: req.params.blogId });

  // Three segments, never matched by "/blogs/:blogId" (a parameter never spans a "/"); the
  // validator has already refused a slug outside the spec's `Slug` rule with 400.
  const getBlogBySlug: ConsumerHandler<"getBlogBySlug"> = (req, res) =>
    sendBlog(req, res, { slug: req.params.slug });

  return { listBlogs, getBlog, getBlogBySlug };
}
