/** What every Pressroom error carries besides its message. */
export interface PressroomErrorDetails {
  /** HTTP status of the last response; `undefined` when no response arrived. */
  readonly status?: number | undefined;
  /** The server's `x-request-id` of the last response: quote it when reporting a problem. */
  readonly requestId?: string | undefined;
  /** HTTP attempts made, retries included (0 when none was made). */
  readonly attempts: number;
  /** The delay the server asked for in `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number | undefined;
  readonly cause?: unknown;
}

/**
 * The base class of every error the SDK throws for a failed call. Switch on the subclass (or on
 * `status`), not on the message. The caller's own abort is not wrapped: the call rejects with the
 * `AbortSignal`'s reason, exactly as `fetch` does.
 */
export class PressroomError extends Error {
  static {
    PressroomError.prototype.name = "PressroomError";
  }
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly attempts: number;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: PressroomErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.requestId = details.requestId;
    this.attempts = details.attempts;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 400: a parameter was invalid; the message names it. Never retried. */
export class BadRequestError extends PressroomError {
  static {
    BadRequestError.prototype.name = "BadRequestError";
  }
}

/** 401: the API key is missing, malformed, unknown or revoked. Never retried. */
export class AuthenticationError extends PressroomError {
  static {
    AuthenticationError.prototype.name = "AuthenticationError";
  }
}

/** 404: no released blog with this ID in the key's workspace. Never retried. */
export class NotFoundError extends PressroomError {
  static {
    NotFoundError.prototype.name = "NotFoundError";
  }
}

/** 429 after the retries (or with a `Retry-After` beyond the cap). */
export class RateLimitError extends PressroomError {
  static {
    RateLimitError.prototype.name = "RateLimitError";
  }
}

/** 5xx after the retries (or with a `Retry-After` beyond the cap). */
export class ServerError extends PressroomError {
  static {
    ServerError.prototype.name = "ServerError";
  }
}

/** No HTTP response: connection refused or reset, DNS failure, … after the retries. */
export class ConnectionError extends PressroomError {
  static {
    ConnectionError.prototype.name = "ConnectionError";
  }
}

/** Every attempt exceeded `timeoutMs` (each attempt has its own timer). */
export class TimeoutError extends PressroomError {
  static {
    TimeoutError.prototype.name = "TimeoutError";
  }
}
