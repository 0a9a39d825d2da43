/**
 * Shapes of the admin API, generated from openapi/admin.yaml, and `AdminHandler`, the type of a
 * handler of one of its operations. Never written by hand: a change of the spec changes these,
 * and the compiler then points at every handler and view it breaks.
 */
import type { RequestHandler } from "express";
import type { components, operations } from "../../../../openapi/generated/admin.js";

type Schemas = components["schemas"];
export type AdminBlog = Schemas["AdminBlog"];
export type ApiKey = Schemas["ApiKey"];
export type AuditEntry = Schemas["AuditEntry"];
export type Actor = Schemas["Actor"];
export type Me = Schemas["Me"];
export type Member = Schemas["Member"];
export type User = Schemas["User"];
export type Workspace = Schemas["Workspace"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookAttempt = Schemas["WebhookAttempt"];

/** An operation of admin.yaml, by its operationId. */
export type AdminOperation = keyof operations;

/** `T`, or `Otherwise` when `T` is never (the spec has none: no path parameters, no body…). */
type OrElse<T, Otherwise> = [T] extends [never] ? Otherwise : T;
type JsonContent<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type Responses<K extends AdminOperation> = operations[K]["responses"];
type SuccessStatus<K extends AdminOperation> = Extract<keyof Responses<K>, 200 | 201 | 202>;

/** The path parameters of operation `K`. */
export type AdminParams<K extends AdminOperation> = OrElse<
  NonNullable<operations[K]["parameters"]["path"]>,
  Record<string, never>
>;
/** The query parameters of operation `K` (validated and coerced by the spec's validator). */
export type AdminQuery<K extends AdminOperation> = OrElse<
  NonNullable<operations[K]["parameters"]["query"]>,
  Record<string, never>
>;
/** The JSON request body of operation `K`; undefined for operations without one. */
export type AdminRequestBody<K extends AdminOperation> = OrElse<
  JsonContent<NonNullable<operations[K]["requestBody"]>>,
  undefined
>;
/** The JSON body of operation `K`'s success answers (200, 201, 202); never for 204 only. */
export type AdminResponseBody<K extends AdminOperation> = JsonContent<
  Responses<K>[SuccessStatus<K>]
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
