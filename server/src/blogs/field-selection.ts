import type { BlogDoc } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";
import type { Blog, PartialBlog } from "../platform/http/consumer-types.js";

/**
 * The names `fields` may select: the spec's `Blog` properties, in the spec's order (the order of
 * a partial blog's keys). The type below fails to compile when a property is missing from it.
 */
export const BLOG_FIELDS = [
  "id",
  "slug",
  "title",
  "excerpt",
  "bodyMarkdown",
  "bodyHtml",
  "tags",
  "authorName",
  "coverImageUrl",
  "releasedAt",
  "updatedAt",
] as const satisfies readonly (keyof Blog)[];

export type BlogField = (typeof BLOG_FIELDS)[number];
// Every Blog property is listed: otherwise this is `never` and the assignment fails.
const everyPropertyListed: Exclude<keyof Blog, BlogField> extends never ? true : never = true;
void everyPropertyListed;

/** A stored blog as read with a projection: its validator fields, and maybe some of the rest. */
export type ProjectedBlogDoc = Pick<BlogDoc, "_id" | "updatedAt" | "releasedAt"> & Partial<BlogDoc>;

/**
 * A `fields` selection in its canonical form: the names in the spec's order, each once, `id`
 * included. `key` names the representation (it goes into the ETag); `projection` is every stored
 * field the selected ones are made of.
 */
export interface FieldSelection {
  readonly names: readonly BlogField[];
  readonly key: string;
  readonly projection: Readonly<Record<string, 1>>;
}

const isBlogField = (name: string): name is BlogField =>
  (BLOG_FIELDS as readonly string[]).includes(name);

/** Each field of the consumer `Blog`, and the stored fields it is made of (blog-view.ts `toBlog`). */
const STORED: { readonly [K in BlogField]: readonly (keyof BlogDoc)[] } = {
  id: ["_id"],
  slug: ["slug"],
  title: ["title"],
  excerpt: ["excerpt"],
  bodyMarkdown: ["bodyMarkdown"],
  bodyHtml: ["bodyHtml"],
  tags: ["tags"],
  authorName: ["authorName"],
  coverImageUrl: ["coverImageUrl"],
  releasedAt: ["releasedAt", "updatedAt"],
  updatedAt: ["updatedAt"],
};

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
  for (const name of names) for (const stored of STORED[name]) projection[stored] = 1;
  return { names, key: names.join(","), projection };
}

/** A stored field the projection should have read; a bug (500) if it did not. */
function read<K extends keyof BlogDoc>(doc: ProjectedBlogDoc, key: K): BlogDoc[K] {
  const value = doc[key];
  if (value === undefined) throw new Error(`Blog field ${key} was not read.`);
  return value as BlogDoc[K];
}

/** One field of the consumer view, exactly as `toBlog` (blog-view.ts) makes it. */
const VIEW: { readonly [K in BlogField]: (doc: ProjectedBlogDoc) => Blog[K] } = {
  id: (doc) => doc._id,
  slug: (doc) => read(doc, "slug"),
  title: (doc) => read(doc, "title"),
  excerpt: (doc) => read(doc, "excerpt"),
  bodyMarkdown: (doc) => read(doc, "bodyMarkdown"),
  bodyHtml: (doc) => read(doc, "bodyHtml"),
  tags: (doc) => read(doc, "tags"),
  authorName: (doc) => read(doc, "authorName"),
  coverImageUrl: (doc) => read(doc, "coverImageUrl"),
  releasedAt: (doc) => (doc.releasedAt ?? doc.updatedAt).toISOString(),
  updatedAt: (doc) => doc.updatedAt.toISOString(),
};

/** A projected stored blog → the spec's `PartialBlog`: the selected fields, in the spec's order. */
export function toPartialBlog(doc: ProjectedBlogDoc, selection: FieldSelection): PartialBlog {
  const blog: Record<string, unknown> = {};
  for (const name of selection.names) blog[name] = VIEW[name](doc);
  return blog as PartialBlog;
}
