import type { Blog, BlogField } from "@pressroom/sdk";
import { z } from "astro/zod";

/**
 * The consumer API's `Blog` (openapi.yaml, `components.schemas.Blog`) as a Zod schema, for
 * Astro's typed `getCollection`. Dates stay the RFC 3339 strings the API sends, so an entry's
 * `data` is exactly the SDK's `Blog` (the check below fails to compile when they drift).
 */
export const blogSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  bodyMarkdown: z.string(),
  bodyHtml: z.string(),
  tags: z.array(z.string()),
  authorName: z.string(),
  authors: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      bio: z.string().nullable(),
      avatarUrl: z.string().nullable(),
      websiteUrl: z.string().nullable(),
    }),
  ),
  coverImageUrl: z.string().nullable(),
  coverImageAlt: z.string().nullable(),
  coverImage: z
    .object({ url: z.string(), width: z.number().int(), height: z.number().int(), alt: z.string() })
    .nullable(),
  featured: z.boolean(),
  metaTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  canonicalUrl: z.string().nullable(),
  socialImageUrl: z.string().nullable(),
  readingTimeMinutes: z.number().int(),
  releasedAt: z.string(),
  updatedAt: z.string(),
});

type BlogShape = typeof blogSchema.shape;

/** The schema of an entry loaded with `fields: F[]`: `blogSchema` narrowed to `F` and `id`. */
export type BlogSchema<F extends BlogField = BlogField> = [BlogField] extends [F]
  ? typeof blogSchema
  : z.ZodObject<Pick<BlogShape, F | "id">>;

/** What an entry's `data` is with `fields: F[]`: the SDK's `BlogWith<F>`. */
export type BlogData<F extends BlogField = BlogField> = z.infer<BlogSchema<F>>;

/** `blogSchema` with only `fields` (and `id`); the whole schema without `fields`. */
export function schemaFor<F extends BlogField>(fields: readonly F[] | undefined): BlogSchema<F> {
  if (fields === undefined) return blogSchema as BlogSchema<F>;
  const mask: Partial<Record<BlogField, true>> = { id: true };
  for (const field of fields) mask[field] = true;
  return blogSchema.pick(mask) as unknown as BlogSchema<F>;
}

// Compile-time: the schema's type and the SDK's generated `Blog` are the same, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const blogMatchesSdk: Same<z.infer<typeof blogSchema>, Blog> = true;
void blogMatchesSdk;
