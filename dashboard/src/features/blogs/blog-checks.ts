import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError } from "../../api.js";
import { problemOf } from "../../components/field-rules.js";
import type { FieldErrors } from "../../components/form-check.js";
import { committedTags, type Draft } from "./blog-draft.js";

/** The editor's fields that can carry an inline error. */
export type BlogField = keyof Draft;
export type BlogErrors = FieldErrors<BlogField>;

/** A new blog's limits; an edit's (updateBlog) are the same, as admin.yaml's BlogPatch says. */
const limits = adminLimits.createBlog;
// The spec's pattern is anchored already (^…$), as an HTML `pattern` would be.
const SLUG = new RegExp(limits.slug.pattern);
const COVER_PROBLEM = "Enter an absolute address starting with https:// or http://, or nothing.";

/**
 * What the editor can tell before sending: the title is required, a slug typed must be one
 * (admin.yaml's pattern and length), a cover image an absolute http(s) address, and every tag
 * one the server can store. The rest (control characters in a title…) is the server's to say.
 * Lengths are of the trimmed values, as saved.
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
  };
  // Only the fields with a problem (a field without one is absent, as FieldErrors says).
  const errors: BlogErrors = {};
  for (const field of FIELDS) {
    const problem = found[field];
    if (problem !== undefined) errors[field] = problem;
  }
  return errors;
}

const FIELDS: readonly BlogField[] = [
  "title",
  "slug",
  "tags",
  "coverImageUrl",
  "excerpt",
  "authorName",
  "bodyMarkdown",
];
const isField = (name: string): name is BlogField => (FIELDS as readonly string[]).includes(name);

/** Said instead of a pattern (a regular expression means nothing to a writer). */
const PATTERN_PROBLEM: Partial<Record<BlogField, string>> = {
  title: "The title has a control character or a text-direction override: remove it.",
  excerpt: "The excerpt has a control character or a text-direction override: remove it.",
  authorName: "The name has a control character or a text-direction override: remove it.",
  tags: "A tag has a control or invisible character: remove it.",
  slug: "Use lower-case letters, digits and single dashes between them.",
};

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
      name === "coverImageUrl"
        ? COVER_PROBLEM
        : /must match pattern/.test(rest)
          ? PATTERN_PROBLEM[name]
          : undefined;
    return { field: name, message: said ?? `${rest.charAt(0).toUpperCase()}${rest.slice(1)}.` };
  }
  if (/^Slug\b/.test(message)) return { field: "slug", message };
  if (/^coverImageUrl\b/.test(message)) return { field: "coverImageUrl", message: COVER_PROBLEM };
  if (/^Tags?\b/.test(message)) return { field: "tags", message };
  return null;
}

/**
 * A failure worth trying again unchanged: the server was not reached, was busy or failed. A
 * refusal (400, 404, 409, 422…) would only be refused again.
 */
export const isRetryable = (err: unknown): boolean =>
  err instanceof ApiError && (err.status === 0 || err.status === 429 || err.status >= 500);

/** `errors` without those of fields whose value changed from `before` to `after`. */
export function withoutChanged(errors: BlogErrors, before: Draft, after: Draft): BlogErrors {
  const kept: BlogErrors = {};
  for (const field of FIELDS) {
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
