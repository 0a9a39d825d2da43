import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, type Author, type AuthorInput, type AuthorPatch } from "../../api.js";
import { fieldOfMessage } from "../../components/checked-form.js";
import { problemOf } from "../../components/field-rules.js";
import type { FieldErrors } from "../../components/form-check.js";
import { isPublicUrl } from "../blogs/seo-text.js";

// An author's form (admin.yaml, "Authors": AuthorInput, AuthorPatch): what is checked before
// sending, what is sent, and which field a server's refusal is about. No state, no DOM.

/** The add and edit dialog's values, as typed. */
export interface AuthorForm {
  name: string;
  slug: string;
  bio: string;
  avatarUrl: string;
  websiteUrl: string;
}
export type AuthorField = keyof AuthorForm;
export type AuthorErrors = FieldErrors<AuthorField>;

/** The order the fields stand in the dialog (the first with a problem takes the focus). */
export const AUTHOR_FIELDS: readonly AuthorField[] = [
  "name",
  "slug",
  "bio",
  "avatarUrl",
  "websiteUrl",
];

export const EMPTY_AUTHOR_FORM: AuthorForm = {
  name: "",
  slug: "",
  bio: "",
  avatarUrl: "",
  websiteUrl: "",
};

/** createAuthor's limits; updateAuthor's are the same (admin.yaml: one schema for both). */
const limits = adminLimits.createAuthor;
// The spec's patterns are anchored already (^…$).
const NAME = new RegExp(limits.name.pattern);
const SLUG = new RegExp(limits.slug.pattern);
const BIO = new RegExp(limits.bio.pattern);

/** The slug's rule as the dialog's hint says it (README.md, "Authors": a blog's rule). */
export const SLUG_RULE =
  "Lower-case letters, digits and single dashes between them. Empty: made from the name (Émile Zola → emile-zola).";
const SLUG_PROBLEM =
  "Use lower-case letters, digits and single dashes between them (ada-lovelace).";
const NAME_PROBLEM = "The name has a control character or a text-direction override: remove it.";
const BIO_PROBLEM = "The bio has a control character or a text-direction override: remove it.";
const URL_PROBLEM =
  "Enter an absolute address starting with https:// or http://, with no user name or password, or nothing.";

/** The bio as the server keeps it: line breaks as `\n`, trimmed (admin.yaml, AuthorBioInput). */
export const bioOf = (typed: string): string => typed.replace(/\r\n?/g, "\n").trim();

const urlProblem = (typed: string): string | undefined =>
  typed.trim() === "" || isPublicUrl(typed) ? undefined : URL_PROBLEM;

/** The form's values for an author as stored. */
export const formOf = (author: Author): AuthorForm => ({
  name: author.name,
  slug: author.slug,
  bio: author.bio ?? "",
  avatarUrl: author.avatarUrl ?? "",
  websiteUrl: author.websiteUrl ?? "",
});

/**
 * What the dialog can tell before sending: a name (not blank, within its length, no control
 * characters), a slug typed must be one, the bio within its limit as kept, the avatar and
 * website admin.yaml's PublicUrlInput. Only the fields with a problem are present.
 */
export function checkAuthorForm(f: AuthorForm): AuthorErrors {
  const found: AuthorErrors = {
    name: problemOf(f.name, {
      required: "Enter the author's name.",
      maxLength: limits.name.maxLength,
      pattern: { regex: NAME, problem: NAME_PROBLEM },
    }),
    slug: problemOf(f.slug.trim(), {
      maxLength: limits.slug.maxLength,
      pattern: { regex: SLUG, problem: SLUG_PROBLEM },
    }),
    bio: problemOf(bioOf(f.bio), {
      maxLength: limits.bio.maxLength,
      pattern: { regex: BIO, problem: BIO_PROBLEM },
    }),
    avatarUrl: urlProblem(f.avatarUrl),
    websiteUrl: urlProblem(f.websiteUrl),
  };
  const errors: AuthorErrors = {};
  for (const field of AUTHOR_FIELDS) {
    const problem = found[field];
    if (problem !== undefined) errors[field] = problem;
  }
  return errors;
}

/** A new author: empty optional fields are left out (no slug: the server makes one). */
export function authorInputOf(f: AuthorForm): AuthorInput {
  const input: AuthorInput = { name: f.name.trim() };
  if (f.slug.trim()) input.slug = f.slug.trim();
  if (bioOf(f.bio)) input.bio = bioOf(f.bio);
  if (f.avatarUrl.trim()) input.avatarUrl = f.avatarUrl.trim();
  if (f.websiteUrl.trim()) input.websiteUrl = f.websiteUrl.trim();
  return input;
}

/**
 * Only what changed; an emptied bio, avatar or website is `null` (none), an emptied slug keeps
 * the one the author has. Empty when nothing changed.
 */
export function authorPatchOf(author: Author, f: AuthorForm): AuthorPatch {
  const patch: AuthorPatch = {};
  if (f.name.trim() !== author.name) patch.name = f.name.trim();
  if (f.slug.trim() !== "" && f.slug.trim() !== author.slug) patch.slug = f.slug.trim();
  if ((bioOf(f.bio) || null) !== author.bio) patch.bio = bioOf(f.bio) || null;
  if ((f.avatarUrl.trim() || null) !== author.avatarUrl)
    patch.avatarUrl = f.avatarUrl.trim() || null;
  if ((f.websiteUrl.trim() || null) !== author.websiteUrl) {
    patch.websiteUrl = f.websiteUrl.trim() || null;
  }
  return patch;
}

/** Each field as the server's own messages name it ("Slug \"x\" is already used…", "avatarUrl must…"). */
const MENTIONS: Record<AuthorField, RegExp> = {
  name: /^name\b/,
  slug: /^(?:Slug\b|No free slug\b)/,
  bio: /^bio\b/,
  avatarUrl: /^avatarUrl\b/,
  websiteUrl: /^websiteUrl\b/,
};

/** Said instead of the validator's words about a pattern, which mean nothing to a writer. */
const PATTERN_PROBLEM: Record<AuthorField, string> = {
  name: NAME_PROBLEM,
  slug: SLUG_PROBLEM,
  bio: BIO_PROBLEM,
  avatarUrl: URL_PROBLEM,
  websiteUrl: URL_PROBLEM,
};

/**
 * The field a refused add or change is about, with what to say under it: a 400 of the spec's
 * validator (`request/body/<field> …`) or of the author rules ("avatarUrl must…"), the 409 of a
 * slug another author has. Null for anything else (the 409 of a full workspace: above the
 * buttons).
 */
export function authorProblemOf(err: unknown): { field: AuthorField; message: string } | null {
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 409)) return null;
  const field = fieldOfMessage<AuthorField>(err.message, MENTIONS);
  if (field === null) return null;
  if (/request\/body\//.test(err.message)) {
    const rest = err.message.replace(/^.*?request\/body\/\w+\s*/, "");
    const said = /pattern|format/.test(rest) ? PATTERN_PROBLEM[field] : sentence(rest);
    return { field, message: said };
  }
  if (field === "avatarUrl" || field === "websiteUrl") return { field, message: URL_PROBLEM };
  if (field === "name" || field === "bio") return { field, message: sentence(err.message) };
  return { field, message: err.message };
}

/** "must be…" → "Must be….": a server's words as a sentence under a field. */
const sentence = (text: string): string => {
  const capital = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/** The website's address without its scheme, as the list shows it ("example.com/ada"). */
export const websiteText = (url: string): string =>
  url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
