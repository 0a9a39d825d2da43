/**
 * A Markdown file's blog fields from its front matter (front-matter.ts), for markdown-reader.ts:
 * - title: a string; else the body's first line when it is a `# heading` (then taken out of the
 *   body); else a problem;
 * - slug: in Pressroom's form (blog-rules.ts `checkSlug`), else a problem; when absent, the file
 *   name slugified (render.ts `slugify`), or its folder's name for `index.md` / `_index.md`;
 * - tags: a list, or one comma-separated string, in Pressroom's normal form (@pressroom/tag-rule);
 * - date, updated: `YYYY-MM-DD` (midnight UTC) or an ISO date-time (UTC when it names no zone);
 * - draft: true → draft; false or absent → released (at `date`);
 * - excerpt, author: strings; cover (or coverImage, cover_image): an absolute http(s) URL;
 * - authors: a list of names (or one name), at most 10, each one line: the blog's authors in
 *   order, each by its name's slug (author-rules.ts `slugOfName`, as an author added without a
 *   slug gets). `author` stays the byline (authorName); without it, the first author's name is;
 *   `author` alone names no author;
 * - the presentation and search fields (blog-rules.ts `PRESENTATION_FIELDS`), each under the
 *   names static-site generators and their SEO plugins use, the first present in this order
 *   winning: `PRESENTATION_KEYS`; text is one line, URLs absolute http(s) without a user name or
 *   password (else a problem), `featured` true or false. `image` is not read: themes use it for
 *   the cover as often as for the social card, so it is listed with the other unknown keys.
 * Other keys are reported in a note, never an error.
 */

import { normaliseTags } from "@pressroom/tag-rule";
import { slugOfName } from "../authors/author-rules.js";
import { coverUrlOf, type Presentation } from "../blogs/blog-rules.js";
import { slugify } from "../blogs/render.js";
import type { FrontMatter, LineProblem } from "./front-matter.js";
import { LIMITS } from "./import-checks.js";
import type { ImportAuthorRef } from "./import-set.js";

/** The front-matter names of each presentation field but `featured`, the first present winning. */
export const PRESENTATION_KEYS = {
  metaTitle: ["metaTitle", "meta_title"],
  metaDescription: ["metaDescription", "meta_description", "description"],
  canonicalUrl: ["canonicalUrl", "canonical_url", "canonical"],
  socialImageUrl: ["socialImage", "social_image", "og_image"],
  coverImageAlt: ["coverAlt", "cover_alt", "coverImageAlt"],
} as const;

export const KNOWN_KEYS = new Set([
  ...Object.values(PRESENTATION_KEYS).flat(),
  "featured",
  "title",
  "slug",
  "tags",
  "date",
  "updated",
  "draft",
  "excerpt",
  "author",
  "authors",
  "cover",
  "coverImage",
  "cover_image",
]);

export interface MarkdownFields extends Presentation {
  readonly title: string;
  readonly slug: string;
  /** The line the slug came from (its key, else 1), for a duplicate's message. */
  readonly slugLine: number;
  readonly bodyMarkdown: string;
  readonly tags: readonly string[];
  readonly date: Date | null;
  readonly updated: Date | null;
  readonly draft: boolean;
  readonly excerpt: string | undefined;
  readonly authorName: string | undefined;
  /** Undefined when the front matter has no `authors`. */
  readonly authors: readonly ImportAuthorRef[] | undefined;
  readonly coverImageUrl: string | null;
  readonly titleFromHeading: boolean;
}

const DATE =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A front-matter date as a Date, or null when it is not one (a calendar-checked ISO form). */
export function parseDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== "string") return null;
  const m = DATE.exec(value.trim());
  if (m === null) return null;
  const [, day = "", time, zone] = m;
  // Feb 30 and the like: the calendar day must survive a round trip.
  const midnight = new Date(`${day}T00:00Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return null;
  const offset = zone === undefined ? "Z" : zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(`${day}T${time ?? "00:00"}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The fields of one file named `fileName` (relative path), or its problems by line. */
export function markdownFields(
  fm: FrontMatter,
  fileName: string,
): { ok: true; value: MarkdownFields } | { ok: false; problems: LineProblem[] } {
  const problems: LineProblem[] = [];
  const lineOf = (key: string) => fm.lines.get(key) ?? 1;
  const bad = (key: string, message: string) => problems.push({ line: lineOf(key), message });
  const optionalString = (key: string): string | undefined => {
    const v = fm.fields.get(key);
    if (v === undefined || v === null) return undefined;
    // One-line fields (title, excerpt, author): a folded or block scalar's line breaks as spaces.
    if (typeof v === "string" || typeof v === "number")
      return String(v).replace(/\s+/gu, " ").trim();
    bad(key, `${key} must be text`);
    return undefined;
  };

  let body = fm.body;
  let title = optionalString("title") ?? "";
  let titleFromHeading = false;
  if (!fm.fields.has("title")) {
    const heading = /^\s*# +(.+?)[ #]*(?:\r?\n|$)/.exec(body);
    if (heading?.[1] !== undefined) {
      title = heading[1].trim();
      body = body.slice(heading[0].length).replace(/^\s*\n/, "");
      titleFromHeading = true;
    }
  }
  if (title === "") {
    problems.push({
      line: fm.fields.has("title") ? lineOf("title") : 1,
      message: "has no title (a title: in front matter, or a first line '# Title')",
    });
  }

  const givenSlug = optionalString("slug");
  const parts = fileName.split("/");
  const base = (parts.at(-1) ?? "").replace(/\.(md|markdown)$/i, "");
  const named = /^_?index$/i.test(base) && parts.length > 1 ? (parts.at(-2) ?? base) : base;
  const slug = givenSlug ?? slugify(named);
  if (givenSlug !== undefined && slugify(givenSlug) !== givenSlug) {
    bad(
      "slug",
      `slug "${givenSlug}" must be lower-case letters, digits and dashes (try "${slugify(givenSlug)}")`,
    );
  }

  let rawTags: unknown[] = [];
  const tagValue = fm.fields.get("tags");
  if (typeof tagValue === "string") rawTags = tagValue.split(",");
  else if (Array.isArray(tagValue)) rawTags = tagValue;
  else if (tagValue !== undefined && tagValue !== null)
    bad("tags", "tags must be a list or a comma-separated string");
  if (rawTags.some((t) => typeof t !== "string" && typeof t !== "number")) {
    bad("tags", "each tag must be text");
    rawTags = [];
  }
  const tags = normaliseTags(rawTags.map(String));
  if (!tags.ok) bad("tags", tags.problem);

  const dateOf = (key: string): Date | null => {
    const v = fm.fields.get(key);
    if (v === undefined || v === null) return null;
    const date = parseDate(v);
    if (date === null)
      bad(key, `${key} "${String(v)}" is not a date (YYYY-MM-DD or an ISO date-time)`);
    return date;
  };
  const date = dateOf("date");
  const updated = dateOf("updated");

  const draftValue = fm.fields.get("draft") ?? false;
  if (typeof draftValue !== "boolean")
    bad("draft", `draft must be true or false, not "${String(draftValue)}"`);

  const coverKey = ["cover", "coverImage", "cover_image"].find((k) => fm.fields.has(k));
  const cover = coverKey === undefined ? undefined : optionalString(coverKey);
  let coverImageUrl: string | null = null;
  if (coverKey !== undefined && cover !== undefined && cover !== "") {
    coverImageUrl = absoluteHttpUrl(cover);
    if (coverImageUrl === null)
      bad(coverKey, `${coverKey} "${cover}" must be an absolute http(s) URL`);
  }
  const excerpt = optionalString("excerpt");
  const authorName = optionalString("author");
  const authors = authorsOf(fm.fields.get("authors"), (message) => bad("authors", message));

  /** The first of `keys` present, as one line of text, or null when absent or blank. */
  const presentationText = (keys: readonly string[]): string | null => {
    const key = keys.find((k) => fm.fields.has(k));
    return (key === undefined ? undefined : optionalString(key)) || null;
  };
  const presentationUrl = (keys: readonly string[]): string | null => {
    const key = keys.find((k) => fm.fields.has(k));
    const value = key === undefined ? undefined : optionalString(key);
    if (key === undefined || value === undefined || value === "") return null;
    const checked = coverUrlOf(value);
    if ("href" in checked) return checked.href;
    // Not repeated: a user name and password the URL may carry.
    bad(key, `${key} ${checked.problem}`);
    return null;
  };
  const featured = fm.fields.get("featured") ?? false;
  if (typeof featured !== "boolean")
    bad("featured", `featured must be true or false, not "${String(featured)}"`);
  const presentation: Presentation = {
    coverImageAlt: presentationText(PRESENTATION_KEYS.coverImageAlt),
    featured: featured === true,
    metaTitle: presentationText(PRESENTATION_KEYS.metaTitle),
    metaDescription: presentationText(PRESENTATION_KEYS.metaDescription),
    canonicalUrl: presentationUrl(PRESENTATION_KEYS.canonicalUrl),
    socialImageUrl: presentationUrl(PRESENTATION_KEYS.socialImageUrl),
  };

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      title,
      slug,
      slugLine: givenSlug === undefined ? 1 : lineOf("slug"),
      bodyMarkdown: body,
      tags: tags.ok ? tags.tags : [],
      date,
      updated,
      draft: draftValue === true,
      excerpt: excerpt === "" ? undefined : excerpt,
      authorName: authorName || authors?.[0]?.name || undefined,
      authors,
      coverImageUrl,
      ...presentation,
      titleFromHeading,
    },
  };
}

/**
 * The `authors` key's value as the blog's authors: a list of names, or one name; undefined when
 * absent. Each name is one line (white space runs as one space), not blank, at most 100
 * characters; two names with one slug, or more than 10, are a problem.
 */
function authorsOf(value: unknown, bad: (message: string) => void): ImportAuthorRef[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  const authors: ImportAuthorRef[] = [];
  for (const item of list) {
    if (typeof item !== "string" && typeof item !== "number") {
      bad("authors must be a list of names");
      return undefined;
    }
    const name = String(item).replace(/\s+/gu, " ").trim();
    if (name === "") bad("authors has a blank name");
    else if (name.length > LIMITS.author) {
      bad(`author name "${name.slice(0, 20)}…" is longer than ${LIMITS.author} characters`);
    } else {
      const slug = slugOfName(name);
      if (authors.some((a) => a.slug === slug)) bad(`authors names "${name}" twice (slug ${slug})`);
      else authors.push({ name, slug });
    }
  }
  if (authors.length > LIMITS.authors) bad(`authors has more than ${LIMITS.authors} names`);
  return authors;
}

function absoluteHttpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
