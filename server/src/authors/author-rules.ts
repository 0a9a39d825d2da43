import { checkSlug, coverUrlOf } from "../blogs/blog-rules.js";
import { slugify } from "../blogs/render.js";
import { titleKeyOf } from "../blogs/search-terms.js";
import type { AuthorDoc } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";

/** Authors one workspace may have (admin.yaml `createAuthor`): the list is read whole. */
export const MAX_AUTHORS = 200;

/** An author's fields as a writer gives them (admin.yaml `AuthorInput`, `AuthorPatch`). */
export interface AuthorFields {
  readonly name?: string | undefined;
  readonly slug?: string | undefined;
  readonly bio?: string | null | undefined;
  readonly avatarUrl?: string | null | undefined;
  readonly websiteUrl?: string | null | undefined;
}

/** The stored form of the fields given; a field absent from the input is absent here too. */
export interface CheckedAuthorFields {
  name?: string;
  nameKey?: string;
  slug?: string;
  bio?: string | null;
  avatarUrl?: string | null;
  websiteUrl?: string | null;
}

/** A public URL as stored (the rule of a blog's cover, blog-rules.ts), null for none, or a 400. */
function publicUrl(field: "avatarUrl" | "websiteUrl", url: string | null): string | null {
  if (url === null || url === "") return null;
  const checked = coverUrlOf(url);
  if ("problem" in checked) throw invalid(`${field} ${checked.problem}.`);
  return checked.href;
}

/**
 * The fields given, as stored: the name trimmed (the spec refuses a blank one) with its sort key
 * (case and accents folded, as the editors' title sort: search-terms.ts `titleKeyOf`), the slug
 * in its rule, the bio trimmed with `\r\n` as `\n` (blank: none), the URLs in normal form.
 */
export function checkAuthorFields(input: AuthorFields): CheckedAuthorFields {
  const out: CheckedAuthorFields = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === "") throw invalid("name must not be blank.");
    out.name = name;
    out.nameKey = titleKeyOf(name);
  }
  if (input.slug !== undefined) out.slug = checkSlug(input.slug);
  if (input.bio !== undefined) out.bio = input.bio?.replace(/\r\n?/g, "\n").trim() || null;
  if (input.avatarUrl !== undefined) out.avatarUrl = publicUrl("avatarUrl", input.avatarUrl);
  if (input.websiteUrl !== undefined) out.websiteUrl = publicUrl("websiteUrl", input.websiteUrl);
  return out;
}

/**
 * A new author as stored: `fields` checked by `checkAuthorFields` (its `name` required), the
 * slug chosen. The one shape of a new author: the admin API's create and an import's.
 */
export function newAuthorDoc(
  workspaceId: string,
  fields: CheckedAuthorFields & { readonly name: string },
  slug: string,
  now: Date,
): AuthorDoc {
  return {
    _id: newId("au"),
    workspaceId,
    name: fields.name,
    nameKey: fields.nameKey ?? "",
    slug,
    bio: fields.bio ?? null,
    avatarUrl: fields.avatarUrl ?? null,
    websiteUrl: fields.websiteUrl ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The slug an author without one gets: their name's (blogs' rule, render.ts `slugify`), or
 * `author` for a name with no Latin letter or digit to make one of.
 */
export const slugOfName = (name: string): string => {
  const slug = slugify(name);
  return slug === "blog" && !/[a-z0-9]/i.test(name.normalize("NFKD")) ? "author" : slug;
};
