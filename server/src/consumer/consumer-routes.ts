import { type RequestHandler, Router } from "express";
import type { AuthorsStore } from "../authors/authors-store.js";
import type { BlogAuthors } from "../blogs/blog-authors.js";
import { toChange } from "../blogs/blog-view.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import type { TagCount } from "../blogs/tag-counts.js";
import type { ChangesFeed } from "../changes/changes-feed.js";
import type { KeysStore } from "../keys/keys-store.js";
import type { LastUsedRecorder } from "../keys/last-used.js";
import { type RateLimitDeps, rateLimit } from "../limits/consumer-rate-limit.js";
import type { MediaStore } from "../media/media-store.js";
import type { AnswerCache } from "../platform/http/answer-cache.js";
import { notModified, validatorEtag } from "../platform/http/conditional.js";
import type { ChangePage, ConsumerHandler, TagList } from "../platform/http/consumer-types.js";
import { errorHandler, notFoundHandler } from "../platform/http/errors.js";
import { jsonBody } from "../platform/http/json-body.js";
import type { PreviewReads } from "../preview/preview-reads.js";
import type { PreviewTokens } from "../preview/preview-tokens.js";
import { authenticate, requestWorkspace } from "./authenticate.js";
import { authorHandlers } from "./author-handlers.js";
import { blogHandlers } from "./blog-handlers.js";
import { liveSource, previewSource } from "./blog-sources.js";
import { type FeedDeps, feedHandlers } from "./feed-handlers.js";
import { archiveQueryChecked, tagQueryChecked } from "./list-query.js";
import { mediaHandlers } from "./media-handlers.js";
import { exchangePreviewToken, PREVIEW_EXCHANGE_BODY_LIMIT } from "./preview-exchange.js";
import { unknownFieldsNamed } from "./unknown-fields.js";

export interface ConsumerDeps {
  /** The validator of openapi/openapi.yaml (platform/http/spec-validator.ts). */
  readonly specValidation: readonly RequestHandler[];
  readonly cacheMaxAgeSeconds: number;
  readonly keys: KeysStore;
  readonly blogs: BlogsStore;
  /** The workspace's authors (openapi.yaml, "Authors"), and those blogs name, read with them. */
  readonly authors: {
    readonly store: Pick<AuthorsStore, "list" | "bySlug">;
    readonly ofBlogs: BlogAuthors;
  };
  readonly changes: ChangesFeed;
  /** The tag counts of released blogs (blogs/tag-counts-cache.ts). */
  readonly tagCounts: (workspaceId: string) => Promise<TagCount[]>;
  readonly lastUsed: LastUsedRecorder;
  /** Per-key rate limits and usage counting (limits/consumer-rate-limit.ts). */
  readonly limits: RateLimitDeps;
  /** Workspaces' public feeds (openapi.yaml, "Feeds"), and the origin their addresses are on. */
  readonly feeds: Pick<FeedDeps, "settings" | "publicOrigin">;
  /** The preview perspective's reads and feed, preview links' tokens (openapi.yaml, "Preview"). */
  readonly preview: {
    readonly reads: PreviewReads;
    readonly tokens: PreviewTokens;
    readonly changes: ChangesFeed;
  };
  /** The media library's files, public at their URLs (openapi.yaml, "Media"). */
  readonly media: Pick<MediaStore, "file">;
  /** Each perspective's list answers kept under their ETags (platform/http/answer-cache.ts). */
  readonly answers: Readonly<Record<Perspective, AnswerCache>>;
}

/**
 * Which base path a router serves: `live` at /api/consumer (live keys, released blogs, the
 * changes feed, preview tokens' exchange), `preview` at /api/preview (preview keys, the preview
 * perspective of the blog and tag operations; openapi.yaml, "Preview").
 */
export type Perspective = "live" | "preview";

const DEFAULT_CHANGES_LIMIT = 100;

/**
 * The consumer API (openapi/openapi.yaml), mounted at /api/consumer (`live`) and /api/preview
 * (`preview`):
 *   GET /blogs                  listBlogs       (blog-handlers.ts)
 *   GET /blogs/:blogId          getBlog         (blog-handlers.ts)
 *   GET /blogs/by-slug/:slug    getBlogBySlug   (blog-handlers.ts)
 *   GET /tags                   listTags
 *   GET /authors                listAuthors     (author-handlers.ts)
 *   GET /authors/by-slug/:slug  getAuthorBySlug (author-handlers.ts)
 *   GET /changes                listChanges
 *   POST /preview-tokens/exchange  exchangePreviewToken  (live only; preview-exchange.ts)
 *   GET /media/:mediaId/:name   getMediaFile    (live only, no key; media-handlers.ts)
 * Authentication (by a key of the perspective's kind) runs first, then the key's rate limit (429 over it), then `fields` and `tag`
 * are parsed (`unknownFieldsNamed`, `tagQueryChecked`, `archiveQueryChecked`: before the spec's request validation, so
 * an unknown name in `fields` or a tag not in normal form gets a message naming it; the handlers
 * use what they parsed), then the validation, then the handler.
 */
export function consumerRouter(deps: ConsumerDeps, perspective: Perspective = "live"): Router {
  const router = Router();
  const live = perspective === "live";
  // Preview answers may hold unpublished text: never kept by any cache.
  const cacheControl = live ? `private, max-age=${deps.cacheMaxAgeSeconds}` : "no-store";

  if (!live) {
    router.use((_req, res, next) => {
      res.setHeader("Pressroom-Perspective", "preview");
      next();
    });
  }
  // Public feeds (openapi.yaml, "Feeds"): no key, so before authentication; live base only.
  const FEED = "/feeds/:feedId";
  if (live) {
    const feeds = feedHandlers({
      ...deps.feeds,
      blogs: deps.blogs,
      authors: deps.authors.ofBlogs,
      limiter: deps.limits.limiter,
      limit: deps.limits.serverDefault,
      answers: deps.answers.live,
    });
    router.get(`${FEED}/rss.xml`, ...deps.specValidation, feeds.getRssFeed);
    router.get(`${FEED}/atom.xml`, ...deps.specValidation, feeds.getAtomFeed);
    router.get(`${FEED}/feed.json`, ...deps.specValidation, feeds.getJsonFeed);
    router.get(`${FEED}/sitemap.xml`, ...deps.specValidation, feeds.getSitemap);
    // Any other method on a feed's address: the validator's 405 with `Allow`, not a key's 401.
    for (const file of ["rss.xml", "atom.xml", "feed.json", "sitemap.xml"]) {
      router.all(`${FEED}/${file}`, ...deps.specValidation);
    }
    // Library images (openapi.yaml, "Media"): public too, for pages' <img>.
    const MEDIA = "/media/:mediaId/:name";
    router.get(MEDIA, ...deps.specValidation, mediaHandlers(deps.media).getMediaFile);
    router.all(MEDIA, ...deps.specValidation);
  } else {
    router.all(`${FEED}/:file`, notFoundHandler);
    router.all("/media/:mediaId/:name", notFoundHandler);
  }
  router.use(
    authenticate(deps.keys, deps.lastUsed, deps.limits.rejected, live ? "live" : "preview"),
  );
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
  router.get("/blogs", tagQueryChecked, archiveQueryChecked);
  if (live) router.post("/preview-tokens/exchange", ...jsonBody(PREVIEW_EXCHANGE_BODY_LIMIT));
  // The spec's live-only path (its `servers`): the validator knows it on both base paths, so
  // the preview base says 404 itself, before validation passes it on.
  else router.all("/preview-tokens/exchange", notFoundHandler);
  router.use(...deps.specValidation);
  router.use((_req, res, next) => {
    // Responses depend on the key: private caches only, and say which headers matter.
    res.setHeader("Cache-Control", cacheControl);
    res.setHeader("Vary", "x-api-key, Authorization");
    next();
  });

  const source = live ? liveSource(deps.blogs, deps.tagCounts) : previewSource(deps.preview.reads);
  const blogs = blogHandlers(source, deps.authors.ofBlogs, deps.answers[perspective]);
  router.get("/blogs", blogs.listBlogs);
  router.get("/blogs/:blogId", blogs.getBlog);
  router.get("/blogs/by-slug/:slug", blogs.getBlogBySlug);

  const listChanges: ConsumerHandler<"listChanges"> = async (req, res) => {
    const workspaceId = requestWorkspace(res);
    const limit = req.query.limit ?? DEFAULT_CHANGES_LIMIT;
    const feed = live ? deps.changes : deps.preview.changes;
    const page = await feed.page(workspaceId, req.query.since, limit);
    const upserted = page.changes.flatMap((change) =>
      change.type === "upsert" ? [change.blog] : [],
    );
    const named = await deps.authors.ofBlogs.join(workspaceId, upserted);
    // The same token answers more as changes happen: no cache may keep an answer.
    res.setHeader("Cache-Control", "no-store");
    res.json({
      changes: page.changes.map((change) => toChange(change, named)),
      nextToken: page.nextToken,
      hasMore: page.hasMore,
    } satisfies ChangePage);
  };
  router.get("/changes", listChanges);
  if (live) {
    router.post(
      "/preview-tokens/exchange",
      exchangePreviewToken(deps.preview.tokens, deps.preview.reads, deps.authors.ofBlogs),
    );
  }

  // The tag list is computed whole (tag-counts.ts), then its ETag: the counts are the content.
  const listTags: ConsumerHandler<"listTags"> = async (req, res) => {
    const data = await source.tagCounts(requestWorkspace(res));
    const etag = validatorEtag(
      `${source.etagKind}tags`,
      data.map(({ tag, count }) => JSON.stringify([tag, count])),
    );
    if (notModified(req.get("if-none-match"), res, etag)) return;
    res.json({ data } satisfies TagList);
  };
  router.get("/tags", listTags);

  const authors = authorHandlers(deps.authors.store, source.etagKind);
  router.get("/authors", authors.listAuthors);
  router.get("/authors/by-slug/:slug", authors.getAuthorBySlug);

  // Errors end here, not after a walk through every later mount of the app: same handler.
  router.use(errorHandler);

  return router;
}
