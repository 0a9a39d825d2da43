import type { Request, RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { badRequest } from "./errors.js";
import { type SpecDocument, type WarmedOperation, warmUpValidator } from "./validator-warm-up.js";

/** The validator of one spec, and the way to have it ready before the first request. */
export interface SpecValidator {
  /** Mount these, in order, where the spec's requests are to be validated. */
  readonly handlers: readonly RequestHandler[];
  /**
   * Loads the spec into the validator and compiles every operation's request validator, by one
   * loopback request per operation through these same handlers (validator-warm-up.ts). Without
   * it the first request after a start waits for both (~0.3 s on 2 cores), and each operation's
   * first request for its own schemas.
   */
  warmUp(): Promise<readonly WarmedOperation[]>;
}

/**
 * express-openapi-validator for one spec, as both routers use it: requests must match the spec,
 * unknown query parameters included, and responses too when `validateResponses` is on (tests
 * and development). Security is not its job: the consumer router verifies keys and the admin
 * router sessions, against the database, once per request.
 *
 * The spec is dereferenced (not only bundled) so that the matched operation's parameters, on
 * `req.openapi.schema`, are plain objects that `strictIntegerQuery` can read. The validator does
 * not check the spec against the OpenAPI schema at every start (`validateApiSpec`: ~0.2 s of CPU
 * per spec): `npm run lint` checks both specs with Redocly and Spectral, and the warm-up compiles
 * every operation's schemas at start-up, so a schema ajv cannot compile still stops the start.
 */
export function specValidator(spec: SpecDocument, validateResponses: boolean): SpecValidator {
  const handlers: readonly RequestHandler[] = [
    ...OpenApiValidator.middleware({
      apiSpec: spec.path,
      $refParser: { mode: "dereference" },
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses,
      validateSecurity: false,
    }),
    strictIntegerQuery,
  ];
  return { handlers, warmUp: () => warmUpValidator(spec, handlers) };
}

/** What a query parameter of the matched operation looks like once the spec is dereferenced. */
interface ParameterLike {
  name?: unknown;
  in?: unknown;
  schema?: { type?: unknown };
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;

const isIntegerSchema = (type: unknown): boolean =>
  type === "integer" || (Array.isArray(type) && type.includes("integer"));

/** Names of the operation's integer query parameters (path-level ones included), per operation. */
const integerQueryNames = new WeakMap<object, readonly string[]>();

function integerQueryParametersOf(req: Request): readonly string[] {
  const operation: unknown = (req as { openapi?: { schema?: unknown } }).openapi?.schema;
  if (typeof operation !== "object" || operation === null) return [];
  const known = integerQueryNames.get(operation);
  if (known !== undefined) return known;
  const { parameters } = operation as { parameters?: unknown };
  const names = (Array.isArray(parameters) ? (parameters as ParameterLike[]) : [])
    .filter(
      (p) => p.in === "query" && typeof p.name === "string" && isIntegerSchema(p.schema?.type),
    )
    .map((p) => p.name as string);
  integerQueryNames.set(operation, names);
  return names;
}

/** The query string as sent, parsed by the app's own query parser (what the validator saw). */
function rawQuery(req: Request): Record<string, unknown> {
  const at = req.originalUrl.indexOf("?");
  if (at === -1) return {};
  const parse: unknown = req.app.get("query parser fn");
  if (typeof parse !== "function") return {};
  const parsed: unknown = (parse as (query: string) => unknown)(req.originalUrl.slice(at + 1));
  return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

/**
 * Every integer query parameter of the matched operation must have been sent as plain decimal
 * digits. The validator coerces query strings with `Number()` before checking them, so without
 * this `limit=0x10`, `limit=1e2`, `limit=+5` (a space, once decoded) and `limit= 5` would pass
 * as 16, 100 and 5. Runs after the validator (so `req.openapi` names the operation); reads the
 * parameters from the spec, never from a list of names here.
 */
const strictIntegerQuery: RequestHandler = (req, _res, next) => {
  const names = integerQueryParametersOf(req);
  if (names.length === 0) {
    next();
    return;
  }
  const query = rawQuery(req);
  for (const name of names) {
    const sent = query[name];
    if (sent === undefined) continue;
    const values = Array.isArray(sent) ? sent : [sent];
    if (!values.every((v) => typeof v === "string" && DECIMAL_INTEGER.test(v))) {
      next(badRequest(`request/query/${name} must be an integer in decimal digits`));
      return;
    }
  }
  next();
};
