import type { ErrorRequestHandler, Request, RequestHandler } from "express";
import { DomainError } from "../platform/domain-error.js";
import { hashToken } from "../sessions/sessions-store.js";
import { sessionTokenOf } from "./guards.js";

/** Longest a refusal is replayed, however long the Retry-After it gave. */
const REPLAY_MAX_MS = 1000;

/** Refusals remembered at once; past it the oldest is forgotten first. */
const MAX_REMEMBERED = 10_000;

interface Remembered {
  readonly until: number;
  readonly refusal: DomainError;
}

/** A refusal by a limit, which tells the client when to try again. */
const isLimitRefusal = (err: unknown): err is DomainError & { retryAfterSeconds: number } =>
  err instanceof DomainError &&
  err.retryAfterSeconds !== undefined &&
  (err.code === "throttled" || err.code === "unavailable");

/**
 * A signed-in client that repeats a request a limit has just refused (429 or 503 with
 * Retry-After: a workspace's renders, a person's previews, test events, a throttle) is refused
 * again, without its session, its membership or anything else being looked up, and answered
 * only when the refusal's Retry-After, at most a second, has passed (README, "Fair sharing
 * between tenants").
 *
 * Why: a client that ignores Retry-After in a tight loop was answered quickly, so each of its
 * parallel loops sent ~10 requests a second, each costing the database two lookups; answered at
 * once from memory instead, the loops sent ~400 a second, each costing the request thread what
 * any request costs. Either way the other tenants of a small machine were slowed (bench:fairness).
 * Held until the window ends, a loop sends one request a second; a client that waits as told
 * never meets the replay.
 *
 * Remembered per session cookie (only its hash is kept), method and path, and only when the
 * session was valid when the limit refused it: someone else's session, another workspace or
 * another endpoint is never refused by it, and nobody without a session can fill the memory.
 * `replay` runs before the session lookup; `remember` is an error handler after the routes.
 */
export function refusalReplay(now: () => number = () => performance.now()) {
  const remembered = new Map<string, Remembered>();

  const keyOf = (req: Request): string | undefined => {
    const token = sessionTokenOf(req);
    if (token === undefined) return undefined;
    return `${hashToken(token)} ${req.method} ${req.path}`;
  };

  const replay: RequestHandler = (req, _res, next) => {
    const key = remembered.size === 0 ? undefined : keyOf(req);
    const entry = key === undefined ? undefined : remembered.get(key);
    if (key !== undefined && entry !== undefined) {
      const wait = entry.until - now();
      if (wait > 0) {
        // Answered when the repeat would have been on time: a client looping on refusals then
        // sends one request per connection and window, not hundreds.
        setTimeout(() => next(entry.refusal), wait);
        return;
      }
      remembered.delete(key);
    }
    next();
  };

  const remember: ErrorRequestHandler = (err, req, res, next) => {
    const key = isLimitRefusal(err) && res.locals.userId !== undefined ? keyOf(req) : undefined;
    if (key !== undefined && isLimitRefusal(err)) {
      remembered.delete(key);
      if (remembered.size >= MAX_REMEMBERED) {
        const oldest = remembered.keys().next();
        if (oldest.done !== true) remembered.delete(oldest.value);
      }
      const forMs = Math.min(err.retryAfterSeconds * 1000, REPLAY_MAX_MS);
      remembered.set(key, { until: now() + forMs, refusal: err });
    }
    next(err);
  };

  return { replay, remember };
}
