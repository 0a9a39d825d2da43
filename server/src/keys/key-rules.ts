import { invalid } from "../platform/domain-error.js";

/** The shortest a key may live when minted with an expiry: a minute (admin.yaml, mintKey). */
export const MIN_KEY_LIFETIME_MS = 60_000;
/** The longest: 366 days, a year and a leap day (GitHub's fine-grained tokens cap at a year). */
export const MAX_KEY_LIFETIME_MS = 366 * 86_400_000;
/** A roll's grace period: 1 hour to 30 days (admin.yaml, RollRequest). */
export const MIN_GRACE_SECONDS = 3_600;
export const MAX_GRACE_SECONDS = 30 * 86_400;

/**
 * An expiry asked for at mint: null (never), or a time 60 s to 366 days after `now`. The spec's
 * validator already refuses what is not a date-time; this refuses the rest, before anything is
 * stored. `minLifetimeMs` is for tests only (stores.ts, `minKeyLifetimeMs`).
 */
export function checkExpiry(
  expiresAt: Date | null,
  now: Date,
  minLifetimeMs: number = MIN_KEY_LIFETIME_MS,
): Date | null {
  if (expiresAt === null) return null;
  const lifetime = expiresAt.getTime() - now.getTime();
  if (Number.isNaN(lifetime)) throw invalid("expiresAt must be a date-time.");
  if (lifetime < minLifetimeMs) {
    throw invalid("expiresAt must be at least 60 seconds in the future.");
  }
  if (lifetime > MAX_KEY_LIFETIME_MS) {
    throw invalid("expiresAt must be at most 366 days in the future.");
  }
  return expiresAt;
}

/** A roll's grace period, in whole seconds from 1 hour to 30 days. */
export function checkGrace(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < MIN_GRACE_SECONDS || seconds > MAX_GRACE_SECONDS) {
    throw invalid(
      "gracePeriodSeconds must be a whole number from 3600 (1 hour) to 2592000 (30 days).",
    );
  }
  return seconds;
}
