import { PressroomError } from "../errors.js";
import { fieldsQuery } from "../fields.js";
import type { Transport } from "../transport.js";
import type {
  BlogField,
  BlogPage,
  BlogWith,
  CallOptions,
  GetOptions,
  ListAllOptions,
  ListOptions,
  Slug,
  TagListResult,
} from "../types.js";

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

/** The blogs resource of a client: every call goes through its `transport`. */
export function blogsApi({ api, run }: Transport): Blogs {
  async function list<F extends BlogField = BlogField>(
    options: ListOptions<F> = {},
  ): Promise<BlogPage<BlogWith<F>>> {
    const { limit, cursor } = options;
    const query = {
      ...(limit === undefined ? {} : { limit }),
      ...(cursor === undefined || cursor === null ? {} : { cursor }),
      ...tagQuery(options.tag),
      ...searchQuery(options.q),
      ...authorQuery(options.author),
      ...featuredQuery(options.featured),
      ...timeQuery("releasedAfter", options.releasedAfter),
      ...timeQuery("releasedBefore", options.releasedBefore),
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

/** `q` as the query parameter; absent when not given. */
function searchQuery(q: string | undefined): { q?: string } {
  if (q === undefined) return {};
  if (typeof q !== "string") throw new TypeError("q must be a string of search words.");
  return { q };
}

/** `author` as the query parameter; absent when not given. */
function authorQuery(author: string | undefined): { author?: string } {
  if (author === undefined) return {};
  if (typeof author !== "string" || author === "") {
    throw new TypeError("author must be an author's slug, as listed by authors.list().");
  }
  return { author };
}

/** `featured` as the query parameter; absent when not given. */
function featuredQuery(featured: boolean | undefined): { featured?: boolean } {
  if (featured === undefined) return {};
  if (typeof featured !== "boolean") throw new TypeError("featured must be true or false.");
  return { featured };
}

/**
 * An archive bound as its query parameter: a `Date` as its ISO string (UTC, milliseconds), a
 * string as given (the server's 400 names one that is not RFC 3339); absent when not given.
 */
function timeQuery<K extends "releasedAfter" | "releasedBefore">(
  name: K,
  at: Date | string | undefined,
): { [P in K]?: string } {
  if (at === undefined) return {};
  if (at instanceof Date) {
    if (Number.isNaN(at.getTime())) throw new TypeError(`${name} must be a valid Date.`);
    return { [name]: at.toISOString() } as { [P in K]?: string };
  }
  if (typeof at !== "string") throw new TypeError(`${name} must be a Date or a string.`);
  return { [name]: at } as { [P in K]?: string };
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
