/**
 * The rules of a blog's content: what a writer sets, and how it is checked and normalised once,
 * at save time, into what is stored (platform/db/collections.ts, `BlogDoc`). Slugs are unique within a
 * workspace (`slugTaken`).
 */

import { normaliseTags } from "@pressroom/tag-rule";
import type { Filter } from "mongodb";
import type { BlogDoc, PresentationKey } from "../platform/db/collections.js";
import { conflict, DomainError, invalid } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import type { EditedBlog } from "./blog-staging.js";
import { type RenderedBody, slugify } from "./render.js";

/** What a writer sets; everything else (html, excerpt default, times) is derived. */
export interface BlogFields {
  title: string;
  slug?: string | undefined;
  bodyMarkdown: string;
  excerpt?: string | undefined;
  tags?: string[] | undefined;
  authorName?: string | undefined;
  /** IDs of the workspace's authors, in order; checked to exist by the write (blog-writes.ts). */
  authorIds?: readonly string[] | undefined;
  coverImageUrl?: string | null | undefined;
  coverImageAlt?: string | null | undefined;
  featured?: boolean | undefined;
  metaTitle?: string | null | undefined;
  metaDescription?: string | null | undefined;
  canonicalUrl?: string | null | undefined;
  socialImageUrl?: string | null | undefined;
}

export interface NewBlog extends BlogFields {
  release?: boolean | undefined;
}

/** A fresh value for `BlogDoc.revision`: every write of a blog stores a new one. */
export const newRevision = (): string => randomBase62(12);

/** Matches the blog's version that was read: its revision, or its `updatedAt` on older blogs. */
export const versionFilter = (doc: Pick<BlogDoc, "updatedAt" | "revision">): Filter<BlogDoc> =>
  doc.revision === undefined
    ? { revision: { $exists: false }, updatedAt: doc.updatedAt }
    : { revision: doc.revision };

/**
 * Matches the blog's pending changes that were read (`BlogDoc.staged`), or their absence: with
 * `versionFilter`, the compare-and-set of every write of a blog.
 */
export const stagedFilter = (doc: Pick<BlogDoc, "staged">): Filter<BlogDoc> =>
  doc.staged === undefined
    ? { staged: { $exists: false } }
    : { "staged.revision": doc.staged.revision };

/**
 * The blog's version as the admin API names it (`AdminBlog.version`, and in quotes its `ETag`):
 * its pending changes' revision when it has some, else the revision (`versionFilter`'s), or `t`
 * and `updatedAt` in milliseconds on blogs stored before revisions existed; then, while
 * something is scheduled, `s` and the schedule's own revision (blog-schedule.ts).
 */
export const versionOf = (
  doc: Pick<BlogDoc, "updatedAt" | "revision" | "staged" | "schedule">,
): string =>
  `${doc.staged?.revision ?? doc.revision ?? `t${doc.updatedAt.getTime()}`}${
    doc.schedule === undefined ? "" : `s${doc.schedule.rev}`
  }`;

/**
 * The versions a conditional write may apply to (the admin API's `If-Match`): "any" current
 * one, or one of these (`versionOf`).
 */
export type ExpectedVersion = "any" | readonly string[];

const STALE_MESSAGE = "Someone else changed this blog since you opened it; nothing was saved.";

/** A conditional write found the blog at another version; `current` is the blog now. */
export class StaleVersion extends DomainError {
  constructor(readonly current: EditedBlog) {
    super("stale", STALE_MESSAGE);
  }
}

/** Whether a write that expects `expected` (undefined: none) may apply to `doc`'s version. */
export const versionExpected = (
  doc: Pick<BlogDoc, "updatedAt" | "revision" | "staged" | "schedule">,
  expected: ExpectedVersion | undefined,
): boolean => expected === undefined || expected === "any" || expected.includes(versionOf(doc));

/**
 * A slug is unique in its workspace. The unique index `workspace_slug` (platform/db/indexes.ts) is
 * what enforces it, atomically on every instance; a write it refuses ends here (blog-writes.ts).
 * A slug derived from the title tries `-2`, `-3`… instead; one the writer chose is refused.
 */
export const slugTaken = (slug: string) =>
  conflict(`Slug "${slug}" is already used in this workspace.`);

/**
 * `url` as a cover image is stored (its normal form), or what is wrong with it: it must be an
 * absolute http(s) URL with no user name or password (admin.yaml, CoverImageUrlInput), which
 * consumers would otherwise be handed along with the image. The API and imports both apply it.
 */
export function coverUrlOf(url: string): { href: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: "must be an absolute http(s) URL" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return { problem: "must be an absolute http(s) URL" };
  }
  // Also an empty one ("http://@host"): an "@" before the host, as the spec's pattern says.
  if (parsed.username !== "" || parsed.password !== "" || /^[^:]*:[/\\]*[^/?#\\]*@/.test(url)) {
    return { problem: "must not carry a user name or password" };
  }
  return { href: parsed.href };
}

/** A public URL field (the cover, the canonical page, the social image) as stored, or a 400. */
function checkPublicUrl(
  field: "coverImageUrl" | "canonicalUrl" | "socialImageUrl",
  url: string | null | undefined,
): string | null {
  if (url === undefined || url === null || url === "") return null;
  const checked = coverUrlOf(url);
  if ("problem" in checked) throw invalid(`${field} ${checked.problem}.`);
  return checked.href;
}

/** An optional line of plain text as stored: trimmed, and null when absent or blank. */
const optionalText = (text: string | null | undefined): string | null => text?.trim() || null;

export function checkSlug(slug: string): string {
  const normal = slugify(slug);
  if (normal !== slug) {
    throw invalid(`Slug must be lower-case letters, digits and dashes (try "${normal}").`);
  }
  return slug;
}

/** A writer's tags as stored (@pressroom/tag-rule): normal form, no blanks, no repeats; else a 400. */
function cleanTags(tags: string[] | undefined): string[] {
  const result = normaliseTags(tags ?? []);
  if (!result.ok) throw invalid(result.problem);
  return result.tags;
}

/** The content fields of a stored blog: what `content` makes of a writer's fields. */
export type BlogContent = Pick<
  BlogDoc,
  "title" | "excerpt" | "bodyMarkdown" | "bodyHtml" | "tags" | "authorName" | "coverImageUrl"
> &
  Required<Pick<BlogDoc, PresentationField | "readingTimeMinutes" | "authorIds">>;

/** The authors a stored blog names (none on blogs stored before authors existed). */
export const authorIdsOf = (doc: Pick<BlogDoc, "authorIds">): readonly string[] =>
  doc.authorIds ?? [];

/** Whether two blogs name the same authors in the same order. */
export const sameAuthors = (a: Pick<BlogDoc, "authorIds">, b: Pick<BlogDoc, "authorIds">) =>
  authorIdsOf(a).join("\n") === authorIdsOf(b).join("\n");

/**
 * The presentation and search fields a writer sets beside the content (openapi.yaml,
 * "Presentation and search fields"). Absent on blogs stored before they existed, which read as
 * null (false for `featured`): `presentationOf`.
 */
export const PRESENTATION_FIELDS = [
  "coverImageAlt",
  "featured",
  "metaTitle",
  "metaDescription",
  "canonicalUrl",
  "socialImageUrl",
] as const satisfies readonly PresentationKey[];

export type PresentationField = (typeof PRESENTATION_FIELDS)[number];
// Every stored presentation field is listed: otherwise this is `never` and the assignment fails.
const everyFieldListed: Exclude<PresentationKey, PresentationField> extends never ? true : never =
  true;
void everyFieldListed;
export type Presentation = Required<Pick<BlogDoc, PresentationField>>;

/** Whether two blogs' presentation fields say the same. */
export const samePresentation = (a: Presentation, b: Presentation): boolean =>
  PRESENTATION_FIELDS.every((field) => a[field] === b[field]);

/** A stored blog's presentation fields, with the defaults of those stored before they existed. */
export const presentationOf = (doc: Partial<Pick<BlogDoc, PresentationField>>): Presentation => ({
  coverImageAlt: doc.coverImageAlt ?? null,
  featured: doc.featured ?? false,
  metaTitle: doc.metaTitle ?? null,
  metaDescription: doc.metaDescription ?? null,
  canonicalUrl: doc.canonicalUrl ?? null,
  socialImageUrl: doc.socialImageUrl ?? null,
});

/** The stored content of `fields` but its rendered body: normalised once, at save time. */
export function content(fields: BlogFields, rendered: RenderedBody): BlogContent {
  const title = fields.title.trim();
  if (title === "") throw invalid("A blog needs a title.");
  return {
    title,
    excerpt: fields.excerpt?.trim() || rendered.excerpt,
    bodyMarkdown: fields.bodyMarkdown,
    bodyHtml: rendered.bodyHtml,
    tags: cleanTags(fields.tags),
    authorName: fields.authorName?.trim() || "Pressroom",
    authorIds: [...(fields.authorIds ?? [])],
    coverImageUrl: checkPublicUrl("coverImageUrl", fields.coverImageUrl),
    coverImageAlt: optionalText(fields.coverImageAlt),
    featured: fields.featured ?? false,
    metaTitle: optionalText(fields.metaTitle),
    metaDescription: optionalText(fields.metaDescription),
    canonicalUrl: checkPublicUrl("canonicalUrl", fields.canonicalUrl),
    socialImageUrl: checkPublicUrl("socialImageUrl", fields.socialImageUrl),
    readingTimeMinutes: rendered.readingTimeMinutes,
  };
}
