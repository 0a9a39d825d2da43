/** Shapes of the consumer API, generated from openapi/openapi.yaml. Never written by hand. */
import type { components, operations } from "../../../../openapi/generated/consumer.js";

export type { paths } from "../../../../openapi/generated/consumer.js";
export type Blog = components["schemas"]["Blog"];
export type BlogList = components["schemas"]["BlogList"];
export type PartialBlog = components["schemas"]["PartialBlog"];
export type PartialBlogList = components["schemas"]["PartialBlogList"];
export type TagList = components["schemas"]["TagList"];
export type ErrorBody = components["schemas"]["Error"];
export type ListBlogsQuery = NonNullable<operations["listBlogs"]["parameters"]["query"]>;
export type GetBlogParams = operations["getBlog"]["parameters"]["path"];
export type GetBlogQuery = NonNullable<operations["getBlog"]["parameters"]["query"]>;
export type GetBlogBySlugParams = operations["getBlogBySlug"]["parameters"]["path"];
export type GetBlogBySlugQuery = NonNullable<operations["getBlogBySlug"]["parameters"]["query"]>;
export type ChangePage = components["schemas"]["ChangePage"];
export type Change = components["schemas"]["Change"];
export type ListChangesQuery = NonNullable<operations["listChanges"]["parameters"]["query"]>;
