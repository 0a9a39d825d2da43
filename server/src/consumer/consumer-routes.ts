import { type Request, type RequestHandler, type Response, Router } from "express";
import type { BlogLocator } from "../blogs/blog-reads.js";
import { toBlog, toChange, validatorOf } from "../blogs/blog-view.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import { type ListPosition, listCursor } from "../blogs/cursor.js";
import { type FieldSelection, parseFields, toPartialBlog } from "../blogs/field-selection.js";
import type { TagCount } from "../blogs/tag-counts.js";
import { parseTagFilter, type TagFilter } from "../blogs/tag-filter.js";
import type { ChangesFeed } from "../changes/changes-feed.js";
import type { KeysStore } from "../keys/keys-store.js";
import type { LastUsedRecorder } from "../keys/last-used.js";
import { type RateLimitDeps, rateLimit } from "../limits/consumer-rate-limit.js";
import { notFound } from "../platform/domain-error.js";
import { notModified, validatorEtag } from "../platform/http/conditional.js";
import type {
  Blog,
  BlogList,
  ChangePage,
  GetBlogBySlugParams,
  GetBlogBySlugQuery,
  GetBlogParams,
  GetBlogQuery,
  ListBlogsQuery,
  ListChangesQuery,
  PartialBlog,
  PartialBlogList,
  TagList,
} from "../platform/http/consumer-types.js";
import { errorHandler, HttpError, INTERNAL_ERROR_MESSAGE } from "../platform/http/errors.js";
import { authenticate } from "./authenticate.js";
import { tagQueryChecked } from "./tag-query.js";
import { unknownFieldsNamed } from "./unknown-fields.js";

export interface ConsumerDeps {
  /** The validator of openapi/openapi.yaml (platform/http/spec-validator.ts). */
  readonly specValidation: readonly RequestHandler[];
  readonly cacheMaxAgeSeconds: number;
  readonly keys: KeysStore;
  readonly blogs: BlogsStore;
  readonly changes: ChangesFeed;
  /** The tag counts of released blogs (blogs/tag-counts-cache.ts). */
  readonly tagCounts: (workspaceId: string) => Promise<TagCount[]>;
  readonly lastUsed: LastUsedRecorder;
  /** Per-key rate limits and usage counting (limits/consumer-rate-limit.ts). */
  readonly limits: RateLimitDeps;
}

const DEFAULT_LIMIT = 20;
const DEFAULT_CHANGES_LIMIT = 100;

/**
 * The consumer API (openapi/openapi.yaml), mounted at /api/consumer:
 *   GET /blogs                  listBlogs
 *   GET /blogs/:blogId          getBlog
 *   GET /blogs/by-slug/:slug    getBlogBySlug
 *   GET /changes                listChanges
 *   GET /tags                   listTags
 * Authentication runs first, then the key's rate limit (429 over it), then the spec's request
 * validation (after `unknownFieldsNamed`, so
 * an unknown name in `fields` gets a message naming it), then the handler.
 */
export function consumerRouter(deps: ConsumerDeps): Router {
  const router = Router();
  const cacheControl = `private, max-age=${deps.cacheMaxAgeSeconds}`;
  const workspaceOf = (locals: { workspaceId?: string }): string => {
    if (locals.workspaceId === undefined) throw new HttpError(500, INTERNAL_ERROR_MESSAGE);
    return locals.workspaceId;
  };

  router.use(authenticate(deps.keys, deps.lastUsed, deps.limits.rejected));
  // Metrics: a 404 to a known key (no such blog, slug or path), wherever it was decided.
  router.use((_req, res, next) => {
    res.once("finish", () => {
      if (res.statusCode === 404) deps.limits.rejected("not_found");
    });
    next();
  });
  router.use(rateLimit(deps.limits));
  // Only where `fields` is a parameter: any other path keeps the validator's answer.
  router.get(["/blogs", "/blogs/:blogId", "/blogs/by-slug/:slug"], unknownFieldsNamed);
  router.get("/blogs", tagQueryChecked);
  router.use(...deps.specValidation);
  router.use((_req, res, next) => {
    // Responses depend on the key: private caches only, and say which headers matter.
    res.setHeader("Cache-Control", cacheControl);
    res.setHeader("Vary", "x-api-key, Authorization");
    next();
  });

  // ETags are derived from the blogs' validators (id, revision, times — blog-view.ts), not from
  // the body: a conditional request reads only those fields, and an unchanged page or blog
  // answers 304 without its content ever leaving the database. A page's tag covers its blogs in
  // order and whether more follow, which is everything its body (data, nextCursor) is made of.
  // A `fields` selection is another representation of the same blogs: its canonical key (names
  // in the spec's order, each once) joins the kind, so each set has its own tags; the whole Blog
  // (no `fields`, or all of them) keeps the kinds it always had, hence the same ETags.
  // A tag set (canonical: distinct, in code point order) is likewise its own representation.
  const kindOf = (kind: string, fields: FieldSelection | null, tags: TagFilter | null = null) =>
    `${kind}${tags === null ? "" : `;tags=${tags.key}`}${fields === null ? "" : `;fields=${fields.key}`}`;
  const pageEtag = (
    page: { blogs: Parameters<typeof validatorOf>[0][]; next: unknown },
    fields: FieldSelection | null,
    tags: TagFilter | null,
  ) =>
    validatorEtag(
      kindOf(page.next === null ? "list-last" : "list-more", fields, tags),
      page.blogs.map(validatorOf),
    );
  const blogEtag = (doc: Parameters<typeof validatorOf>[0], fields: FieldSelection | null) =>
    validatorEtag(kindOf("blog", fields), [validatorOf(doc)]);
  const nextCursorOf = (page: { next: ListPosition | null }, tags: TagFilter | null) =>
    page.next === null ? null : listCursor.encode(page.next, tags);

  router.get<"/blogs", Record<string, never>, BlogList | PartialBlogList, never, ListBlogsQuery>(
    "/blogs",
    async (req, res) => {
      const workspaceId = workspaceOf(res.locals);
      const limit = req.query.limit ?? DEFAULT_LIMIT;
      const tags = parseTagFilter(req.query.tag);
      const after =
        req.query.cursor === undefined ? null : listCursor.decode(req.query.cursor, tags);
      const fields = parseFields(req.query.fields);
      const tagList = tags?.tags ?? null;
      const ifNoneMatch = req.get("if-none-match");
      if (ifNoneMatch !== undefined) {
        const current = await deps.blogs.listReleasedValidators(workspaceId, limit, after, tagList);
        if (notModified(ifNoneMatch, res, pageEtag(current, fields, tags))) return;
      }
      if (fields === null) {
        const page = await deps.blogs.listReleased(workspaceId, limit, after, tagList);
        res.setHeader("ETag", pageEtag(page, null, tags));
        res.json({
          data: page.blogs.map(toBlog),
          nextCursor: nextCursorOf(page, tags),
        } satisfies BlogList);
        return;
      }
      const page = await deps.blogs.listReleasedProjected(
        workspaceId,
        limit,
        after,
        fields.projection,
        tagList,
      );
      res.setHeader("ETag", pageEtag(page, fields, tags));
      res.json({
        data: page.blogs.map((doc) => toPartialBlog(doc, fields)),
        nextCursor: nextCursorOf(page, tags),
      } satisfies PartialBlogList);
    },
  );

  /**
   * One released blog, by ID or by slug: both operations are this one path (read, checks,
   * `fields`, ETag, 304, 404), so their bodies, tags and "not found" answers cannot drift apart.
   * A blog has one ETag per field set, whichever way it is named.
   */
  const sendReleasedBlog = async (
    req: Request,
    res: Response<Blog | PartialBlog>,
    at: BlogLocator,
    fieldsParam: string | undefined,
  ): Promise<void> => {
    const workspaceId = workspaceOf(res.locals);
    const fields = parseFields(fieldsParam);
    const ifNoneMatch = req.get("if-none-match");
    if (ifNoneMatch !== undefined) {
      const current = await deps.blogs.getReleasedValidator(workspaceId, at);
      if (current === null) throw notFound("Blog not found.");
      if (notModified(ifNoneMatch, res, blogEtag(current, fields))) return;
    }
    if (fields === null) {
      const doc = await deps.blogs.getReleased(workspaceId, at);
      if (doc === null) throw notFound("Blog not found.");
      res.setHeader("ETag", blogEtag(doc, null));
      res.json(toBlog(doc));
      return;
    }
    const doc = await deps.blogs.getReleasedProjected(workspaceId, at, fields.projection);
    if (doc === null) throw notFound("Blog not found.");
    res.setHeader("ETag", blogEtag(doc, fields));
    res.json(toPartialBlog(doc, fields));
  };

  router.get<"/blogs/:blogId", GetBlogParams, Blog | PartialBlog, never, GetBlogQuery>(
    "/blogs/:blogId",
    (req, res) => sendReleasedBlog(req, res, { id: req.params.blogId }, req.query.fields),
  );

  // Three segments, never matched by "/blogs/:blogId" (a parameter never spans a "/"); the
  // validator has already refused a slug outside the spec's `Slug` rule with 400.
  router.get<
    "/blogs/by-slug/:slug",
    GetBlogBySlugParams,
    Blog | PartialBlog,
    never,
    GetBlogBySlugQuery
  >("/blogs/by-slug/:slug", (req, res) =>
    sendReleasedBlog(req, res, { slug: req.params.slug }, req.query.fields),
  );

  router.get<"/changes", Record<string, never>, ChangePage, never, ListChangesQuery>(
    "/changes",
    async (req, res) => {
      const workspaceId = workspaceOf(res.locals);
      const limit = req.query.limit ?? DEFAULT_CHANGES_LIMIT;
      const page = await deps.changes.page(workspaceId, req.query.since, limit);
      // The same token answers more as changes happen: no cache may keep an answer.
      res.setHeader("Cache-Control", "no-store");
      res.json({
        changes: page.changes.map(toChange),
        nextToken: page.nextToken,
        hasMore: page.hasMore,
      } satisfies ChangePage);
    },
  );
  // The tag list is computed whole (tag-counts.ts), then its ETag: the counts are the content.
  router.get<"/tags", Record<string, never>, TagList>("/tags", async (req, res) => {
    const data = await deps.tagCounts(workspaceOf(res.locals));
    const etag = validatorEtag(
      "tags",
      data.map(({ tag, count }) => JSON.stringify([tag, count])),
    );
    if (notModified(req.get("if-none-match"), res, etag)) return;
    res.json({ data } satisfies TagList);
  });

  // Errors end here, not after a walk through every later mount of the app: same handler.
  router.use(errorHandler);

  return router;
}
