import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError } from "../../api.js";
import { problemOf } from "../../components/field-rules.js";
import type { FieldErrors } from "../../components/form-check.js";
import { committedTags, DRAFT_FIELDS, type Draft, oneLine } from "./blog-draft.js";
import { isPublicUrl } from "./seo-text.js";

/** The editor's fields that can carry an inline error. */
export type BlogField = keyof Draft;
export type BlogErrors = FieldErrors<BlogField>;

/** A new blog's limits; an edit's (updateBlog) are the same, as admin.yaml's BlogPatch says. */
const limits = adminLimits.createBlog;
// The spec's pattern is anchored already (^…$), as an HTML `pattern` would be.
const SLUG = new RegExp(limits.slug.pattern);
const COVER_PROBLEM = "Enter an absolute address starting with https:// or http://, or nothing.";
/** admin.yaml's PublicUrlInput: the cover's rule, and consumers are handed it, so no password. */
const PUBLIC_URL_PROBLEM =
  "Enter an absolute address starting with https:// or http://, with no user name or password, or nothing.";
/** The plain-text fields' pattern (no control characters, no bidi overrides): one for all. */
const PLAIN = new RegExp(limits.metaTitle.pattern);

/** A one-line plain-text field's problem: too long (as sent) or a character it cannot hold. */
const plainProblem = (typed: string, maxLength: number, problem: string) =>
  problemOf(oneLine(typed), { maxLength, pattern: { regex: PLAIN, problem } });
const publicUrlProblem = (typed: string): string | undefined =>
  typed.trim() === "" || isPublicUrl(typed) ? undefined : PUBLIC_URL_PROBLEM;

/**
 * What the editor can tell before sending: the title is required, a slug typed must be one
 * (admin.yaml's pattern and length), a cover image an absolute http(s) address, every tag one
 * the server can store, the alt text and meta fields within their limits and free of control
 * characters, and the canonical and social image URLs PublicUrlInput. The rest (control
 * characters in a title…) is the server's to say. Lengths are of the values as saved.
 */
export function checkDraft(d: Draft): BlogErrors {
  const found: BlogErrors = {
    title: problemOf(d.title.trim(), {
      required: "Give the blog a title.",
      maxLength: limits.title.maxLength,
    }),
    slug: problemOf(d.slug.trim(), {
      maxLength: limits.slug.maxLength,
      pattern: {
        regex: SLUG,
        problem: "Use lower-case letters, digits and single dashes between them (my-first-blog).",
      },
    }),
    coverImageUrl: problemOf(d.coverImageUrl, { url: COVER_PROBLEM }),
    tags: committedTags(d.tags).problem ?? undefined,
    coverImageAlt: plainProblem(
      d.coverImageAlt,
      limits.coverImageAlt.maxLength,
      PATTERN_PROBLEM.coverImageAlt ?? "",
    ),
    metaTitle: plainProblem(
      d.metaTitle,
      limits.metaTitle.maxLength,
      PATTERN_PROBLEM.metaTitle ?? "",
    ),
    metaDescription: plainProblem(
      d.metaDescription,
      limits.metaDescription.maxLength,
      PATTERN_PROBLEM.metaDescription ?? "",
    ),
    canonicalUrl: publicUrlProblem(d.canonicalUrl),
    socialImageUrl: publicUrlProblem(d.socialImageUrl),
    authors:
      d.authors.length > limits.authors.maxItems
        ? `Choose at most ${limits.authors.maxItems} authors.`
        : undefined,
  };
  // Only the fields with a problem (a field without one is absent, as FieldErrors says).
  const errors: BlogErrors = {};
  for (const field of DRAFT_FIELDS) {
    const problem = found[field];
    if (problem !== undefined) errors[field] = problem;
  }
  return errors;
}

const isField = (name: string): name is BlogField =>
  (DRAFT_FIELDS as readonly string[]).includes(name);

/** Said instead of a pattern (a regular expression means nothing to a writer). */
const PATTERN_PROBLEM: Partial<Record<BlogField, string>> = {
  title: "The title has a control character or a text-direction override: remove it.",
  excerpt: "The excerpt has a control character or a text-direction override: remove it.",
  authorName: "The name has a control character or a text-direction override: remove it.",
  tags: "A tag has a control or invisible character: remove it.",
  slug: "Use lower-case letters, digits and single dashes between them.",
  coverImageAlt: "The alt text has a control character or a text-direction override: remove it.",
  metaTitle: "The meta title has a control character or a text-direction override: remove it.",
  metaDescription:
    "The meta description has a control character or a text-direction override: remove it.",
};

/** An author chosen here that the workspace no longer has (the server's 400 names their ID). */
const AUTHOR_GONE =
  "An author chosen here was removed from the workspace meanwhile: remove them, then save again.";

/** What is said of a refused URL, whatever the server's words. */
const URL_PROBLEM: Partial<Record<BlogField, string>> = {
  coverImageUrl: COVER_PROBLEM,
  canonicalUrl: PUBLIC_URL_PROBLEM,
  socialImageUrl: PUBLIC_URL_PROBLEM,
};

/** The fields whose own messages start with their name ("metaTitle must…"). */
const NAMED =
  /^(coverImageUrl|coverImageAlt|metaTitle|metaDescription|canonicalUrl|socialImageUrl)\b/;

/**
 * The field a refused save was about, when the server's answer names one: a 400 of the spec's
 * validator (`request/body/<field> must …`), the blog rules' own 400s ("Slug must…",
 * "coverImageUrl must…", "Tag …") and the 409 of a slug in use. Null for anything else.
 */
export function fieldErrorOf(err: unknown): { field: BlogField; message: string } | null {
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 409)) return null;
  const message = err.message;
  // The validator joins its findings with ", "; the first names the field.
  const validator =
    /(?:^|\s)(?:request\/)?body\/([A-Za-z]+)(?:\/\d+)?\s+(.*?)(?:, (?:request\/)?body\/.*)?$/.exec(
      message,
    );
  if (validator) {
    const [, name = "", rest = ""] = validator;
    if (!isField(name)) return null;
    const said =
      URL_PROBLEM[name] ?? (/must match pattern/.test(rest) ? PATTERN_PROBLEM[name] : undefined);
    return { field: name, message: said ?? sentence(rest) };
  }
  if (/^Slug\b/.test(message)) return { field: "slug", message };
  const named = NAMED.exec(message)?.[1];
  if (named !== undefined && isField(named)) {
    return { field: named, message: URL_PROBLEM[named] ?? sentence(message) };
  }
  if (/^Tags?\b/.test(message)) return { field: "tags", message };
  // An author ID the workspace has not (admin.yaml, BlogAuthorIds: a 400 naming it): one chosen
  // here was removed from the workspace since. The ID means nothing to a writer.
  if (/^authors\b/.test(message)) return { field: "authors", message: AUTHOR_GONE };
  return null;
}

/** "must be…" → "Must be….": a server's words as a sentence under a field. */
const sentence = (text: string): string => {
  const capital = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/**
 * A failure worth trying again unchanged: the server was not reached, was busy or failed. A
 * refusal (400, 404, 409, 422…) would only be refused again.
 */
export const isRetryable = (err: unknown): boolean =>
  err instanceof ApiError && (err.status === 0 || err.status === 429 || err.status >= 500);

/** `errors` without those of fields whose value changed from `before` to `after`. */
export function withoutChanged(errors: BlogErrors, before: Draft, after: Draft): BlogErrors {
  const kept: BlogErrors = {};
  for (const field of DRAFT_FIELDS) {
    const problem = errors[field];
    if (problem !== undefined && before[field] === after[field]) kept[field] = problem;
  }
  return kept;
}

/** `errors` with `field`'s problem set, or cleared when null. */
export function withProblem(
  errors: BlogErrors,
  field: BlogField,
  problem: string | null,
): BlogErrors {
  const next: BlogErrors = { ...errors };
  delete next[field];
  if (problem !== null) next[field] = problem;
  return next;
}
