/** Shapes of the consumer API, generated from openapi/openapi.yaml. Never written by hand. */
import type { components, operations } from "../../openapi/generated/consumer.js";

export type { paths } from "../../openapi/generated/consumer.js";
export type Blog = components["schemas"]["Blog"];
export type BlogList = components["schemas"]["BlogList"];
export type ErrorBody = components["schemas"]["Error"];
export type ListBlogsQuery = NonNullable<operations["listBlogs"]["parameters"]["query"]>;
export type GetBlogParams = operations["getBlog"]["parameters"]["path"];
export type GetBlogBySlugParams = operations["getBlogBySlug"]["parameters"]["path"];
