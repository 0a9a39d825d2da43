import type { BlogDoc } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";
import type { PartialBlog } from "../platform/http/consumer-types.js";
import type { AuthorsJoined } from "./blog-authors.js";
import { BLOG_FIELDS, BLOG_VIEW, type BlogField, type BlogViewDoc } from "./blog-view.js";

/** A stored blog as read with a projection: its validator fields, and maybe some of the rest. */
export type ProjectedBlogDoc = Pick<BlogDoc, "_id" | "updatedAt" | "releasedAt" | "coverImageUrl"> &
  Partial<BlogDoc>;

/**
 * A `fields` selection in its canonical form: the names in the spec's order, each once, `id`
 * included. `key` names the representation (it goes into the ETag); `projection` is every stored
 * field the selected ones are made of.
 */
export interface FieldSelection {
  readonly names: readonly BlogField[];
  /** Whether a selected property is made of the blog's authors (`authors`, `authorName`). */
  readonly joinsAuthors: boolean;
  readonly key: string;
  readonly projection: Readonly<Record<string, 1>>;
}

const isBlogField = (name: string): name is BlogField =>
  (BLOG_FIELDS as readonly string[]).includes(name);

/**
 * The `fields` query parameter (openapi.yaml, "Choosing fields") → the selection, or null for the
 * whole `Blog`: no parameter, or every property named (the same representation). The spec's
 * pattern has already refused empty values, empty names, spaces and a repeated parameter; a name
 * that is not a `Blog` property is a 400 naming each unknown one once, in the order sent.
 */
export function parseFields(raw: string | undefined): FieldSelection | null {
  if (raw === undefined) return null;
  const asked = raw.split(",");
  const unknown = [...new Set(asked.filter((name) => !isBlogField(name)))];
  if (unknown.length > 0) throw invalid(`Unknown field(s) in fields: ${unknown.join(", ")}.`);
  const chosen = new Set<string>(["id", ...asked]);
  const names = BLOG_FIELDS.filter((name) => chosen.has(name));
  if (names.length === BLOG_FIELDS.length) return null;
  const projection: Record<string, 1> = {};
  for (const name of names) for (const stored of BLOG_VIEW[name].stored) projection[stored] = 1;
  const joinsAuthors = names.some((name) => BLOG_VIEW[name].joinsAuthors === true);
  return { names, joinsAuthors, key: names.join(","), projection };
}

/**
 * A projected stored blog → the spec's `PartialBlog`: the selected properties of `BLOG_VIEW`
 * (blog-view.ts), in the spec's order. The projection read every stored field they are made of
 * (`parseFields`) besides the validator's, which every read has; a property that is its stored
 * field as it is (`asStored`) is checked, so a projection that missed one is a bug (500) rather
 * than a property silently missing from the answer.
 */
export function toPartialBlog(
  doc: ProjectedBlogDoc,
  selection: FieldSelection,
  authors: AuthorsJoined,
): PartialBlog {
  // For the selected properties, the projected blog is as good as the whole one.
  const whole = doc as BlogViewDoc;
  const blog: Record<string, unknown> = {};
  for (const name of selection.names) {
    const property = BLOG_VIEW[name];
    const field = property.stored[0];
    if (property.asStored === true && doc[field] === undefined) {
      throw new Error(`Blog field ${field} was not read.`);
    }
    blog[name] = property.of(whole, authors);
  }
  return blog as PartialBlog;
}
