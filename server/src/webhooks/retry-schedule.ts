/**
 * When a failed delivery is tried again (openapi/openapi.yaml, "Webhooks"): after about 10 s,
 * 30 s, 90 s, 5 min, 15 min, 45 min, 2 h, 6 h, then every 8 h — 11 attempts in all, about 25
 * hours — each wait multiplied by a random factor in [0.8, 1.2] so that the retries of many
 * deliveries failing at once spread out.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  10_000,
  30_000,
  90_000,
  5 * 60_000,
  15 * 60_000,
  45 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  8 * 3_600_000,
  8 * 3_600_000,
];

/** The jitter's bounds: each delay times a factor drawn from [JITTER_MIN, JITTER_MAX]. */
const JITTER_MIN = 0.8;
const JITTER_MAX = 1.2;

export interface RetrySchedule {
  /** Attempts a delivery gets in all. */
  readonly maxAttempts: number;
  /**
   * How long after failed attempt number `attempt` (1-based) the next one is due; null when
   * that was the last one (the delivery has failed).
   */
  delayAfter(attempt: number): number | null;
}

/** The schedule of `delays` (one per retry); `random` in [0, 1) draws the jitter. */
export function retrySchedule(
  delays: readonly number[] = RETRY_DELAYS_MS,
  random: () => number = Math.random,
): RetrySchedule {
  return {
    maxAttempts: delays.length + 1,
    delayAfter(attempt) {
      const base = delays[attempt - 1];
      if (base === undefined) return null;
      return Math.round(base * (JITTER_MIN + (JITTER_MAX - JITTER_MIN) * random()));
    },
  };
}
