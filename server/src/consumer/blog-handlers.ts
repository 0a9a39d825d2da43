import type { Request, Response } from "express";
import { type AuthorsJoined, type BlogAuthors, NO_AUTHORS } from "../blogs/blog-authors.js";
import type { BlogLocator } from "../blogs/blog-reads.js";
import { toBlog, validatorOf } from "../blogs/blog-view.js";
import { type ListPosition, listCursor } from "../blogs/cursor.js";
import { type FieldSelection, toPartialBlog } from "../blogs/field-selection.js";
import { type ListFilter, parseListFilter } from "../blogs/list-filter.js";
import type { BlogDoc } from "../platform/db/collections.js";
import { notFound } from "../platform/domain-error.js";
import type { AnswerCache } from "../platform/http/answer-cache.js";
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
// The authors the blogs name are joined when they are read (blog-authors.ts): their validators
// follow the blogs', so an author's edit or removal changes the ETag of every answer showing
// them; a `fields` selection without `authors` and `authorName` does not show them.
const kindOf = (kind: string, fields: FieldSelection | null, filter: ListFilter | null = null) =>
  `${kind}${filter === null || filter.key === "" ? "" : `;${filter.key}`}${
    fields === null ? "" : `;fields=${fields.key}`
  }`;
const nextCursorOf = (page: { next: ListPosition | null }, filter: ListFilter) =>
  page.next === null ? null : listCursor.encode(page.next, filter);

/**
 * listBlogs, getBlog and getBlogBySlug (openapi.yaml): the blogs of the key's workspace in the
 * source's perspective (blog-sources.ts: released ones, or the preview). List pages asked again
 * unchanged are sent from `answers` (platform/http/answer-cache.ts) after a read of their
 * validators: a home page or a tag page that many visitors' builds fetch costs about a 304.
 */
export function blogHandlers(blogs: BlogSource, authors: BlogAuthors, answers: AnswerCache) {
  /** A blog as every read has it: its validator, and the authors it names. */
  type Validated = Parameters<typeof validatorOf>[0] & Pick<BlogDoc, "authorIds" | "coverImageUrl">;
  const pageEtag = (
    page: { blogs: Validated[]; next: unknown },
    fields: FieldSelection | null,
    filter: ListFilter,
    authorParts: readonly string[],
  ) =>
    validatorEtag(
      kindOf(`${blogs.etagKind}${page.next === null ? "list-last" : "list-more"}`, fields, filter),
      [...page.blogs.map(validatorOf), ...authorParts],
    );
  const blogEtag = (
    doc: Validated,
    fields: FieldSelection | null,
    authorParts: readonly string[],
  ) => validatorEtag(kindOf(`${blogs.etagKind}blog`, fields), [validatorOf(doc), ...authorParts]);
  /** Whether the answer shows the authors: the whole Blog, or a selection naming them. */
  const showsAuthors = (fields: FieldSelection | null) => fields === null || fields.joinsAuthors;
  /** The authors the answer shows, read with its blogs; none for a selection without them. */
  const joined = (
    workspaceId: string,
    docs: readonly Validated[],
    fields: FieldSelection | null,
  ): Promise<AuthorsJoined> =>
    showsAuthors(fields) ? authors.join(workspaceId, docs) : Promise.resolve(NO_AUTHORS);
  /** A conditional request's authors: their validators only. */
  const authorValidators = async (
    workspaceId: string,
    docs: readonly Validated[],
    fields: FieldSelection | null,
  ): Promise<readonly string[]> =>
    showsAuthors(fields) ? authors.validators(workspaceId, docs) : [];

  const listBlogs: ConsumerHandler<"listBlogs"> = async (req, res) => {
    const workspaceId = requestWorkspace(res);
    const limit = req.query.limit ?? DEFAULT_LIMIT;
    const slug = req.query.author;
    const author =
      slug === undefined ? undefined : { slug, id: await authors.idOf(workspaceId, slug) };
    const filter = parseListFilter(requestTagFilter(res), { ...req.query, author });
    const after =
      req.query.cursor === undefined ? null : listCursor.decode(req.query.cursor, filter);
    const fields = requestFields(res);
    // Everything this page's answer is made of besides the workspace and what its ETag names.
    const key = `${limit} ${req.query.cursor ?? ""} ${kindOf(blogs.etagKind, fields, filter)}`;
    const ifNoneMatch = req.get("if-none-match");
    // The validators first when they may answer alone: a 304, or an answer kept under its ETag
    // (answer-cache.ts). A page never asked before is read whole at once, as it would be anyway.
    if (ifNoneMatch !== undefined || answers.etagOf(workspaceId, key) !== undefined) {
      const current = await blogs.pageValidators(workspaceId, limit, after, filter);
      const parts = await authorValidators(workspaceId, current.blogs, fields);
      const etag = pageEtag(current, fields, filter, parts);
      if (notModified(ifNoneMatch, res, etag)) return;
      if (answers.sendIfStored(res, workspaceId, key, etag)) return;
    }
    if (fields === null) {
      const page = await blogs.page(workspaceId, limit, after, filter);
      const named = await joined(workspaceId, page.blogs, null);
      const body = {
        data: page.blogs.map((doc) => toBlog(doc, named)),
        nextCursor: nextCursorOf(page, filter),
      } satisfies BlogList;
      answers.sendAndStore(
        res,
        workspaceId,
        key,
        pageEtag(page, null, filter, named.validators),
        body,
      );
      return;
    }
    const page = await blogs.pageProjected(workspaceId, limit, after, fields.projection, filter);
    const named = await joined(workspaceId, page.blogs, fields);
    const body = {
      data: page.blogs.map((doc) => toPartialBlog(doc, fields, named)),
      nextCursor: nextCursorOf(page, filter),
    } satisfies PartialBlogList;
    answers.sendAndStore(
      res,
      workspaceId,
      key,
      pageEtag(page, fields, filter, named.validators),
      body,
    );
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
      const parts = await authorValidators(workspaceId, [current], fields);
      if (notModified(ifNoneMatch, res, blogEtag(current, fields, parts))) return;
    }
    if (fields === null) {
      const doc = await blogs.get(workspaceId, at);
      if (doc === null) throw notFound("Blog not found.");
      const named = await joined(workspaceId, [doc], null);
      res.setHeader("ETag", blogEtag(doc, null, named.validators));
      res.json(toBlog(doc, named));
      return;
    }
    const doc = await blogs.getProjected(workspaceId, at, fields.projection);
    if (doc === null) throw notFound("Blog not found.");
    const named = await joined(workspaceId, [doc], fields);
    res.setHeader("ETag", blogEtag(doc, fields, named.validators));
    res.json(toPartialBlog(doc, fields, named));
  };

  const getBlog: ConsumerHandler<"getBlog"> = (req, res) =>
    sendBlog(req, res, { id: req.params.blogId });

  // Three segments, never matched by "/blogs/:blogId" (a parameter never spans a "/"); the
  // validator has already refused a slug outside the spec's `Slug` rule with 400.
  const getBlogBySlug: ConsumerHandler<"getBlogBySlug"> = (req, res) =>
    sendBlog(req, res, { slug: req.params.slug });

  return { listBlogs, getBlog, getBlogBySlug };
}
