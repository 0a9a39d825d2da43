/**
 * Shapes of the consumer API, generated from openapi/openapi.yaml, and `ConsumerHandler`, the type
 * of a handler of one of its operations (as admin-types.ts has `AdminHandler` for admin.yaml).
 * Never written by hand: a change of the spec changes these, and the compiler then points at
 * every handler and view it breaks.
 */
import type { RequestHandler } from "express";
import type { components, operations } from "../../../../openapi/generated/consumer.js";
import type { PathParamsOf, QueryOf, RequestBodyOf, ResponseBodyOf } from "./spec-types.js";

export type { paths } from "../../../../openapi/generated/consumer.js";

type Schemas = components["schemas"];
export type Blog = Schemas["Blog"];
export type Author = Schemas["Author"];
export type CoverImage = Schemas["CoverImage"];
export type AuthorList = Schemas["AuthorList"];
export type BlogList = Schemas["BlogList"];
export type PartialBlog = Schemas["PartialBlog"];
export type PartialBlogList = Schemas["PartialBlogList"];
export type TagList = Schemas["TagList"];
export type ErrorBody = Schemas["Error"];
export type ChangePage = Schemas["ChangePage"];
export type Change = Schemas["Change"];
export type JsonFeed = Schemas["JsonFeed"];

/** An operation of openapi.yaml, by its operationId. */
export type ConsumerOperation = keyof operations;

/** The path parameters of operation `K`. */
export type ConsumerParams<K extends ConsumerOperation> = PathParamsOf<operations[K]>;
/** The query parameters of operation `K` (validated and coerced by the spec's validator). */
export type ConsumerQuery<K extends ConsumerOperation> = QueryOf<operations[K]>;
/** The JSON body operation `K` takes (only `exchangePreviewToken` takes one); never otherwise. */
export type ConsumerRequestBody<K extends ConsumerOperation> = RequestBodyOf<operations[K]>;
/** The JSON body of operation `K`'s 200 answer. */
export type ConsumerResponseBody<K extends ConsumerOperation> = ResponseBodyOf<operations[K], 200>;

/**
 * A handler of operation `K`: `req.params`, `req.query` and `res.json` typed by the spec, as
 * `ConsumerHandler<"listBlogs">`, and the JSON body of the one operation that takes one.
 */
export type ConsumerHandler<K extends ConsumerOperation> = RequestHandler<
  ConsumerParams<K>,
  ConsumerResponseBody<K>,
  ConsumerRequestBody<K>,
  ConsumerQuery<K>
>;
