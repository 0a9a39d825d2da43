import { type CollectionEntry, getCollection } from "astro:content";

export type Post = CollectionEntry<"blog">;

/** Every post, newest release first. */
export async function posts(): Promise<Post[]> {
  const all = await getCollection("blog");
  return all.sort((a, b) => b.data.releasedAt.localeCompare(a.data.releasedAt));
}

/**
 * The workspace's public RSS feed (README.md, "Public feeds"), when the owner turned feeds on:
 * `https://pressroom.example.com/api/consumer/feeds/pf_…/rss.xml`. Its link template must be
 * this site's post address, `${SITE_URL}/blog/{slug}/`.
 */
export const feedUrl: string | undefined = process.env.PRESSROOM_FEED_URL || undefined;

export interface Author {
  readonly name: string;
  readonly slug: string;
  readonly bio: string | null;
  readonly websiteUrl: string | null;
}

/**
 * A post's authors (the API's "Authors"): the workspace's authors it names, in order; for a blog
 * that names none, its byline (`authorName`), whose page's slug is made from it. Every page goes
 * through this function.
 */
export function authorsOf(post: Post): Author[] {
  if (post.data.authors.length > 0) return post.data.authors;
  const name = post.data.authorName;
  return [{ name, slug: slugOf(name), bio: null, websiteUrl: null }];
}

const slugOf = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-|-$/g, "") || "author";

export const postPath = (post: Post): string => `/blog/${post.data.slug}/`;
export const tagPath = (tag: string): string => `/tags/${encodeURIComponent(tag)}/`;
export const authorPath = (author: Author): string => `/authors/${author.slug}/`;
