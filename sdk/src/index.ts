/**
 * @pressroom/sdk — a typed client for the Pressroom consumer API, with retries, an ETag cache for
 * periodic syncs, and pagination. Types come from the API's OpenAPI contract.
 */
export type { CacheEntry, CacheStore } from "./cache.js";
export { MemoryCacheStore } from "./cache.js";
export { createClient, PressroomClient } from "./client.js";
export type { FromResponseOptions, PressroomErrorDetails } from "./errors.js";
export {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  PressroomError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "./errors.js";
export type { components, operations, paths } from "./generated/consumer.js";
export type { ImageSource, ImageUrlOptions, ImageWidth, SrcsetOptions } from "./images.js";
export { IMAGE_WIDTHS, imageUrl, srcset } from "./images.js";
export type { Authors } from "./resources/authors.js";
export type { Blogs } from "./resources/blogs.js";
export type {
  Change,
  ChangePage,
  Changes,
  ChangesOptions,
  SyncOptions,
  SyncResult,
  SyncStore,
} from "./resources/changes.js";
export { MemorySyncStore } from "./resources/changes.js";
export type { PreviewLinks } from "./resources/preview-links.js";
export type { FetchLike, RetryOptions, Sleep } from "./retry.js";
export type {
  Author,
  AuthorList,
  AuthorListResult,
  Blog,
  BlogField,
  BlogList,
  BlogPage,
  BlogWith,
  CacheOptions,
  CallOptions,
  ClientOptions,
  FieldsOptions,
  GetOptions,
  ListAllOptions,
  ListOptions,
  PartialBlog,
  ResponseInfo,
  Slug,
  TagCount,
  TagList,
  TagListResult,
} from "./types.js";
export type {
  HeadersLike,
  VerifyWebhookOptions,
  WebhookEvent,
  WebhookHeaders,
} from "./webhooks.js";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.js";
