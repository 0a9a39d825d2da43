/**
 * The one error type of the domain (stores, rules, sign-in, rendering): what went wrong, by a
 * code, and a message for people. It knows nothing of HTTP: the API's edge maps each code to a
 * status (platform/http/errors.ts) and the CLI to an exit code (cli/failure.ts).
 *
 * It is an answer, not a fault: no stack trace is captured (a 404 is thrown on many bad
 * requests, and capturing one cost ~2 % of the server's CPU under a flood of them). Faults keep
 * their own errors, and stacks, in the log.
 */
export type DomainErrorCode =
  /** A value breaks a rule: a blank title, a malformed slug, a cursor this server never made. */
  | "invalid"
  /** Nobody is signed in, or the email and password do not match. */
  | "unauthenticated"
  /** Signed in, but not allowed: an action for the workspace's owner only. */
  | "forbidden"
  /** No such thing, or not one the caller may see. */
  | "not_found"
  /** The current state forbids it: a slug taken, a key revoked already, the owner's membership. */
  | "conflict"
  /** Well-formed, but the renderer refuses the body (too deeply nested, too slow). */
  | "unprocessable"
  /** Too many attempts; `retryAfterSeconds` says when to try again. */
  | "throttled"
  /** Busy for now; `retryAfterSeconds` says when to try again. */
  | "unavailable"
  /** Existed, but is kept no longer: a changes-feed token older than the retention. */
  | "gone"
  /** Changed since the version the caller named: a conditional write that changed nothing. */
  | "stale"
  /** More bytes than the operation takes: an image past the upload limit. */
  | "too_large"
  /** Not of a type the operation takes: bytes that are no image the library stores. */
  | "unsupported_type"
  /** This server is not set up for it: a reset link to mail, with no mail configured. */
  | "not_configured";

export class DomainError extends Error {
  override readonly name = "DomainError";
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** When a retry may succeed (throttled, unavailable). */
    readonly retryAfterSeconds?: number,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message); // cannot throw: a string message
    Error.stackTraceLimit = limit;
  }
}

export const invalid = (message: string): DomainError => new DomainError("invalid", message);
export const notFound = (message: string): DomainError => new DomainError("not_found", message);
export const gone = (message: string): DomainError => new DomainError("gone", message);
export const conflict = (message: string): DomainError => new DomainError("conflict", message);
