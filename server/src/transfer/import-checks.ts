/**
 * The blog rules (blogs/blog-rules.ts, admin.yaml `BlogInput`) applied to an imported entry
 * before anything is written: every problem of an entry, by field, so that one run names all.
 */

import { normaliseTags } from "@pressroom/tag-rule";
import { coverUrlOf, type Presentation } from "../blogs/blog-rules.js";
import { slugify } from "../blogs/render.js";
import type { ImportBlog, ImportProblem } from "./import-set.js";

/** admin.yaml `BlogInput`'s limits. */
export const LIMITS = {
  title: 200,
  slug: 80,
  excerpt: 500,
  body: 200_000,
  tags: 20,
  author: 100,
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

function lineProblem(name: string, value: string, max: number): string | null {
  if (value.length > max) return `"${name}" is longer than ${max} characters (${value.length}).`;
  if (LINE_REFUSED.test(value)) return `"${name}" contains a control character or a bidi override.`;
  return null;
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
