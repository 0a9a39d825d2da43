/**
 * Reading an operation of an openapi-typescript `operations` map: its path parameters, query,
 * JSON request body and JSON answers. admin-types.ts and consumer-types.ts derive their handler
 * types (`AdminHandler<"op">`, `ConsumerHandler<"op">`) from these, one idiom for both APIs.
 */

/** What every generated operation has. */
export interface SpecOperation {
  readonly parameters: { readonly path?: unknown; readonly query?: unknown };
  readonly responses: object;
  readonly requestBody?: unknown;
}

/** `T`, or `Otherwise` when `T` is never (the spec has none: no path parameters, no body…). */
type OrElse<T, Otherwise> = [T] extends [never] ? Otherwise : T;
type JsonContent<R> = R extends { content: { "application/json": infer Body } } ? Body : never;

/** The path parameters of `Op`; an empty record when it has none. */
export type PathParamsOf<Op extends SpecOperation> = OrElse<
  NonNullable<Op["parameters"]["path"]>,
  Record<string, never>
>;
/** The query parameters of `Op` (validated and coerced by the spec's validator). */
export type QueryOf<Op extends SpecOperation> = OrElse<
  NonNullable<Op["parameters"]["query"]>,
  Record<string, never>
>;
/** The JSON request body of `Op`; undefined for operations without one. */
export type RequestBodyOf<Op extends SpecOperation> = OrElse<
  JsonContent<NonNullable<Op["requestBody"]>>,
  undefined
>;
/** The JSON body of `Op`'s answers of the statuses `Status`; never when none has one. */
export type ResponseBodyOf<Op extends SpecOperation, Status extends number> = JsonContent<
  Op["responses"][Extract<keyof Op["responses"], Status>]
>;
