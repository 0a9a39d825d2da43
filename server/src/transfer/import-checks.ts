/**
 * The blog rules (blogs/blog-rules.ts, admin.yaml `BlogInput`) applied to an imported entry
 * before anything is written: every problem of an entry, by field, so that one run names all.
 */

import { normaliseTags } from "@pressroom/tag-rule";
import { coverUrlOf, type Presentation } from "../blogs/blog-rules.js";
import { slugify } from "../blogs/render.js";
import type { ImportAuthor, ImportAuthorRef, ImportBlog, ImportProblem } from "./import-set.js";

/** admin.yaml `BlogInput`'s limits. */
export const LIMITS = {
  title: 200,
  slug: 80,
  excerpt: 500,
  body: 200_000,
  tags: 20,
  author: 100,
  /** Authors a blog names (admin.yaml `BlogAuthorIds`). */
  authors: 10,
  /** As stored (admin.yaml `StoredAuthorSlug`): a slug made from a name may pass 80 with `-2`. */
  authorSlug: 100,
  /** An author's bio and URLs (admin.yaml `AuthorBioInput`, `AuthorUrlInput`). */
  bio: 500,
  authorUrl: 1000,
  coverImageAlt: 300,
  metaTitle: 300,
  metaDescription: 500,
};

/** The presentation fields that are one line of plain text, each with its limit in `LIMITS`. */
export const PRESENTATION_TEXT = ["coverImageAlt", "metaTitle", "metaDescription"] as const;
/** The presentation fields that are public URLs, by the cover's rule (`coverUrlOf`). */
export const PRESENTATION_URLS = ["canonicalUrl", "socialImageUrl"] as const;

/** Controls, bidi overrides and isolates: refused in every one-line text field (admin.yaml). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
const LINE_REFUSED = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

const STATUSES = new Set(["draft", "released", "removed"]);

/** A bio's refused characters (admin.yaml `AuthorBioInput`): line breaks are allowed. */
const BIO_REFUSED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function lineProblem(name: string, value: string, max: number): string | null {
  if (value.length > max) return `"${name}" is longer than ${max} characters (${value.length}).`;
  if (LINE_REFUSED.test(value)) return `"${name}" contains a control character or a bidi override.`;
  return null;
}

/** A slug's rule (admin.yaml `StoredAuthorSlug`): letters, digits and single dashes between. */
const SLUG_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What is wrong with an author's name and slug (admin.yaml `AuthorName`, `StoredAuthorSlug`). */
function authorRefProblems(author: ImportAuthorRef, name: string): (string | null)[] {
  const problems: (string | null)[] = [];
  if (typeof author.name !== "string" || author.name.trim() === "") {
    problems.push(`"${name}.name" must not be blank.`);
  } else problems.push(lineProblem(`${name}.name`, author.name, LIMITS.author));
  if (
    typeof author.slug !== "string" ||
    author.slug.length > LIMITS.authorSlug ||
    !SLUG_RULE.test(author.slug)
  ) {
    problems.push(
      `"${name}.slug" must be lower-case letters, digits and dashes, at most ${LIMITS.authorSlug}.`,
    );
  }
  return problems;
}

/**
 * Every problem of a source's authors (import-set.ts `ImportAuthor`): the rules of an author's
 * fields (admin.yaml `AuthorInput`), one slug once; located `authors[2] "ada"`.
 */
export function authorProblems(authors: readonly ImportAuthor[]): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const seen = new Set<string>();
  authors.forEach((author, i) => {
    const where = `authors[${i}] "${author.slug}"`;
    const found: (string | null)[] = authorRefProblems(author, "author");
    if (author.bio != null) {
      if (author.bio.length > LIMITS.bio)
        found.push(`"bio" is longer than ${LIMITS.bio} characters.`);
      else if (BIO_REFUSED.test(author.bio)) {
        found.push(`"bio" contains a control character or a bidi override.`);
      }
    }
    for (const field of ["avatarUrl", "websiteUrl"] as const) {
      const url = author[field];
      const checked = url == null || url === "" ? null : coverUrlOf(url);
      if (checked !== null && "problem" in checked) found.push(`"${field}" ${checked.problem}.`);
      else if (url != null && url.length > LIMITS.authorUrl) {
        found.push(`"${field}" is longer than ${LIMITS.authorUrl} characters.`);
      }
    }
    if (seen.has(author.slug)) found.push(`slug "${author.slug}" is listed twice.`);
    seen.add(author.slug);
    for (const message of found) if (message !== null) problems.push({ where, message });
  });
  return problems;
}

/** The cover URL as the blog rules store it (`URL.href`), or null when they refuse it. */
export function coverUrl(url: string): string | null {
  const cover = coverUrlOf(url);
  return "href" in cover ? cover.href : null;
}

/**
 * An entry's presentation fields as the blog rules store them (blog-rules.ts `content`): text
 * trimmed, blank → null; URLs in their normal form. Only for an entry `entryProblems` passed.
 */
export function presentationOfEntry(blog: ImportBlog): Presentation {
  const text = (value: string | null) => value?.trim() || null;
  const url = (value: string | null) => (value === null || value === "" ? null : coverUrl(value));
  return {
    coverImageAlt: text(blog.coverImageAlt),
    featured: blog.featured,
    metaTitle: text(blog.metaTitle),
    metaDescription: text(blog.metaDescription),
    canonicalUrl: url(blog.canonicalUrl),
    socialImageUrl: url(blog.socialImageUrl),
  };
}

const validDate = (d: Date): boolean => d instanceof Date && !Number.isNaN(d.getTime());

/** What is wrong with one entry, each message naming its field; empty when nothing is. */
export function entryProblems(blog: ImportBlog): string[] {
  const problems: (string | null)[] = [];
  const title = blog.title.trim();
  problems.push(
    title === "" ? `"title" is blank.` : lineProblem("title", blog.title, LIMITS.title),
  );
  if (blog.slug.length > LIMITS.slug || slugify(blog.slug) !== blog.slug) {
    problems.push(
      `"slug" must be lower-case letters, digits and dashes, at most ${LIMITS.slug} (try "${slugify(blog.slug)}").`,
    );
  }
  if (!STATUSES.has(blog.status)) problems.push(`"status" must be draft, released or removed.`);
  if (blog.bodyMarkdown.length > LIMITS.body) {
    problems.push(`"bodyMarkdown" is longer than ${LIMITS.body} characters.`);
  }
  if (blog.excerpt !== undefined)
    problems.push(lineProblem("excerpt", blog.excerpt, LIMITS.excerpt));
  problems.push(lineProblem("authorName", blog.authorName, LIMITS.author));
  if (blog.authors !== undefined) {
    if (blog.authors.length > LIMITS.authors) {
      problems.push(`"authors" names more than ${LIMITS.authors} authors.`);
    }
    const slugs = new Set<string>();
    blog.authors.forEach((author, i) => {
      problems.push(...authorRefProblems(author, `authors[${i}]`));
      if (slugs.has(author.slug)) problems.push(`"authors" names "${author.slug}" twice.`);
      slugs.add(author.slug);
    });
  }
  if (blog.tags.length > LIMITS.tags) problems.push(`"tags" has more than ${LIMITS.tags} tags.`);
  const tags = normaliseTags(blog.tags);
  if (!tags.ok) problems.push(`"tags": ${tags.problem}`);
  else if (tags.tags.length !== blog.tags.length || tags.tags.some((t, i) => t !== blog.tags[i])) {
    problems.push(`"tags" must be distinct and in normal form (${JSON.stringify(tags.tags)}).`);
  }
  const cover = blog.coverImageUrl === null ? null : coverUrlOf(blog.coverImageUrl);
  if (cover !== null && "problem" in cover) {
    problems.push(`"coverImageUrl" ${cover.problem} (or be null).`);
  }
  for (const name of PRESENTATION_TEXT) {
    const value = blog[name];
    if (value !== null && typeof value !== "string")
      problems.push(`"${name}" must be text or null.`);
    else if (value !== null) problems.push(lineProblem(name, value, LIMITS[name]));
  }
  for (const name of PRESENTATION_URLS) {
    const value = blog[name];
    const checked = value === null || value === "" ? null : coverUrlOf(value);
    if (checked !== null && "problem" in checked) {
      problems.push(`"${name}" ${checked.problem} (or be null).`);
    }
  }
  if (typeof blog.featured !== "boolean") problems.push(`"featured" must be true or false.`);
  for (const name of ["createdAt", "updatedAt"] as const) {
    if (!validDate(blog[name])) problems.push(`"${name}" is not a date.`);
  }
  for (const name of ["releasedAt", "removedAt"] as const) {
    const at = blog[name];
    if (at !== null && !validDate(at)) problems.push(`"${name}" is not a date or null.`);
  }
  if (blog.status === "released" && blog.releasedAt === null) {
    problems.push(`"releasedAt" is required when "status" is released.`);
  }
  if (blog.status === "draft" && blog.releasedAt !== null) {
    problems.push(`"releasedAt" must be null when "status" is draft.`);
  }
  if (blog.status === "removed" && blog.removedAt === null) {
    problems.push(`"removedAt" is required when "status" is removed.`);
  }
  if (blog.status !== "removed" && blog.removedAt !== null) {
    problems.push(`"removedAt" must be null unless "status" is removed.`);
  }
  return problems.filter((p): p is string => p !== null);
}

/**
 * Every problem of a set's entries on their own and between them (two entries with one slug or
 * one source key), located by each entry's origin.
 */
export function setProblems(blogs: readonly ImportBlog[]): ImportProblem[] {
  const { rules, clashes } = setProblemsByKind(blogs);
  return [...rules, ...clashes];
}

/**
 * `setProblems`, told apart: entries breaking a blog rule, and entries clashing with another of
 * the set — what the admin API answers 400 and 409 for (admin.yaml `importBlogs`).
 */
export function setProblemsByKind(blogs: readonly ImportBlog[]): {
  rules: ImportProblem[];
  clashes: ImportProblem[];
} {
  const rules: ImportProblem[] = [];
  const problems: ImportProblem[] = [];
  const bySlug = new Map<string, string>();
  const byKey = new Map<string, string>();
  for (const blog of blogs) {
    for (const message of entryProblems(blog)) rules.push({ where: blog.origin, message });
    const sameSlug = bySlug.get(blog.slug);
    if (sameSlug !== undefined) {
      problems.push({ where: blog.origin, message: `slug "${blog.slug}" is also ${sameSlug}'s.` });
    } else bySlug.set(blog.slug, blog.origin);
    const sameKey = byKey.get(blog.sourceKey);
    if (sameKey !== undefined) {
      problems.push({ where: blog.origin, message: `the same entry as ${sameKey}.` });
    } else byKey.set(blog.sourceKey, blog.origin);
  }
  return { rules, clashes: problems };
}
