/**
 * Shapes of the admin API, generated from openapi/admin.yaml, and `AdminHandler`, the type of a
 * handler of one of its operations. Never written by hand: a change of the spec changes these,
 * and the compiler then points at every handler and view it breaks.
 */
import type { RequestHandler } from "express";
import type { components, operations } from "../../../../openapi/generated/admin.js";
import type { PathParamsOf, QueryOf, RequestBodyOf, ResponseBodyOf } from "./spec-types.js";

type Schemas = components["schemas"];
export type AdminBlog = Schemas["AdminBlog"];
export type ApiKey = Schemas["ApiKey"];
export type AuditEntry = Schemas["AuditEntry"];
export type Author = Schemas["Author"];
export type BlogRevision = Schemas["BlogRevision"];
export type BlogRevisionSummary = Schemas["BlogRevisionSummary"];
export type Actor = Schemas["Actor"];
export type Me = Schemas["Me"];
export type Media = Schemas["Media"];
export type MediaInUse = Schemas["MediaInUse"];
export type Member = Schemas["Member"];
export type User = Schemas["User"];
export type Workspace = Schemas["Workspace"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookAttempt = Schemas["WebhookAttempt"];

/** An operation of admin.yaml, by its operationId. */
export type AdminOperation = keyof operations;

/** The path parameters of operation `K`. */
export type AdminParams<K extends AdminOperation> = PathParamsOf<operations[K]>;
/** The query parameters of operation `K` (validated and coerced by the spec's validator). */
export type AdminQuery<K extends AdminOperation> = QueryOf<operations[K]>;
/** The JSON request body of operation `K`; undefined for operations without one. */
export type AdminRequestBody<K extends AdminOperation> = RequestBodyOf<operations[K]>;
/** The JSON body of operation `K`'s success answers (200, 201, 202); never for 204 only. */
export type AdminResponseBody<K extends AdminOperation> = ResponseBodyOf<
  operations[K],
  200 | 201 | 202
>;

/**
 * A handler of operation `K`: `req.params`, `req.query`, `req.body` and `res.json` typed by the
 * spec, as `AdminHandler<"mintKey">`.
 */
export type AdminHandler<K extends AdminOperation> = RequestHandler<
  AdminParams<K>,
  AdminResponseBody<K>,
  AdminRequestBody<K>,
  AdminQuery<K>
>;
