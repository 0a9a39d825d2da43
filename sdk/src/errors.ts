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

/** What {@link PressroomError.fromResponse} needs besides the response and its body. */
export interface FromResponseOptions {
  /** HTTP attempts made, retries included. Default 1. */
  readonly attempts?: number | undefined;
  /** The delay the server asked for in `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number | undefined;
  /** Applied to the whole message, e.g. to remove a secret the server echoed. Default: none. */
  readonly redact?: ((text: string) => string) | undefined;
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

  /**
   * The error for an HTTP answer a call cannot use (an error status, or a success without a
   * body), of the subclass its status calls for:
   * 400 {@link BadRequestError}, 401 {@link AuthenticationError}, 404 {@link NotFoundError},
   * 429 {@link RateLimitError}, 5xx {@link ServerError}, any other status a plain
   * `PressroomError`. The message is the server's own `message` (from `body`, the parsed JSON
   * body) or a default text, followed by the facts: `Blog not found. (HTTP 404, request id …)`.
   * `requestId` comes from the response's `x-request-id`. Call it on `PressroomError` itself:
   * the class is chosen by the status, whichever class it is called on.
   */
  static fromResponse(
    response: Pick<Response, "status" | "headers">,
    body?: unknown,
    options: FromResponseOptions = {},
  ): PressroomError {
    const { status } = response;
    const requestId = response.headers.get("x-request-id") ?? undefined;
    const attempts = options.attempts ?? 1;
    const { retryAfterMs } = options;
    const facts = [
      `HTTP ${status}`,
      ...(requestId === undefined ? [] : [`request id ${requestId}`]),
      ...(attempts > 1 ? [`${attempts} attempts`] : []),
      ...(retryAfterMs === undefined ? [] : [`retry after ${retryAfterMs} ms`]),
    ];
    const said = messageOf(body) ?? defaultText(status);
    const text = `${said} (${facts.join(", ")})`;
    const message = options.redact === undefined ? text : options.redact(text);
    const ErrorClass = errorClassFor(status);
    return new ErrorClass(message, { status, requestId, attempts, retryAfterMs });
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

/** The subclass for an HTTP status; see {@link PressroomError.fromResponse}. */
function errorClassFor(status: number): typeof PressroomError {
  if (status === 400) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 404) return NotFoundError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return PressroomError;
}

/** The API's error body is `{ message }`; anything else (an HTML page, nothing) has none. */
function messageOf(body: unknown): string | undefined {
  return typeof body === "object" &&
    body !== null &&
    "message" in body &&
    typeof body.message === "string"
    ? body.message
    : undefined;
}

function defaultText(status: number): string {
  if (status >= 200 && status < 300) return "Empty response.";
  if (status === 429) return "Too many requests.";
  if (status >= 500) return "The Pressroom API failed.";
  return "Unexpected answer from the Pressroom API.";
}
