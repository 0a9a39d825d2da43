import type { FeedChange } from "../changes/changes-feed.js";
import type { BlogDoc } from "../platform/db/collections.js";
import type { AdminBlog } from "../platform/http/admin-types.js";
import type { Blog, Change } from "../platform/http/consumer-types.js";
import { type AuthorsJoined, toAdminAuthor, toConsumerAuthor } from "./blog-authors.js";
import { versionOf } from "./blog-rules.js";
import type { EditedBlog } from "./blog-staging.js";

/**
 * The spec's `Blog` properties in the spec's order: the order of every blog's keys, whole or
 * partial (openapi.yaml, "Choosing fields"). The type below fails to compile when one is missing.
 */
export const BLOG_FIELDS = [
  "id",
  "slug",
  "title",
  "excerpt",
  "bodyMarkdown",
  "bodyHtml",
  "tags",
  "authorName",
  "authors",
  "coverImageUrl",
  "coverImageAlt",
  "coverImage",
  "featured",
  "metaTitle",
  "metaDescription",
  "canonicalUrl",
  "socialImageUrl",
  "readingTimeMinutes",
  "releasedAt",
  "updatedAt",
] as const satisfies readonly (keyof Blog)[];

export type BlogField = (typeof BLOG_FIELDS)[number];
// Every Blog property is listed: otherwise this is `never` and the assignment fails.
const everyPropertyListed: Exclude<keyof Blog, BlogField> extends never ? true : never = true;
void everyPropertyListed;

/**
 * The stored fields the whole consumer `Blog` is made of: what its reads project (blog-reads.ts),
 * so that the editor's own fields (search terms, outbox, …) are never read for a consumer. Each
 * property's `stored` below must be among them, or it does not compile.
 */
export const VIEW_STORED = [
  "_id",
  "slug",
  "title",
  "excerpt",
  "bodyMarkdown",
  "bodyHtml",
  "tags",
  "authorName",
  "authorIds",
  "coverImageUrl",
  "coverImageAlt",
  "featured",
  "metaTitle",
  "metaDescription",
  "canonicalUrl",
  "socialImageUrl",
  "readingTimeMinutes",
  "releasedAt",
  "updatedAt",
] as const satisfies readonly (keyof BlogDoc)[];

type ViewStored = (typeof VIEW_STORED)[number];

/** A stored blog as the consumer view reads it: the fields of `VIEW_STORED`. */
export type BlogViewDoc = Pick<BlogDoc, ViewStored>;

/** How one property of the consumer `Blog` is made from a stored blog. */
export interface BlogProperty<K extends BlogField> {
  /** The stored fields it is made of: what a `fields` selection of it reads (its projection). */
  readonly stored: readonly [ViewStored, ...ViewStored[]];
  /**
   * It is its stored field as it is: read from a projection that missed that field it would
   * silently go missing from the answer, so a partial blog refuses (field-selection.ts).
   */
  readonly asStored?: true;
  /** Made of the blog's authors too (blog-authors.ts): its answers join them, and their ETags. */
  readonly joinsAuthors?: true;
  readonly of: (doc: BlogViewDoc, authors: AuthorsJoined) => Blog[K];
}

/**
 * The consumer view of a stored blog, property by property: explicit fields, ISO strings, no
 * `_id`, nothing extra. The one definition of `Blog`: `toBlog` (every property), `toPartialBlog`
 * and the projection of a `fields` selection (field-selection.ts) are all made from it.
 */
export const BLOG_VIEW: { readonly [K in BlogField]: BlogProperty<K> } = {
  id: { stored: ["_id"], of: (doc) => doc._id },
  slug: { stored: ["slug"], asStored: true, of: (doc) => doc.slug },
  title: { stored: ["title"], asStored: true, of: (doc) => doc.title },
  excerpt: { stored: ["excerpt"], asStored: true, of: (doc) => doc.excerpt },
  bodyMarkdown: { stored: ["bodyMarkdown"], asStored: true, of: (doc) => doc.bodyMarkdown },
  bodyHtml: { stored: ["bodyHtml"], asStored: true, of: (doc) => doc.bodyHtml },
  tags: { stored: ["tags"], asStored: true, of: (doc) => doc.tags },
  // The primary author's name; the byline while the blog names none (openapi.yaml, "Authors").
  authorName: {
    stored: ["authorName", "authorIds"],
    joinsAuthors: true,
    of: (doc, authors) => authors.of(doc)[0]?.name ?? doc.authorName,
  },
  authors: {
    stored: ["authorIds"],
    joinsAuthors: true,
    of: (doc, authors) => authors.of(doc).map(toConsumerAuthor),
  },
  coverImageUrl: { stored: ["coverImageUrl"], asStored: true, of: (doc) => doc.coverImageUrl },
  // Absent on blogs stored before they existed: their defaults (blog-rules.ts `presentationOf`).
  coverImageAlt: { stored: ["coverImageAlt"], of: (doc) => doc.coverImageAlt ?? null },
  // The cover's library image, read with the authors (blog-authors.ts `coverOf`).
  coverImage: {
    stored: ["coverImageUrl", "coverImageAlt"],
    joinsAuthors: true,
    of: (doc, authors) => authors.coverOf(doc),
  },
  featured: { stored: ["featured"], of: (doc) => doc.featured ?? false },
  metaTitle: { stored: ["metaTitle"], of: (doc) => doc.metaTitle ?? null },
  metaDescription: { stored: ["metaDescription"], of: (doc) => doc.metaDescription ?? null },
  canonicalUrl: { stored: ["canonicalUrl"], of: (doc) => doc.canonicalUrl ?? null },
  socialImageUrl: { stored: ["socialImageUrl"], of: (doc) => doc.socialImageUrl ?? null },
  // Stored by every render; absent only until the start-up migration fills it.
  readingTimeMinutes: { stored: ["readingTimeMinutes"], of: (doc) => doc.readingTimeMinutes ?? 0 },
  releasedAt: {
    stored: ["releasedAt", "updatedAt"],
    of: (doc) => (doc.releasedAt ?? doc.updatedAt).toISOString(),
  },
  updatedAt: { stored: ["updatedAt"], of: (doc) => doc.updatedAt.toISOString() },
};

const V = BLOG_VIEW;

/**
 * Stored blog → the spec's `Blog`: every property of `BLOG_VIEW`, in BLOG_FIELDS' order. One
 * object literal rather than a loop over the names: it is on the path of every list page, and a
 * literal is built in one step with its final shape (a loop is about 30% slower per blog).
 */
export function toBlog(doc: BlogViewDoc, authors: AuthorsJoined): Blog {
  return {
    id: V.id.of(doc, authors),
    slug: V.slug.of(doc, authors),
    title: V.title.of(doc, authors),
    excerpt: V.excerpt.of(doc, authors),
    bodyMarkdown: V.bodyMarkdown.of(doc, authors),
    bodyHtml: V.bodyHtml.of(doc, authors),
    tags: V.tags.of(doc, authors),
    authorName: V.authorName.of(doc, authors),
    authors: V.authors.of(doc, authors),
    coverImageUrl: V.coverImageUrl.of(doc, authors),
    coverImageAlt: V.coverImageAlt.of(doc, authors),
    coverImage: V.coverImage.of(doc, authors),
    featured: V.featured.of(doc, authors),
    metaTitle: V.metaTitle.of(doc, authors),
    metaDescription: V.metaDescription.of(doc, authors),
    canonicalUrl: V.canonicalUrl.of(doc, authors),
    socialImageUrl: V.socialImageUrl.of(doc, authors),
    readingTimeMinutes: V.readingTimeMinutes.of(doc, authors),
    releasedAt: V.releasedAt.of(doc, authors),
    updatedAt: V.updatedAt.of(doc, authors),
  };
}

/** A change of the feed → the spec's `Change`: the blog as `Blog`, or the id and time of a delete. */
export function toChange(change: FeedChange, authors: AuthorsJoined): Change {
  return change.type === "upsert"
    ? { type: "upsert", blog: toBlog(change.blog, authors) }
    : { type: "delete", id: change.id, at: change.at.toISOString() };
}

/** What the editor works on: the pending changes of a released blog, when it has some. */
export const workingVersion = (doc: EditedBlog): BlogDoc =>
  doc.pending === undefined ? doc : { ...doc, ...doc.pending };

/**
 * Stored blog → the admin spec's `AdminBlog`: the consumer shape plus the editor's fields; the
 * byline as written (consumers read the primary author's name instead) and the authors whole.
 */
export function toAdminBlog(doc: EditedBlog, authors: AuthorsJoined): AdminBlog {
  const working = workingVersion(doc);
  // The admin blog has no `coverImage` (admin.yaml `AdminBlog`): the editor works on the URL.
  const { coverImage: _consumersOnly, ...shown } = toBlog(working, authors);
  return {
    ...shown,
    authorName: working.authorName,
    authors: authors.of(working).map(toAdminAuthor),
    status: doc.status === "released" ? "released" : "draft",
    createdAt: doc.createdAt.toISOString(),
    releasedAt: doc.releasedAt?.toISOString() ?? null,
    version: versionOf(doc),
    pendingChanges: doc.staged !== undefined,
    schedule: {
      publishAt: doc.schedule?.publishAt?.toISOString() ?? null,
      unreleaseAt: doc.schedule?.unreleaseAt?.toISOString() ?? null,
    },
  };
}

/**
 * What identifies this version of a blog's `toBlog` output: a new `revision` on every write,
 * plus the times (for blogs stored before revisions existed). Never reads the content, so a
 * conditional request can be answered from a projection.
 */
export function validatorOf(
  doc: Pick<BlogDoc, "_id" | "updatedAt" | "releasedAt" | "revision">,
): string {
  return `${doc._id}.${doc.revision ?? ""}.${doc.updatedAt.getTime()}.${doc.releasedAt?.getTime() ?? ""}`;
}
