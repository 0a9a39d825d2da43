import type { CacheStore, MemoryCacheStore } from "./cache.js";
import type { components } from "./generated/consumer.js";
import type { FetchLike, RetryOptions, Sleep } from "./retry.js";

/** A released blog, exactly as the API's `Blog` schema defines it. */
export type Blog = components["schemas"]["Blog"];
/** One of the workspace's authors, exactly as the API's `Author` schema defines it. */
export type Author = components["schemas"]["Author"];
/** The workspace's authors, as the API's `AuthorList` defines it. */
export type AuthorList = components["schemas"]["AuthorList"];
/** `authors.list()`'s answer: the `AuthorList` plus whether it came from the cache. */
export type AuthorListResult = AuthorList & {
  /** `true` when the server answered 304 and the list is the cached copy. */
  readonly notModified: boolean;
};
/** A blog's slug, as the API's `Slug` schema defines it: `a`–`z`, `0`–`9`, single dashes. */
export type Slug = components["schemas"]["Slug"];
/** One page of the list, exactly as the API's `BlogList` schema defines it. */
export type BlogList = components["schemas"]["BlogList"];
/** A blog with only some fields (`fields`), exactly as the API's `PartialBlog` schema defines it. */
export type PartialBlog = components["schemas"]["PartialBlog"];
/** The tags of the workspace's released blogs with their counts, as the API's `TagList` defines it. */
export type TagList = components["schemas"]["TagList"];
/** One tag and how many released blogs carry it, as the API's `TagCount` defines it. */
export type TagCount = components["schemas"]["TagCount"];
/** `blogs.listTags()`'s answer: the `TagList` plus whether it came from the cache. */
export type TagListResult = TagList & {
  /** `true` when the server answered 304 and the list is the cached copy. */
  readonly notModified: boolean;
};
/** The name of a `Blog` property, as `fields` takes it. */
export type BlogField = keyof Blog;
/**
 * What a call with `fields: F` returns for each blog: the whole {@link Blog} when `F` is every
 * field (no `fields` given), otherwise only the fields named and `id`, which is always sent.
 */
export type BlogWith<F extends BlogField> = [BlogField] extends [F] ? Blog : Pick<Blog, F | "id">;
/**
 * A page as `blogs.list()` returns it: the `BlogList` plus whether it came from the cache. With
 * `fields`, `B` is the partial blog those fields make (see {@link BlogWith}).
 */
export type BlogPage<B extends PartialBlog = Blog> = Omit<BlogList, "data"> & {
  readonly data: B[];
  /** `true` when the server answered 304 and the page is the cached copy. */
  readonly notModified: boolean;
};

export interface CacheOptions {
  /** Where entries live. Default: a {@link MemoryCacheStore} of `maxEntries` entries. */
  readonly store?: CacheStore;
  /** Size of the default in-memory store. Default 500. */
  readonly maxEntries?: number;
}

export interface ClientOptions {
  /**
   * A workspace API key: `cp_live_…` (released blogs), or `cp_preview_…` (the preview
   * perspective: drafts and pending changes as they would be published). Sent in `x-api-key`;
   * never logged or shown by the SDK.
   */
  readonly apiKey: string;
  /**
   * The Pressroom server, e.g. `https://pressroom.example.com` (`/api/consumer`, or with a
   * preview key `/api/preview`, is added).
   */
  readonly baseUrl: string;
  /**
   * Read the preview perspective (`/api/preview`). Implied by a `cp_preview_…` key; `true`
   * with a live key, or `false` with a preview key, throws a `TypeError` (the server would
   * refuse every call with 401). In preview, `blogs` and `changes` read every blog that is not
   * removed, as it would be published.
   */
  readonly preview?: boolean;
  /** The `fetch` to send requests with. Default: `globalThis.fetch`, looked up at each request. */
  readonly fetch?: FetchLike;
  /** Time limit of each attempt, body included. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Retry policy, or `false` for one attempt per call. Default: see {@link RetryOptions}. */
  readonly retry?: RetryOptions | false;
  /** ETag cache: on (in memory) by default; `false` turns it off. */
  readonly cache?: CacheOptions | false;
  /** Called after each call that got an HTTP answer, errors included; throwing fails the call. */
  readonly onResponse?: (info: ResponseInfo) => void;
  /** Replaces the backoff timer (tests, custom schedulers). */
  readonly sleep?: Sleep;
  /** Replaces `Date.now` (for `Retry-After` dates and cache timestamps). */
  readonly now?: () => number;
  /**
   * `createClient` refuses to run in a browser, where the key would be visible to every user.
   * Set this only where browser-like globals exist on a server (jsdom tests, …).
   */
  readonly dangerouslyAllowBrowser?: boolean;
}

/** Options every call takes. */
export interface CallOptions {
  /** Aborting rejects the call at once with the signal's reason (also during a backoff wait). */
  readonly signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  readonly timeoutMs?: number;
  /** Overrides the client's retry policy (field by field), or `false` for one attempt. */
  readonly retry?: RetryOptions | false;
  /** `false`: neither send `If-None-Match` nor store the answer. */
  readonly cache?: false;
}

/** Options of the calls that return blogs. */
export interface FieldsOptions<F extends BlogField = BlogField> {
  /**
   * Only these `Blog` properties (and `id`, always), e.g. `["slug", "title"] as const`: a listing
   * without bodies is a fraction of the bytes. The result's type has only these fields. Absent:
   * the whole blog. Each set is its own representation, with its own ETag and cache entry.
   */
  readonly fields?: readonly F[];
}

export interface GetOptions<F extends BlogField = BlogField>
  extends CallOptions,
    FieldsOptions<F> {}

export interface ListOptions<F extends BlogField = BlogField>
  extends CallOptions,
    FieldsOptions<F> {
  /** Page size, 1–100. Server default 20. */
  readonly limit?: number;
  /** The previous page's `nextCursor`; absent or `null` for the first page. */
  readonly cursor?: string | null;
  /**
   * Only blogs that carry this tag, or any of these tags (at most 10), in normal form exactly as
   * the API returns tags (`Blog.tags`, `listTags()`): `"release-notes"`, not `"Release Notes"`,
   * which the server refuses with {@link BadRequestError} telling the normal form. A cursor
   * belongs to its tag set: keep the same `tag` while following `nextCursor` (`pages`, `listAll`
   * do). The order and repetitions of the tags do not matter.
   */
  readonly tag?: string | readonly string[];
  /**
   * Search words (1–100 characters, at most 8 words): only blogs in which every word is a word
   * of the title, excerpt, tags or body, the last one matching the start of a word, so a search
   * box can ask as the reader types (`"release no"` finds "Release notes"). Case and accents are
   * ignored. In the list's order; a cursor belongs to its words. Omit it for the plain list (an
   * empty `q` is refused with {@link BadRequestError}, as are more than 8 words).
   */
  readonly q?: string;
  /**
   * Only blogs that name this author (`Author.slug`, at any position of `Blog.authors`). A slug
   * no author has lists no blog. A cursor belongs to this value too.
   */
  readonly author?: Slug;
  /**
   * `true`: only the blogs the editors featured (`Blog.featured`); `false`: only the others.
   * A cursor belongs to this value too.
   */
  readonly featured?: boolean;
  /**
   * Only blogs released at or after this time (an archive's start): a `Date`, or an RFC 3339
   * date-time with its offset (`"2026-03-01T00:00:00Z"`). A cursor belongs to its range.
   */
  readonly releasedAfter?: Date | string;
  /** Only blogs released before this time (an archive's end, exclusive); as `releasedAfter`. */
  readonly releasedBefore?: Date | string;
}

export type ListAllOptions<F extends BlogField = BlogField> = Omit<ListOptions<F>, "cursor">;

/** What `onResponse` receives; it never contains the API key. */
export interface ResponseInfo {
  readonly method: string;
  /** The request URL (the key is never part of it). */
  readonly url: string;
  /** The final status; 200 for an answer served from the cache after a 304. */
  readonly status: number;
  /** HTTP attempts made for this call. */
  readonly attempts: number;
  /** `true` when the server answered 304 and the cached body was used. */
  readonly notModified: boolean;
  readonly requestId: string | undefined;
}
