/**
 * What an access token may do (admin.yaml, the AccessToken scheme): each operation names the
 * scopes it needs in its `AccessToken` security requirement, and an operation without one takes
 * no token. Read from the spec once, at start, and checked then: every requirement names a
 * scheme the spec defines, and every scope one of AccessTokenScope's (Spectral's own check of
 * this is off: it reads OAS 3.0's rule, .spectral.yaml).
 */
import type { RequestHandler } from "express";
import { DomainError } from "../platform/domain-error.js";
import type { SpecDocument } from "../platform/http/validator-warm-up.js";

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

export const NO_TOKENS_MESSAGE =
  "Access tokens cannot do this: sign in to the dashboard (admin.yaml names what a token may do).";
export const scopeMissing = (scope: string): string =>
  `This access token does not have the scope ${scope}.`;

type Requirement = Readonly<Record<string, readonly string[]>>;
interface Shape {
  security?: readonly Requirement[];
  components?: {
    securitySchemes?: Readonly<Record<string, unknown>>;
    schemas?: { AccessTokenScope?: { enum?: readonly string[] } };
  };
  paths?: Readonly<
    Record<
      string,
      Readonly<Record<string, { operationId?: string; security?: readonly Requirement[] }>>
    >
  >;
}

/** operationId → the scopes an access token needs for it; an operation absent takes no token. */
export function tokenScopesOf(spec: SpecDocument): ReadonlyMap<string, readonly string[]> {
  const doc = spec.document as Shape;
  const schemes = new Set(Object.keys(doc.components?.securitySchemes ?? {}));
  const known = new Set(doc.components?.schemas?.AccessTokenScope?.enum ?? []);
  const out = new Map<string, readonly string[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const where = `${method.toUpperCase()} ${path}`;
      for (const requirement of operation.security ?? doc.security ?? []) {
        for (const [scheme, scopes] of Object.entries(requirement)) {
          if (!schemes.has(scheme))
            throw new Error(`${spec.path}: ${where} names no scheme ${scheme}`);
          if (scheme !== "AccessToken") continue;
          const unknown = scopes.filter((s) => !known.has(s));
          if (unknown.length > 0)
            throw new Error(`${spec.path}: ${where}: unknown scopes ${unknown.join(", ")}`);
          out.set(operation.operationId ?? where, scopes);
        }
      }
    }
  }
  return out;
}

/** `blogs:write` holds `blogs:read`: a token that may write a blog may read it. */
const holds = (granted: readonly string[], needed: string): boolean =>
  granted.includes(needed) || (needed === "blogs:read" && granted.includes("blogs:write"));

/**
 * `requireTokenScope`'s check for one known operation, before the validator: an operation
 * whose large body is read only for a caller allowed to send it (admin-router.ts).
 */
export function tokenScopeOf(
  scopes: ReadonlyMap<string, readonly string[]>,
  operationId: string,
): RequestHandler {
  const needed = scopes.get(operationId);
  if (needed === undefined) throw new Error(`admin.yaml: ${operationId} takes no access token`);
  return (_req, res, next) => {
    const grant = res.locals.accessToken;
    const missing = grant === undefined ? undefined : needed.find((s) => !holds(grant.scopes, s));
    if (missing !== undefined) throw new DomainError("forbidden", scopeMissing(missing));
    next();
  };
}

/**
 * After the validator (which names the operation in `req.openapi`) and the session check: a
 * request made with an access token passes only where the operation takes tokens, and with
 * every scope it needs ("forbidden" otherwise). The user's role is checked as for a session, by
 * the guards, at each request.
 */
export function requireTokenScope(scopes: ReadonlyMap<string, readonly string[]>): RequestHandler {
  return (req, res, next) => {
    const grant = res.locals.accessToken;
    if (grant === undefined) {
      next();
      return;
    }
    const operationId = (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema
      ?.operationId;
    const needed = operationId === undefined ? undefined : scopes.get(operationId);
    if (needed === undefined) throw new DomainError("forbidden", NO_TOKENS_MESSAGE);
    const missing = needed.find((s) => !holds(grant.scopes, s));
    if (missing !== undefined) throw new DomainError("forbidden", scopeMissing(missing));
    next();
  };
}
