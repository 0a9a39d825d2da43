import { USAGE_OUTCOMES, type UsageOutcome } from "../platform/db/collections.js";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Hourly buckets are kept 48 hours, daily ones 90 days. */
export const KEEP_HOURS_MS = 48 * HOUR_MS;
export const KEEP_DAYS_MS = 90 * DAY_MS;

export type UsageCounts = Record<UsageOutcome, number>;

export const zeroCounts = (): UsageCounts => ({
  ok: 0,
  notModified: 0,
  notFound: 0,
  rateLimited: 0,
  other: 0,
});

/**
 * The outcome a consumer response counts as: 2xx ok, 304 notModified, 404 notFound, 429
 * rateLimited, anything else (other 4xx, 5xx) other. Requests refused with 401 before a key
 * was known are never counted (there is no key to count them for).
 */
export function outcomeOf(status: number): UsageOutcome {
  if (status >= 200 && status < 300) return "ok";
  if (status === 304) return "notModified";
  if (status === 404) return "notFound";
  if (status === 429) return "rateLimited";
  return "other";
}

export const floorTo = (at: number, unitMs: number): number => Math.floor(at / unitMs) * unitMs;

/** The `_id` of a bucket: owner (key or workspace id), "h" or "d", and the start in ISO 8601. */
export const bucketId = (owner: string, unit: "h" | "d", start: number): string =>
  `${owner}/${unit}/${new Date(start).toISOString()}`;

export function addCounts(into: UsageCounts, from: Partial<UsageCounts>): void {
  for (const outcome of USAGE_OUTCOMES) into[outcome] += from[outcome] ?? 0;
}
