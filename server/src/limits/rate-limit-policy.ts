import type { RateLimitSetting } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";

/**
 * The limit a consumer request is held to: the key's own, else its workspace's default, else
 * the server's (config `CONSUMER_RATE_LIMIT`); null: none at all.
 */
export function effectiveLimit(
  own: RateLimitSetting | null | undefined,
  workspaceDefault: RateLimitSetting | null | undefined,
  serverDefault: RateLimitSetting | null,
): RateLimitSetting | null {
  return own ?? workspaceDefault ?? serverDefault;
}

/** Fixed windows aligned to the epoch: the start (ms) of the window `at` falls in. */
export function windowStartOf(at: number, windowSeconds: number): number {
  const ms = windowSeconds * 1000;
  return Math.floor(at / ms) * ms;
}

/**
 * Requests an instance may admit without asking the database, near the top of the window: it
 * admits on its own only while `known + unsynced + 1 <= requests - reserve` and `unsynced <
 * reserve` (rate-limiter.ts). One twentieth of the limit, at least 1.
 */
export function reserveOf(requests: number): number {
  return Math.max(1, Math.ceil(requests / 20));
}

/**
 * The IETF RateLimit header fields, draft-ietf-httpapi-ratelimit-headers-10 (structured
 * fields, as since -08): `RateLimit-Policy: "default";q=<requests>;w=<window seconds>` and
 * `RateLimit: "default";r=<remaining>;t=<seconds to the window's end>`.
 */
export function rateLimitFields(
  limit: RateLimitSetting,
  remaining: number,
  resetSeconds: number,
): { policy: string; current: string } {
  return {
    policy: `"default";q=${limit.requests};w=${limit.windowSeconds}`,
    current: `"default";r=${Math.max(0, remaining)};t=${resetSeconds}`,
  };
}

/** A rate limit: 1 to 1,000,000 requests per 1 to 86,400 seconds (admin.yaml, RateLimit). */
export function checkRateLimit<T extends { requests: number; windowSeconds: number }>(
  limit: T | null,
): { requests: number; windowSeconds: number } | null {
  if (limit === null) return null;
  const { requests, windowSeconds } = limit;
  if (!Number.isInteger(requests) || requests < 1 || requests > 1_000_000) {
    throw invalid("rateLimit.requests must be a whole number from 1 to 1000000.");
  }
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > 86_400) {
    throw invalid("rateLimit.windowSeconds must be a whole number from 1 to 86400.");
  }
  return { requests, windowSeconds };
}
