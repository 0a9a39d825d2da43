import type { Transport } from "../transport.js";
import type { Author, AuthorListResult, CallOptions, Slug } from "../types.js";

/** The workspace's authors (the API's "Authors"): what author pages are made of. */
export interface Authors {
  /**
   * Every author of the workspace (at most 200), by name, whether or not a released blog names
   * them yet. Retries and the ETag cache apply.
   */
  list(options?: CallOptions): Promise<AuthorListResult>;
  /**
   * The author with this slug (`Author.slug`, exact), for an author page; a slug no author has
   * throws {@link NotFoundError}, a string that cannot be a slug {@link BadRequestError}. Their
   * blogs: `blogs.list({ author: slug })`.
   */
  getBySlug(slug: Slug, options?: CallOptions): Promise<Author>;
}

/** The authors resource of a client: every call goes through its `transport`. */
export function authorsApi({ api, run }: Transport): Authors {
  async function list(options: CallOptions = {}): Promise<AuthorListResult> {
    const { data, notModified } = await run(options, (init) => api.GET("/authors", init));
    return { data: data.data, notModified };
  }

  async function getBySlug(slug: Slug, options: CallOptions = {}): Promise<Author> {
    // "" and "." or ".." would name another path once the URL is resolved.
    if (typeof slug !== "string" || slug === "" || slug === "." || slug === "..") {
      throw new TypeError("authors.getBySlug needs an author's slug, as listed by authors.list().");
    }
    const { data } = await run(options, (init) =>
      api.GET("/authors/by-slug/{slug}", { params: { path: { slug } }, ...init }),
    );
    return data;
  }

  return { list, getBySlug };
}
