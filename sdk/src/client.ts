import createFetchClient, { type Client } from "openapi-fetch";
import { type CacheStore, cacheKeyPrefix, fetchWithCache, MemoryCacheStore } from "./cache.js";
import { PressroomError } from "./errors.js";
import { fieldsQuery } from "./fields.js";
import type { paths } from "./generated/consumer.js";
import {
  type Answer,
  DEFAULT_RETRY,
  defaultSleep,
  type FetchLike,
  fetchWithRetries,
  type RetryContext,
  type RetryPolicy,
  resolveRetry,
} from "./retry.js";
import { type Changes, changesApi } from "./sync.js";
import type {
  BlogField,
  BlogPage,
  BlogWith,
  CacheOptions,
  CallOptions,
  ClientOptions,
  GetOptions,
  ListAllOptions,
  ListOptions,
  Slug,
  TagListResult,
} from "./types.js";

/** The blog operations of the consumer API. */
export interface Blogs {
  /** One page of released blogs, newest release first. */
  list<F extends BlogField = BlogField>(options?: ListOptions<F>): Promise<BlogPage<BlogWith<F>>>;
  /** Every page, following `nextCursor` until it is `null`. */
  pages<F extends BlogField = BlogField>(
    options?: ListAllOptions<F>,
  ): AsyncGenerator<BlogPage<BlogWith<F>>, void, undefined>;
  /** Every released blog, page after page. */
  listAll<F extends BlogField = BlogField>(
    options?: ListAllOptions<F>,
  ): AsyncGenerator<BlogWith<F>, void, undefined>;
  /** One released blog; a draft, removed or unknown ID throws {@link NotFoundError}. */
  get<F extends BlogField = BlogField>(
    blogId: string,
    options?: GetOptions<F>,
  ): Promise<BlogWith<F>>;
  /**
   * The released blog with this slug (`Blog.slug`, exact: no case folding): the same blog, ETag
   * and cache entry rules, and `fields`, as {@link Blogs.get}. A slug of a draft, removed or
   * unknown blog throws {@link NotFoundError}; a string that cannot be a slug (upper case, other
   * characters, over 100 characters) throws {@link BadRequestError}.
   */
  getBySlug<F extends BlogField = BlogField>(
    slug: Slug,
    options?: GetOptions<F>,
  ): Promise<BlogWith<F>>;
  /**
   * Every tag of the workspace's released blogs with how many carry it, most used first (ties by
   * tag). Each `tag` can be passed as it is to `list({ tag })`. Retries and the ETag cache apply.
   */
  listTags(options?: CallOptions): Promise<TagListResult>;
}

const CONSUMER_PATH = "/api/consumer";
const inspectCustom = Symbol.for("nodejs.util.inspect.custom");

/**
 * A client of the Pressroom consumer API. Create it once and reuse it: its ETag cache is what
 * makes periodic syncs cheap. The API key is held in a closure: it is not a property, and neither
 * `JSON.stringify` nor `util.inspect` can show it.
 */
export class PressroomClient {
  /** The server address the client talks to (without `/api/consumer`). */
  readonly baseUrl: string;
  readonly blogs: Blogs;
  /** The changes feed: keep a copy of the released blogs up to date (see {@link Changes}). */
  readonly changes: Changes;

  constructor(options: ClientOptions) {
    if (options === null || typeof options !== "object") {
      throw new TypeError("createClient needs an options object: { apiKey, baseUrl }.");
    }
    if (isBrowser() && options.dangerouslyAllowBrowser !== true) {
      throw new PressroomError(
        "Pressroom API keys are secrets and belong on a server: createClient() refuses to run " +
          "in a browser, where every visitor could read the key. Call the API from your backend " +
          "(or a server-side rendering step) and send your pages the blogs, not the key. If this " +
          "code does run on a server with browser-like globals (jsdom, …), pass " +
          "dangerouslyAllowBrowser: true.",
        { attempts: 0 },
      );
    }
    const apiKey = checkApiKey(options.apiKey);
    const { origin, apiBase } = checkBaseUrl(options.baseUrl);
    this.baseUrl = origin;
    const transport = transportOf(apiBase, apiKey, options);
    this.blogs = blogsApi(transport);
    this.changes = changesApi(transport);
  }

  /** `JSON.stringify(client)`: the address only. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  /** `util.inspect(client)` / `console.log(client)`: the address only. */
  [inspectCustom](): string {
    return `PressroomClient { baseUrl: ${JSON.stringify(this.baseUrl)} }`;
  }
}

/** Creates a {@link PressroomClient}. */
export function createClient(options: ClientOptions): PressroomClient {
  return new PressroomClient(options);
}

/** Runs one call of the API: the request through cache → retries → transport, typed outcome. */
export type Runner = <T>(
  call: CallOptions,
  send: (init: { fetch: FetchLike; signal?: AbortSignal }) => Promise<Outcome<T>>,
) => Promise<{ data: T; notModified: boolean }>;

/** What every resource of the client sends its calls through. */
export interface Transport {
  readonly api: Client<paths>;
  readonly run: Runner;
}

function transportOf(apiBase: string, apiKey: string, options: ClientOptions): Transport {
  const timeoutMs = checkTimeout(options.timeoutMs ?? 10_000);
  const policy: RetryPolicy = resolveRetry(DEFAULT_RETRY, options.retry);
  const store = cacheStoreOf(options.cache);
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const onResponse = options.onResponse;
  // Looked up at each request, so a fetch installed after createClient (instrumentation) is used.
  const transport: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const redact = (text: string) => text.split(apiKey).join("[redacted]");
  let keyPrefix: Promise<string> | undefined;

  /** How a call's request is sent: cache → retries → transport. */
  const pipeline =
    (call: CallOptions) =>
    (request: Request): Promise<Answer> => {
      const retry: RetryContext = {
        transport,
        policy: resolveRetry(policy, call.retry),
        timeoutMs: call.timeoutMs === undefined ? timeoutMs : checkTimeout(call.timeoutMs),
        sleep,
        now,
        random: Math.random,
        redact,
      };
      const next = (r: Request) => fetchWithRetries(r, retry);
      if (store === undefined || call.cache === false || request.method !== "GET") {
        return next(request);
      }
      keyPrefix ??= cacheKeyPrefix(apiKey);
      const prefix = keyPrefix;
      return fetchWithCache(request, { store, keyPrefix: () => prefix, now, next });
    };

  const api: Client<paths> = createFetchClient<paths>({
    baseUrl: apiBase,
    headers: { "x-api-key": apiKey, accept: "application/json" },
    // Every call passes a fetch of its own (see `run`); without one, a call still goes through here.
    fetch: async (request) => (await pipeline({})(request)).response,
  });

  /** Runs one openapi-fetch call and turns its outcome into data or a typed error. */
  async function run<T>(
    call: CallOptions,
    send: (init: { fetch: FetchLike; signal?: AbortSignal }) => Promise<Outcome<T>>,
  ): Promise<{ data: T; notModified: boolean }> {
    const through = pipeline(call);
    let sent: Request | undefined;
    // What the call's one request got: openapi-fetch hands back `answer.response` as is.
    let answer: Answer | undefined;
    const fetch: FetchLike = async (request) => {
      sent = request;
      answer = await through(request);
      return answer.response;
    };
    let outcome: Outcome<T>;
    try {
      outcome = await send({
        fetch,
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      });
    } catch (error) {
      if (error instanceof SyntaxError && answer !== undefined) {
        const { status, headers } = answer.response;
        throw new PressroomError(
          redact(`The Pressroom API answered with a body that is not JSON (HTTP ${status}).`),
          {
            status,
            requestId: headers.get("x-request-id") ?? undefined,
            attempts: answer.attempts,
            cause: error,
          },
        );
      }
      throw error;
    }
    const { response } = outcome;
    const attempts = answer?.attempts ?? 1;
    const notModified = answer?.notModified ?? false;
    onResponse?.({
      method: sent?.method ?? "GET",
      url: sent?.url ?? "",
      status: response.status,
      attempts,
      notModified,
      requestId: response.headers.get("x-request-id") ?? undefined,
    });
    if (response.ok && outcome.data !== undefined) {
      return { data: outcome.data, notModified };
    }
    throw PressroomError.fromResponse(response, outcome.error, {
      attempts,
      retryAfterMs: answer?.retryAfterMs,
      redact,
    });
  }

  return { api, run };
}

function blogsApi({ api, run }: Transport): Blogs {
  async function list<F extends BlogField = BlogField>(
    options: ListOptions<F> = {},
  ): Promise<BlogPage<BlogWith<F>>> {
    const { limit, cursor } = options;
    const query = {
      ...(limit === undefined ? {} : { limit }),
      ...(cursor === undefined || cursor === null ? {} : { cursor }),
      ...tagQuery(options.tag),
      ...fieldsQuery(options.fields),
    };
    const { data, notModified } = await run(options, (init) =>
      api.GET("/blogs", { params: { query }, ...init }),
    );
    // The server sends the fields asked for (the whole Blog without `fields`), as its response
    // schema says (BlogList or PartialBlogList): the narrower type is what `fields` selected.
    const items = data.data as BlogWith<F>[];
    return { data: items, nextCursor: data.nextCursor, notModified };
  }

  async function* pages<F extends BlogField = BlogField>(
    options: ListAllOptions<F> = {},
  ): AsyncGenerator<BlogPage<BlogWith<F>>, void, undefined> {
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: BlogPage<BlogWith<F>> = await list<F>({ ...options, cursor });
      yield page;
      cursor = page.nextCursor;
      if (cursor !== null) {
        if (seen.has(cursor)) {
          const message = "The list repeated a cursor; stopped to avoid an endless walk.";
          throw new PressroomError(message, { attempts: 0 });
        }
        seen.add(cursor);
      }
    } while (cursor !== null);
  }

  async function* listAll<F extends BlogField = BlogField>(
    options: ListAllOptions<F> = {},
  ): AsyncGenerator<BlogWith<F>, void, undefined> {
    for await (const page of pages<F>(options)) yield* page.data;
  }

  async function get<F extends BlogField = BlogField>(
    blogId: string,
    options: GetOptions<F> = {},
  ): Promise<BlogWith<F>> {
    if (typeof blogId !== "string" || blogId === "" || blogId === "." || blogId === "..") {
      throw new TypeError("blogs.get needs a blog ID, as listed by blogs.list().");
    }
    const query = fieldsQuery(options.fields);
    const { data } = await run(options, (init) =>
      api.GET("/blogs/{blogId}", { params: { path: { blogId }, query }, ...init }),
    );
    // As in `list`: the server sends exactly the fields asked for.
    return data as BlogWith<F>;
  }

  async function getBySlug<F extends BlogField = BlogField>(
    slug: Slug,
    options: GetOptions<F> = {},
  ): Promise<BlogWith<F>> {
    // "" would be the path of get("by-slug"), and "." or ".." would be resolved away by URL.
    if (typeof slug !== "string" || slug === "" || slug === "." || slug === "..") {
      throw new TypeError("blogs.getBySlug needs a blog's slug, as listed by blogs.list().");
    }
    const query = fieldsQuery(options.fields);
    const { data } = await run(options, (init) =>
      api.GET("/blogs/by-slug/{slug}", { params: { path: { slug }, query }, ...init }),
    );
    // As in `get`: the server sends exactly the fields asked for.
    return data as BlogWith<F>;
  }

  async function listTags(options: CallOptions = {}): Promise<TagListResult> {
    const { data, notModified } = await run(options, (init) => api.GET("/tags", init));
    return { data: data.data, notModified };
  }

  return { list, pages, listAll, get, getBySlug, listTags };
}

/**
 * `tag` as the query parameter (`tag=a&tag=b`): each tag once, sorted, so the same set is always
 * the same URL (one cache entry, one ETag); absent when not given. Values are sent as they are:
 * one that is not in normal form gets the server's 400 telling its normal form.
 */
function tagQuery(tag: string | readonly string[] | undefined): { tag?: string[] } {
  if (tag === undefined) return {};
  const tags = typeof tag === "string" ? [tag] : tag;
  if (!Array.isArray(tags) || tags.length === 0 || !tags.every((t) => typeof t === "string")) {
    throw new TypeError("tag must be a tag or a non-empty array of tags.");
  }
  return { tag: [...new Set(tags)].sort() };
}

export interface Outcome<T> {
  readonly data?: T | undefined;
  readonly error?: unknown;
  readonly response: Response;
}

/** Browser detection: all three globals a page has and a server normally lacks. */
function isBrowser(): boolean {
  return "window" in globalThis && "document" in globalThis && "navigator" in globalThis;
}

function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new TypeError("createClient needs apiKey: a workspace API key (cp_live_…).");
  }
  for (let i = 0; i < apiKey.length; i++) {
    const code = apiKey.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) {
      // Never quote the key: it would end up in logs.
      throw new TypeError("apiKey contains a character that cannot be sent in an HTTP header.");
    }
  }
  return apiKey.trim();
}

function checkBaseUrl(baseUrl: unknown): { origin: string; apiBase: string } {
  if (typeof baseUrl !== "string" || !URL.canParse(baseUrl)) {
    throw new TypeError("createClient needs baseUrl: the Pressroom server, e.g. https://host.");
  }
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("baseUrl must be an http: or https: URL.");
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new TypeError("baseUrl must not contain credentials, a query or a fragment.");
  }
  const path = url.pathname.replace(/\/+$/, "");
  const root = path.endsWith(CONSUMER_PATH) ? path.slice(0, -CONSUMER_PATH.length) : path;
  const origin = `${url.origin}${root}`;
  return { origin, apiBase: `${origin}${CONSUMER_PATH}` };
}

function checkTimeout(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError("timeoutMs must be a positive number of milliseconds.");
  }
  return timeoutMs;
}

function cacheStoreOf(cache: CacheOptions | false | undefined): CacheStore | undefined {
  if (cache === false) return undefined;
  return cache?.store ?? new MemoryCacheStore({ maxEntries: cache?.maxEntries ?? 500 });
}
