import type { components } from "./generated/consumer.js";

type BlogField = keyof components["schemas"]["Blog"];

/**
 * The `Blog` properties in the spec's order. `fields` is sent in this order, each name once and
 * `id` included, so the same set is always the same URL (one cache entry, one ETag).
 */
const BLOG_FIELDS = [
  "id",
  "slug",
  "title",
  "excerpt",
  "bodyMarkdown",
  "bodyHtml",
  "tags",
  "authorName",
  "authors",
  "coverImageUrl",
  "coverImageAlt",
  "coverImage",
  "featured",
  "metaTitle",
  "metaDescription",
  "canonicalUrl",
  "socialImageUrl",
  "readingTimeMinutes",
  "releasedAt",
  "updatedAt",
] as const satisfies readonly BlogField[];
// Fails to compile when the spec gains a property this list lacks.
const everyFieldListed: Exclude<BlogField, (typeof BLOG_FIELDS)[number]> extends never
  ? true
  : never = true;
void everyFieldListed;

/** `fields` as the query parameter: canonical order, `id` first; absent when not given. */
export function fieldsQuery(fields: readonly string[] | undefined): { fields?: string } {
  if (fields === undefined) return {};
  if (!Array.isArray(fields)) throw new TypeError("fields must be an array of Blog field names.");
  const chosen = new Set<string>(["id", ...fields]);
  const known = BLOG_FIELDS.filter((name) => chosen.has(name));
  // Unknown names are sent as given, after the known ones: the server's 400 names them.
  const unknown = [...chosen].filter((name) => !(BLOG_FIELDS as readonly string[]).includes(name));
  return { fields: [...known, ...unknown].join(",") };
}
