import { normaliseTag } from "@pressroom/tag-rule";
import type { AdminBlog, Author, BlogInput, BlogPatch } from "../../api.js";

/** An author the form names: the ID is what is sent, the name what the form shows. */
export type AuthorRef = Pick<Author, "id" | "name">;

/** The editor's form values, as typed. */
export interface Draft {
  title: string;
  slug: string;
  tags: string;
  coverImageUrl: string;
  coverImageAlt: string;
  featured: boolean;
  excerpt: string;
  authorName: string;
  /** The authors the blog names, in order: the first is the primary author. */
  authors: AuthorRef[];
  bodyMarkdown: string;
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
  socialImageUrl: string;
}

/**
 * Every field, in the order comparisons list them (the conflict dialog, the history): the body
 * last, as its line diff comes after the fields.
 */
export const DRAFT_FIELDS: readonly (keyof Draft)[] = [
  "title",
  "slug",
  "excerpt",
  "tags",
  "authorName",
  "authors",
  "coverImageUrl",
  "coverImageAlt",
  "featured",
  "metaTitle",
  "metaDescription",
  "canonicalUrl",
  "socialImageUrl",
  "bodyMarkdown",
];

/** The fields a text control edits (all but the Featured checkbox). */
export type TextField = { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft];

export const EMPTY_DRAFT: Draft = {
  title: "",
  slug: "",
  tags: "",
  coverImageUrl: "",
  coverImageAlt: "",
  featured: false,
  excerpt: "",
  authorName: "",
  authors: [],
  bodyMarkdown: "",
  metaTitle: "",
  metaDescription: "",
  canonicalUrl: "",
  socialImageUrl: "",
};

/**
 * The optional fields the server stores as null when empty (admin.yaml: empty, blank or null
 * is "none"), each with what is sent of it: URLs trimmed, plain text as one line.
 */
export type NullableField =
  | "coverImageUrl"
  | "coverImageAlt"
  | "metaTitle"
  | "metaDescription"
  | "canonicalUrl"
  | "socialImageUrl";

/**
 * The one-line plain-text fields (admin.yaml refuses control characters in them): what is typed
 * over several lines, or with tabs, is sent with each run of blanks as one space.
 */
export const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

const SENT: Record<NullableField, (typed: string) => string> = {
  coverImageUrl: (t) => t.trim(),
  coverImageAlt: oneLine,
  metaTitle: oneLine,
  metaDescription: oneLine,
  canonicalUrl: (t) => t.trim(),
  socialImageUrl: (t) => t.trim(),
};
const NULLABLE = Object.keys(SENT) as NullableField[];

/** What a nullable field's typed text is saved as: null when it is empty. */
export const sentOf = (field: NullableField, typed: string): string | null =>
  SENT[field](typed) || null;

export const draftOf = (blog: AdminBlog): Draft => ({
  title: blog.title,
  slug: blog.slug,
  tags: blog.tags.join(", "),
  coverImageUrl: blog.coverImageUrl ?? "",
  coverImageAlt: blog.coverImageAlt ?? "",
  featured: blog.featured === true,
  excerpt: blog.excerpt,
  authorName: blog.authorName,
  // A blog from a server before authors (or kept before them) names none.
  authors: (blog.authors ?? []).map(({ id, name }) => ({ id, name })),
  bodyMarkdown: blog.bodyMarkdown,
  metaTitle: blog.metaTitle ?? "",
  metaDescription: blog.metaDescription ?? "",
  canonicalUrl: blog.canonicalUrl ?? "",
  socialImageUrl: blog.socialImageUrl ?? "",
});

/** The IDs a write sends of the authors (admin.yaml, BlogAuthorIds). */
export const authorIdsOf = (authors: readonly AuthorRef[]): string[] => authors.map((a) => a.id);

/** The same authors in the same order. */
export const sameAuthors = (a: readonly AuthorRef[], b: readonly AuthorRef[]): boolean =>
  authorIdsOf(a).join("\n") === authorIdsOf(b).join("\n");

/** "news, Release notes ,news" → ["news", "Release notes"]. */
export const parseTags = (text: string): string[] => [
  ...new Set(
    text
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== ""),
  ),
];

/**
 * The Tags field as the server will store it (the rule of openapi.yaml's "Tags", the server's
 * own module): each tag in normal form, repeats in normal form dropped, first kept. `problem`
 * names the first tag that cannot be stored (the field is then left as typed).
 */
export function committedTags(text: string): { tags: string[]; problem: string | null } {
  const tags: string[] = [];
  for (const raw of parseTags(text)) {
    const normal = normaliseTag(raw);
    if (!normal.ok) return { tags: parseTags(text), problem: normal.problem };
    if (normal.tag !== "" && !tags.includes(normal.tag)) tags.push(normal.tag);
  }
  return { tags, problem: null };
}

/** The tags a save sends: their normal forms (or, if one cannot be stored, as typed: the server's 400 names it). */
const tagsOf = (text: string): string[] => committedTags(text).tags;

/** A new draft: empty optional fields are left out, so the server fills them in. */
export function inputOf(d: Draft): BlogInput {
  const input: BlogInput = {
    title: d.title.trim(),
    bodyMarkdown: d.bodyMarkdown,
    tags: tagsOf(d.tags),
    coverImageUrl: sentOf("coverImageUrl", d.coverImageUrl),
  };
  if (d.slug.trim()) input.slug = d.slug.trim();
  if (oneLine(d.excerpt)) input.excerpt = oneLine(d.excerpt);
  if (d.authorName.trim()) input.authorName = d.authorName.trim();
  if (d.authors.length > 0) input.authors = authorIdsOf(d.authors);
  for (const field of NULLABLE) {
    const sent = sentOf(field, d[field]);
    if (sent !== null) input[field] = sent;
  }
  if (d.featured) input.featured = true;
  return input;
}

/** Only what changed (an emptied slug keeps the current one). Empty when nothing did. */
export function patchOf(blog: AdminBlog, d: Draft): BlogPatch {
  const patch: BlogPatch = {};
  const tags = tagsOf(d.tags);
  if (d.title.trim() !== blog.title) patch.title = d.title.trim();
  if (d.slug.trim() !== "" && d.slug.trim() !== blog.slug) patch.slug = d.slug.trim();
  if (tags.join("\n") !== blog.tags.join("\n")) patch.tags = tags;
  // A blog read from an older copy (a kept local copy) may lack the newer fields: none.
  for (const field of NULLABLE) {
    const sent = sentOf(field, d[field]);
    if (sent !== (blog[field] ?? null)) patch[field] = sent;
  }
  if (d.featured !== (blog.featured === true)) patch.featured = d.featured;
  if (oneLine(d.excerpt) !== blog.excerpt) patch.excerpt = oneLine(d.excerpt);
  if (d.authorName.trim() !== blog.authorName) patch.authorName = d.authorName.trim();
  if (!sameAuthors(d.authors, blog.authors ?? [])) patch.authors = authorIdsOf(d.authors);
  if (d.bodyMarkdown !== blog.bodyMarkdown) patch.bodyMarkdown = d.bodyMarkdown;
  return patch;
}

/** Nothing typed yet: every field as it started. */
export const isBlank = (d: Draft, start: Draft): boolean =>
  (Object.keys(start) as (keyof Draft)[]).every((field) => {
    const [now, then] = [d[field], start[field]];
    if (Array.isArray(now) && Array.isArray(then)) return sameAuthors(now, then);
    return typeof now === "string" && typeof then === "string"
      ? now.trim() === then.trim()
      : now === then;
  });
