import type { RequestHandler } from "express";
import type { RateLimitSetting } from "../platform/db/collections.js";
import { HttpError } from "../platform/http/errors.js";
import type { RejectionReason } from "../platform/metrics/metrics.js";
import { effectiveLimit, rateLimitFields } from "./rate-limit-policy.js";
import type { RateLimiter } from "./rate-limiter.js";
import { outcomeOf } from "./usage-buckets.js";
import type { UsageRecorder } from "./usage-recorder.js";
import type { WorkspaceLimits } from "./workspace-limits.js";

export interface RateLimitDeps {
  readonly limiter: RateLimiter;
  readonly workspaceLimits: WorkspaceLimits;
  /** The server's default (config `CONSUMER_RATE_LIMIT`); null: none. */
  readonly serverDefault: RateLimitSetting | null;
  readonly usage: UsageRecorder;
  /** Counts each 429 (metrics). */
  readonly rejected: (reason: RejectionReason) => void;
}

export const RATE_LIMITED_MESSAGE = "Rate limit exceeded: too many requests with this API key.";

/**
 * After authentication, on every consumer request: counts the request against its key's
 * effective limit (the key's own, else its workspace's default, else the server's; openapi.yaml,
 * "Rate limits"), sets the RateLimit-Policy and RateLimit fields when there is a limit, refuses
 * with 429 and `Retry-After` over it, and counts the response's outcome in the key's usage.
 */
export function rateLimit(deps: RateLimitDeps): RequestHandler {
  return async (_req, res, next) => {
    const key = res.locals.apiKey;
    const workspaceId = res.locals.workspaceId;
    if (key === undefined || workspaceId === undefined) {
      next();
      return;
    }
    res.on("finish", () => {
      deps.usage.record(key.keyId, workspaceId, outcomeOf(res.statusCode));
    });
    const own = key.rateLimit ?? null;
    const limit = effectiveLimit(
      own,
      own === null ? await deps.workspaceLimits.defaultOf(workspaceId) : null,
      deps.serverDefault,
    );
    if (limit === null) {
      next();
      return;
    }
    const decision = await deps.limiter.check(key.keyId, limit);
    const fields = rateLimitFields(limit, decision.remaining, decision.resetSeconds);
    res.setHeader("RateLimit-Policy", fields.policy);
    res.setHeader("RateLimit", fields.current);
    if (!decision.allowed) {
      deps.rejected("rate_limited");
      throw new HttpError(429, RATE_LIMITED_MESSAGE, {
        "Retry-After": String(decision.resetSeconds),
      });
    }
    next();
  };
}
