import { normaliseTag } from "@pressroom/tag-rule";
import type { AdminBlog, BlogInput, BlogPatch } from "../../api.js";

/** The editor's form values, as typed. */
export interface Draft {
  title: string;
  slug: string;
  tags: string;
  coverImageUrl: string;
  excerpt: string;
  authorName: string;
  bodyMarkdown: string;
}

export const EMPTY_DRAFT: Draft = {
  title: "",
  slug: "",
  tags: "",
  coverImageUrl: "",
  excerpt: "",
  authorName: "",
  bodyMarkdown: "",
};

export const draftOf = (blog: AdminBlog): Draft => ({
  title: blog.title,
  slug: blog.slug,
  tags: blog.tags.join(", "),
  coverImageUrl: blog.coverImageUrl ?? "",
  excerpt: blog.excerpt,
  authorName: blog.authorName,
  bodyMarkdown: blog.bodyMarkdown,
});

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

/**
 * The excerpt is one line of plain text (admin.yaml refuses control characters in it): what is
 * typed over several lines in its text area is sent with each run of blanks as one space.
 */
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

/** A new draft: empty optional fields are left out, so the server fills them in. */
export function inputOf(d: Draft): BlogInput {
  const input: BlogInput = {
    title: d.title.trim(),
    bodyMarkdown: d.bodyMarkdown,
    tags: tagsOf(d.tags),
    coverImageUrl: d.coverImageUrl.trim() || null,
  };
  if (d.slug.trim()) input.slug = d.slug.trim();
  if (oneLine(d.excerpt)) input.excerpt = oneLine(d.excerpt);
  if (d.authorName.trim()) input.authorName = d.authorName.trim();
  return input;
}

/** Only what changed (an emptied slug keeps the current one). Empty when nothing did. */
export function patchOf(blog: AdminBlog, d: Draft): BlogPatch {
  const patch: BlogPatch = {};
  const tags = tagsOf(d.tags);
  if (d.title.trim() !== blog.title) patch.title = d.title.trim();
  if (d.slug.trim() !== "" && d.slug.trim() !== blog.slug) patch.slug = d.slug.trim();
  if (tags.join("\n") !== blog.tags.join("\n")) patch.tags = tags;
  if ((d.coverImageUrl.trim() || null) !== blog.coverImageUrl) {
    patch.coverImageUrl = d.coverImageUrl.trim() || null;
  }
  if (oneLine(d.excerpt) !== blog.excerpt) patch.excerpt = oneLine(d.excerpt);
  if (d.authorName.trim() !== blog.authorName) patch.authorName = d.authorName.trim();
  if (d.bodyMarkdown !== blog.bodyMarkdown) patch.bodyMarkdown = d.bodyMarkdown;
  return patch;
}

/** Nothing typed yet: every field as it started. */
export const isBlank = (d: Draft, start: Draft): boolean =>
  (Object.keys(d) as (keyof Draft)[]).every((field) => d[field].trim() === start[field].trim());
