import type { ErrorRequestHandler, RequestHandler } from "express";
import { DomainError, type DomainErrorCode } from "../domain-error.js";
import type { ErrorBody } from "./consumer-types.js";

/**
 * An answer the edge itself gives (a bad key, a refused origin, a path outside every route);
 * the domain throws `DomainError`s, mapped below. The error handler maps both (and library
 * errors) to HTTP. No stack trace is captured (a 401 is thrown on every bad request, and
 * capturing one cost ~2 % of the server's CPU under a flood of bad keys). Faults keep their own
 * errors, and stacks, in the log.
 */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message); // cannot throw: a string message
    Error.stackTraceLimit = limit;
  }
}

export const INVALID_KEY_MESSAGE = "Invalid or missing API key.";
export const INTERNAL_ERROR_MESSAGE = "Internal server error.";

export const unauthorized = (): HttpError => new HttpError(401, INVALID_KEY_MESSAGE);
export const badRequest = (message: string): HttpError => new HttpError(400, message);

/**
 * The status of each domain error code (platform/domain-error.ts): where the domain's 400s, 401s, 403s,
 * 404s, 409s, 410s, 412s, 413s, 415s, 422s, 429s, 501s and 503s come from. The body is `{"message": …}` with its
 * message (a feature's edge may answer its own errors first: admin/blog-routes.ts's 412).
 */
export const STATUS_OF: Readonly<Record<DomainErrorCode, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  throttled: 429,
  unavailable: 503,
  gone: 410,
  stale: 412,
  not_configured: 501,
  too_large: 413,
  unsupported_type: 415,
};

/** A domain error as an answer: its status, its message as the body, `Retry-After` when known. */
function fromDomain(err: DomainError): HttpError {
  const headers: Record<string, string> =
    err.retryAfterSeconds === undefined ? {} : { "Retry-After": String(err.retryAfterSeconds) };
  return new HttpError(STATUS_OF[err.code], err.message, headers);
}

/**
 * Errors thrown by express-openapi-validator and Express's own body/etag helpers carry a
 * client-error `status`, a message and sometimes headers (405 → `Allow`).
 */
interface ClientErrorLike {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

function isClientErrorLike(err: unknown): err is ClientErrorLike {
  if (typeof err !== "object" || err === null) return false;
  const { status, message } = err as { status?: unknown; message?: unknown };
  return typeof status === "number" && status >= 400 && status < 500 && typeof message === "string";
}

const GENERIC_MESSAGES: Readonly<Record<number, string>> = {
  404: "Not found.",
  405: "Method not allowed.",
  406: "Not acceptable.",
  413: "Request body too large.",
  415: "Unsupported media type.",
};

function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof DomainError) return fromDomain(err);
  if (isClientErrorLike(err)) {
    const headers = typeof err.headers === "object" && err.headers !== null ? err.headers : {};
    const message = GENERIC_MESSAGES[err.status] ?? err.message;
    return new HttpError(err.status, message, headers);
  }
  return new HttpError(500, INTERNAL_ERROR_MESSAGE);
}

/** One place turns every failure into `{"message": …}` with the right status; no stack leaves. */
export const errorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) {
    // Too late for an answer: Express ends the connection.
    if (toHttpError(err).status >= 500) res.locals.log.error({ err }, "request failed");
    next(err);
    return;
  }
  try {
    const httpError = toHttpError(err);
    // A domain error is an answer (busy, not set up), not a fault: only faults are logged.
    if (httpError.status >= 500 && !(err instanceof DomainError)) {
      res.locals.log.error({ err }, "request failed");
    }
    for (const [name, value] of Object.entries(httpError.headers)) res.setHeader(name, value);
    res.removeHeader("ETag");
    // Both specs' `Error` schema: the consumer's and the admin's are the same `{message}`.
    const body: ErrorBody = { message: httpError.message };
    res.status(httpError.status).json(body);
  } catch (fault) {
    // Never Express's HTML page (which would show a stack trace outside production).
    res.locals.log.error({ err: fault, cause: err }, "error handler failed");
    res.status(500).type("application/json").send(`{"message":"${INTERNAL_ERROR_MESSAGE}"}`);
  }
};

/** Paths outside every route and spec get JSON too, never Express's HTML page. */
export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new HttpError(404, "Not found."));
};
