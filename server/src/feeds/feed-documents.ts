import { generateAtomFeed, generateRssFeed } from "feedsmith";
import type { AuthorsJoined } from "../blogs/blog-authors.js";
import type { ConsumerBlogDoc } from "../blogs/blog-reads.js";
import { toBlog } from "../blogs/blog-view.js";
import type { Blog, JsonFeed } from "../platform/http/consumer-types.js";
import { fillLinkTemplate, homeOf } from "./link-template.js";

/**
 * The public feeds' documents (openapi.yaml, "Feeds"), made by feedsmith, a library of the field
 * that escapes text and attributes for XML: titles, excerpts, author names and tags go in as
 * text, `bodyHtml` as the HTML it is (RSS `content:encoded`, Atom `content type="html"`); JSON
 * Feed is plain JSON, typed by the spec.
 */
export interface FeedSource {
  /** The workspace's name: the feed's title. */
  readonly title: string;
  readonly linkTemplate: string;
  /** This feed's own address (`rel="self"`, `feed_url`). */
  readonly selfUrl: string;
  /** The released blogs, newest release first. */
  readonly blogs: readonly ConsumerBlogDoc[];
  /** The authors they name (blogs/blog-authors.ts). */
  readonly authors: AuthorsJoined;
}

/**
 * A blog's authors as feeds name them: each with their site and picture when they have them,
 * or, for a blog that names none, its byline alone.
 */
const bylineOf = (blog: Blog): { name: string; url?: string; avatar?: string }[] =>
  blog.authors.length === 0
    ? [{ name: blog.authorName }]
    : blog.authors.map((author) => ({
        name: author.name,
        ...(author.websiteUrl === null ? {} : { url: author.websiteUrl }),
        ...(author.avatarUrl === null ? {} : { avatar: author.avatarUrl }),
      }));

const blogsOf = (source: FeedSource): Blog[] =>
  source.blogs.map((doc) => toBlog(doc, source.authors));

const linkOf = (template: string, blog: Blog): string => fillLinkTemplate(template, blog);

/** The newest change of the feed's blogs (Atom's `updated`): its newest blog's, or the epoch. */
const updatedOf = (blogs: readonly Blog[]): Date =>
  new Date(Math.max(0, ...blogs.map((b) => Date.parse(b.updatedAt))));

export function rssOf(source: FeedSource): string {
  const blogs = blogsOf(source);
  return generateRssFeed({
    title: source.title,
    link: homeOf(source.linkTemplate),
    description: `The latest blogs of ${source.title}.`,
    lastBuildDate: updatedOf(blogs),
    atom: { links: [{ href: source.selfUrl, rel: "self", type: "application/rss+xml" }] },
    items: blogs.map((blog) => ({
      title: blog.title,
      link: linkOf(source.linkTemplate, blog),
      guid: { value: blog.id, isPermaLink: false },
      description: blog.excerpt,
      pubDate: new Date(blog.releasedAt),
      categories: blog.tags.map((tag) => ({ name: tag })),
      dc: { creators: bylineOf(blog).map((author) => author.name) },
      content: { encoded: blog.bodyHtml },
    })),
  });
}

export function atomOf(source: FeedSource): string {
  const blogs = blogsOf(source);
  return generateAtomFeed({
    id: source.selfUrl,
    title: { value: source.title, type: "text" },
    updated: updatedOf(blogs),
    links: [
      { href: source.selfUrl, rel: "self", type: "application/atom+xml" },
      { href: homeOf(source.linkTemplate), rel: "alternate", type: "text/html" },
    ],
    entries: blogs.map((blog) => ({
      id: `urn:pressroom:${blog.id}`,
      title: { value: blog.title, type: "text" },
      updated: new Date(blog.updatedAt),
      published: new Date(blog.releasedAt),
      links: [{ href: linkOf(source.linkTemplate, blog), rel: "alternate", type: "text/html" }],
      summary: { value: blog.excerpt, type: "text" },
      content: { value: blog.bodyHtml, type: "html" },
      authors: bylineOf(blog).map(({ name, url }) => ({ name, ...(url ? { uri: url } : {}) })),
      categories: blog.tags.map((tag) => ({ term: tag })),
    })),
  });
}

/** JSON Feed 1.1: plain JSON, typed by the spec's `JsonFeed` (the app serialises it). */
export function jsonFeedOf(source: FeedSource): JsonFeed {
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: source.title,
    home_page_url: homeOf(source.linkTemplate),
    feed_url: source.selfUrl,
    items: blogsOf(source).map((blog) => ({
      id: blog.id,
      url: linkOf(source.linkTemplate, blog),
      title: blog.title,
      summary: blog.excerpt,
      content_html: blog.bodyHtml,
      ...(blog.coverImageUrl === null ? {} : { image: blog.coverImageUrl }),
      date_published: blog.releasedAt,
      date_modified: blog.updatedAt,
      authors: bylineOf(blog),
      tags: blog.tags,
    })),
  };
}

/** The sitemaps protocol's bound of URLs per file. */
export const SITEMAP_MAX_URLS = 50_000;

const XML_TEXT: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => XML_TEXT[c] ?? c);

/**
 * A sitemaps.org `urlset` of the blogs' pages with their last change. Four elements with no
 * namespace play of their own: written here (the protocol's entity escaping, which sitemaps.org
 * requires of every URL), and checked against the protocol's XSD in the tests.
 */
export function sitemapOf(
  linkTemplate: string,
  blogs: readonly { slug: string; _id: string; updatedAt: Date }[],
): string {
  const urls = blogs.map(
    (blog) =>
      `<url><loc>${escapeXml(fillLinkTemplate(linkTemplate, { slug: blog.slug, id: blog._id }))}</loc><lastmod>${blog.updatedAt.toISOString()}</lastmod></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`;
}
