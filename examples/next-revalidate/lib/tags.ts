/**
 * The cache tags this site gives Pressroom data, in one place: the pages tag what they fetch
 * with these, and the webhook route revalidates the same strings.
 */

/** Every fetch whose answer depends on which blogs are released: the list, slug → id lookups. */
export const BLOGS_TAG = "pressroom:blogs";

/** One blog's content, fetched by its id (an id never changes; a slug may). */
export const blogTag = (blogId: string): string => `pressroom:blog:${blogId}`;
