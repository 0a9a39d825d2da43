import { ConnectionError, TimeoutError } from "./errors.js";

/** What the SDK needs of `fetch`: one `Request` in, one `Response` out. */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * Waits `ms` milliseconds. Should end early when `signal` aborts; the SDK also races it against
 * `signal`, so an abort during a wait rejects at once whatever the implementation does.
 */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** How failed attempts are retried. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 4; 1 means no retries. */
  readonly maxAttempts?: number;
  /** Wait before the second attempt, doubled before each next one. Default 250 ms. */
  readonly baseDelayMs?: number;
  /** Longest backoff wait. Default 10 000 ms. */
  readonly maxDelayMs?: number;
  /**
   * Fraction (0–1) by which each backoff wait is shortened at random, so that many clients
   * failing together do not retry in step; it never lengthens a wait, and a `Retry-After` is
   * never shortened. Default 0.25: waits of 187.5–250, 375–500 and 750–1000 ms. 0 gives the
   * exact schedule 250, 500, 1000 ms (tests, callers who need determinism).
   */
  readonly jitter?: number;
  /**
   * Longest `Retry-After` (on 429 and 503) honoured. A longer one stops the retries at once and
   * the error carries `retryAfterMs`, for your scheduler to decide. Default 30 000 ms.
   */
  readonly maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  jitter: 0.25,
  maxRetryAfterMs: 30_000,
});

/** The client's policy, overridden field by field by a call's; `false` means one attempt. */
export function resolveRetry(
  base: RetryPolicy,
  override: RetryOptions | false | undefined,
): RetryPolicy {
  if (override === false) return { ...base, maxAttempts: 1 };
  if (override === undefined) return base;
  const policy = { ...base, ...definedOnly(override) };
  checkRetry(policy);
  return policy;
}

export function checkRetry(policy: RetryPolicy): void {
  const { maxAttempts, baseDelayMs, maxDelayMs, jitter, maxRetryAfterMs } = policy;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError("retry.maxAttempts must be an integer of at least 1.");
  }
  for (const [name, value] of Object.entries({ baseDelayMs, maxDelayMs, maxRetryAfterMs })) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`retry.${name} must be a finite number of milliseconds, at least 0.`);
    }
  }
  if (!(jitter >= 0 && jitter <= 1)) throw new RangeError("retry.jitter must be between 0 and 1.");
}

function definedOnly(options: RetryOptions): RetryOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/**
 * A final HTTP answer with the facts the layers that produced it know: each layer returns it to
 * the one above (retries → cache → client), so nothing about a response travels on the side.
 */
export interface Answer {
  readonly response: Response;
  /** HTTP attempts made for this answer, retries included. */
  readonly attempts: number;
  /** `true` when the ETag cache gave back its body after a 304. */
  readonly notModified: boolean;
  /** The `Retry-After` of a 429 or 503, in ms from when it arrived, when it sent one. */
  readonly retryAfterMs: number | undefined;
}

export interface RetryContext {
  readonly transport: FetchLike;
  readonly policy: RetryPolicy;
  /** Each attempt's own time limit, body download included. */
  readonly timeoutMs: number;
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly random: () => number;
  /** Removes secrets from a message before it goes into an error. */
  readonly redact: (text: string) => string;
}

/**
 * Sends `request` until it gets a final answer:
 * - 5xx, 429, network failures and per-attempt timeouts are retried, at most
 *   `policy.maxAttempts` attempts in all, with exponential backoff, or the `Retry-After` of a 429
 *   or 503 when it is within `policy.maxRetryAfterMs`;
 * - every other status is final and returned as is (the client turns it into an error);
 * - the caller's abort (on `request.signal`) is never retried: the call rejects with its reason.
 * Every attempt sends a fresh clone of `request` with its own timeout, and the response body is
 * read within that timeout, so the returned Response is fully buffered. The answer also carries
 * the attempts made and the final response's `Retry-After`.
 */
export async function fetchWithRetries(request: Request, ctx: RetryContext): Promise<Answer> {
  const caller = request.signal;
  const { policy } = ctx;
  for (let attempt = 1; ; attempt++) {
    caller.throwIfAborted();
    const timeout = AbortSignal.timeout(ctx.timeoutMs);
    let response: Response;
    try {
      const attemptRequest = new Request(request.clone(), {
        signal: AbortSignal.any([caller, timeout]),
      });
      response = await buffered(await ctx.transport(attemptRequest));
    } catch (error) {
      if (caller.aborted) throw caller.reason;
      if (attempt >= policy.maxAttempts)
        throw failure(request, error, timeout.aborted, attempt, ctx);
      await pause(ctx, backoff(policy, attempt, ctx.random), caller);
      continue;
    }

    const retryAfterMs = retryAfterOf(response, ctx.now);
    const retryable = response.status >= 500 || response.status === 429;
    const tooLong = retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs;
    if (!retryable || tooLong || attempt >= policy.maxAttempts) {
      return { response, attempts: attempt, notModified: false, retryAfterMs };
    }
    await pause(ctx, retryAfterMs ?? backoff(policy, attempt, ctx.random), caller);
  }
}

/** The wait after failed attempt `attempt` (1-based): base · 2^(attempt−1), capped, maybe shortened. */
export function backoff(policy: RetryPolicy, attempt: number, random: () => number): number {
  const nominal = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return nominal * (1 - policy.jitter * random());
}

/** `Retry-After` of a 429 or 503, as delay-seconds or an HTTP-date, in ms from now. */
export function retryAfterOf(response: Response, now: () => number): number | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const value = response.headers.get("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/** Reads the body within the attempt's timeout; the copy no longer depends on the connection. */
async function buffered(response: Response): Promise<Response> {
  const nullBody = response.status === 204 || response.status === 304;
  if (nullBody) await response.body?.cancel();
  const body = nullBody || response.body === null ? null : await response.arrayBuffer();
  const headers = new Headers(response.headers);
  // The buffer is decoded; these described the bytes on the wire.
  headers.delete("content-encoding");
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function failure(
  request: Request,
  error: unknown,
  timedOut: boolean,
  attempts: number,
  ctx: RetryContext,
): Error {
  const where = `${request.method} ${urlForMessage(request.url)}`;
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  if (timedOut) {
    return new TimeoutError(
      ctx.redact(`${where} timed out after ${ctx.timeoutMs} ms (${tries}).`),
      { attempts, cause: error },
    );
  }
  const reason = describe(error);
  return new ConnectionError(
    ctx.redact(`${where} failed: no response from the Pressroom API (${tries})${reason}.`),
    { attempts, cause: error },
  );
}

/** The URL without its query string: cursors are long and say nothing useful in a message. */
function urlForMessage(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return "";
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = cause !== undefined && "code" in cause ? cause.code : undefined;
  const detail = typeof code === "string" ? code : (cause?.message ?? error.message);
  return detail === "" ? "" : `: ${detail}`;
}

/** Waits, but rejects with the abort reason the moment `signal` aborts. */
function pause(ctx: RetryContext, ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    ctx.sleep(ms, signal).then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? signal.reason : error);
      },
    );
  });
}

/** The default `Sleep`: a timer that is cleared when `signal` aborts. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => clearTimeout(timer);
    signal.addEventListener("abort", onAbort, { once: true });
  });
