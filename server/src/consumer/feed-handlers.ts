import type { Request, RequestHandler, Response } from "express";
import type { BlogAuthors } from "../blogs/blog-authors.js";
import { validatorOf } from "../blogs/blog-view.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import type { ListPosition } from "../blogs/cursor.js";
import {
  atomOf,
  type FeedSource,
  jsonFeedOf,
  rssOf,
  SITEMAP_MAX_URLS,
  sitemapOf,
} from "../feeds/feed-documents.js";
import { feedUrlsOf } from "../feeds/feed-urls.js";
import type { PublicFeedSettings, PublicFeeds } from "../feeds/public-feed-settings.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { BlogDoc, RateLimitSetting } from "../platform/db/collections.js";
import { notFound } from "../platform/domain-error.js";
import type { AnswerCache } from "../platform/http/answer-cache.js";
import { notModified, validatorEtag } from "../platform/http/conditional.js";
import { HttpError } from "../platform/http/errors.js";
import { publicOriginOf } from "../platform/http/origin.js";

/** How many of the latest released blogs RSS, Atom and JSON Feed carry (openapi.yaml, "Feeds"). */
export const FEED_ITEMS = 50;
/** Blogs read per query of a sitemap: small projections, an index range each. */
const SITEMAP_BATCH = 1000;

export const FEED_NOT_FOUND = "Feed not found.";
export const FEED_RATE_LIMITED = "Rate limit exceeded: too many requests for this feed.";

export interface FeedDeps {
  readonly settings: Pick<PublicFeeds, "byFeedId">;
  readonly blogs: Pick<
    BlogsStore,
    "listReleased" | "listReleasedValidators" | "listReleasedProjected"
  >;
  /** The authors the blogs name, read with them (their names, sites and pictures are in items). */
  readonly authors: BlogAuthors;
  /** The server's default consumer rate limit (`CONSUMER_RATE_LIMIT`), per feed; null: none. */
  readonly limit: RateLimitSetting | null;
  readonly limiter: Pick<RateLimiter, "check">;
  /** `PUBLIC_URL`'s origin, else the request's: where the feeds' own addresses are. */
  readonly publicOrigin: string | undefined;
  /**
   * The live answer cache (platform/http/answer-cache.ts): a feed's document is kept under its
   * ETag, in its workspace's share, beside the workspace's list pages.
   */
  readonly answers: AnswerCache;
}

type Format = "rss" | "atom" | "json";

const TYPES: Record<Format, string> = {
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
  json: "application/feed+json; charset=utf-8",
};

/**
 * The public feeds (openapi.yaml `getRssFeed`, `getAtomFeed`, `getJsonFeed`, `getSitemap`): no
 * key; the feed ID names the workspace. An ID no workspace has now is one `404`, whatever the
 * reason. Each feed has a rate limit of its own. A feed's ETag is derived from its blogs'
 * validators, their authors' and from everything else its document says (the workspace's
 * name, the template, the feed's address), so a `304` reads no content.
 */
export function feedHandlers(deps: FeedDeps) {
  /** The feed of the path's ID, counted against its rate limit; else 404 or 429. */
  const feedOf = async (req: Request, res: Response): Promise<PublicFeedSettings> => {
    const feedId = String(req.params.feedId);
    const feed = await deps.settings.byFeedId(feedId);
    if (feed === null) throw notFound(FEED_NOT_FOUND);
    if (deps.limit !== null) {
      const decision = await deps.limiter.check(`feed:${feed.workspaceId}`, deps.limit);
      if (!decision.allowed) {
        throw new HttpError(429, FEED_RATE_LIMITED, {
          "Retry-After": String(decision.resetSeconds),
        });
      }
    }
    res.setHeader("Cache-Control", "public, max-age=300");
    return feed;
  };

  /**
   * What a feed joins of its blogs: their authors only. A feed shows a cover as its URL
   * (`coverImageUrl`), never a library image's size or alt, so deleting that image changes no
   * feed and must not change its ETag (nor cost a lookup).
   */
  const authorsNamedBy = (blogs: readonly Pick<BlogDoc, "authorIds">[]) =>
    blogs.map(({ authorIds }) => ({ authorIds, coverImageUrl: null }));

  const settingsParts = (feed: PublicFeedSettings, selfUrl: string) => [
    JSON.stringify([feed.workspaceName, feed.linkTemplate, selfUrl]),
  ];

  const latest =
    (format: Format): RequestHandler =>
    async (req, res) => {
      const feed = await feedOf(req, res);
      const selfUrl = feedUrlsOf(publicOriginOf(req, deps.publicOrigin), feed.feedId)[format];
      const kind = `feed;${format}`;
      // Everything the document is made of besides the workspace and what its ETag names.
      const key = `${kind} ${selfUrl}`;
      const ifNoneMatch = req.get("if-none-match");
      // The validators first when they may answer alone: a 304, or the document kept under its
      // ETag. A feed not kept is read whole at once.
      if (ifNoneMatch !== undefined || deps.answers.etagOf(feed.workspaceId, key) !== undefined) {
        const current = await deps.blogs.listReleasedValidators(feed.workspaceId, FEED_ITEMS, null);
        const etag = validatorEtag(kind, [
          ...settingsParts(feed, selfUrl),
          ...current.blogs.map(validatorOf),
          ...(await deps.authors.validators(feed.workspaceId, authorsNamedBy(current.blogs))),
        ]);
        if (notModified(ifNoneMatch, res, etag)) return;
        if (deps.answers.sendIfStored(res, feed.workspaceId, key, etag)) return;
      }
      const page = await deps.blogs.listReleased(feed.workspaceId, FEED_ITEMS, null);
      const authors = await deps.authors.join(feed.workspaceId, authorsNamedBy(page.blogs));
      // From what was read, never from an earlier validators read: a write in between must not
      // put this document under the ETag of the version before it.
      const etag = validatorEtag(kind, [
        ...settingsParts(feed, selfUrl),
        ...page.blogs.map(validatorOf),
        ...authors.validators,
      ]);
      const source: FeedSource = {
        title: feed.workspaceName,
        linkTemplate: feed.linkTemplate,
        selfUrl,
        blogs: page.blogs,
        authors,
      };
      if (format === "json") {
        // `<`, `>` and `&` as JSON escapes: the same values, and a document that stays inert
        // wherever it is pasted (an HTML page's script element included).
        const json = JSON.stringify(jsonFeedOf(source)).replace(
          /[<>&]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
        );
        deps.answers.sendTextAndStore(res, feed.workspaceId, key, etag, TYPES.json, json);
        return;
      }
      const xml = format === "rss" ? rssOf(source) : atomOf(source);
      deps.answers.sendTextAndStore(res, feed.workspaceId, key, etag, TYPES[format], xml);
    };

  /** Every released blog's page (up to the protocol's 50,000), read in index ranges. */
  const getSitemap: RequestHandler = async (req, res) => {
    const feed = await feedOf(req, res);
    const rows: {
      _id: string;
      slug: string;
      updatedAt: Date;
      releasedAt: Date | null;
      revision?: string;
    }[] = [];
    let after: ListPosition | null = null;
    do {
      const page = await deps.blogs.listReleasedProjected(
        feed.workspaceId,
        Math.min(SITEMAP_BATCH, SITEMAP_MAX_URLS - rows.length),
        after,
        { slug: 1 },
      );
      for (const doc of page.blogs) {
        rows.push({ ...doc, slug: doc.slug ?? "" });
      }
      after = page.next;
    } while (after !== null && rows.length < SITEMAP_MAX_URLS);
    const etag = validatorEtag("feed;sitemap", [
      JSON.stringify([feed.linkTemplate]),
      ...rows.map((row) => `${validatorOf(row)}.${row.slug}`),
    ]);
    if (notModified(req.get("if-none-match"), res, etag)) return;
    res.type("application/xml; charset=utf-8").send(sitemapOf(feed.linkTemplate, rows));
  };

  return {
    getRssFeed: latest("rss"),
    getAtomFeed: latest("atom"),
    getJsonFeed: latest("json"),
    getSitemap,
  };
}
