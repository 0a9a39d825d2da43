import type { Logger } from "../logger.js";
import { startTimerLoop } from "../timers/timer-loop.js";
import type { Collections } from "./collections.js";

/** How often expired sessions and sign-in records are deleted. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;
/** The first sweep, a while after start: not in the middle of start-up, yet soon after a deploy. */
export const FIRST_SWEEP_DELAY_MS = 60_000;

export interface Purged {
  readonly sessions: number;
  readonly signInFailures: number;
  /** Password-reset links past their 30 minutes (users/password-reset-links.ts), used or not. */
  readonly passwordResets: number;
  /** Sign-ins past their 5 minutes for a second step (sessions/sign-in-challenges.ts). */
  readonly signInChallenges: number;
  /** Email changes past their 24 hours (users/email-change-links.ts), confirmed or not. */
  readonly emailChanges: number;
  /** Access tokens past their expiry (tokens/access-tokens-store.ts). */
  readonly accessTokens: number;
  readonly invitations: number;
  /** The rate limiter's counters of ended windows (limits/rate-counters.ts). */
  readonly rateCounters: number;
  /** Usage buckets past their retention (limits/usage-store.ts). */
  readonly keyUsage: number;
}

/**
 * Deletes the sessions, sign-in records, sign-in challenges, password-reset links, email changes, access tokens, rate-limit counters and usage buckets that have expired
 * by `now`, sign-in records without `expiresAt` (the per-email counters stored before it
 * existed), and invitations past their `keepUntil`. Idempotent, and safe to run from every
 * instance at once: the same deletes that MongoDB's TTL monitor does, which FerretDB 1.24 has
 * none of.
 */
export async function purgeExpired(
  {
    sessions,
    signInFailures,
    passwordResets,
    signInChallenges,
    emailChanges,
    accessTokens,
    invitations,
    rateCounters,
    keyUsage,
  }: Collections,
  now: Date,
): Promise<Purged> {
  const expired = { expiresAt: { $lte: now } };
  const [s, f, p, c, e, a, i, r, u] = await Promise.all([
    sessions.deleteMany({ expiresAt: { $lte: now } }),
    signInFailures.deleteMany({
      $or: [{ expiresAt: { $lte: now } }, { expiresAt: { $exists: false } }],
    }),
    passwordResets.deleteMany(expired),
    signInChallenges.deleteMany(expired),
    emailChanges.deleteMany(expired),
    accessTokens.deleteMany(expired),
    invitations.deleteMany({ keepUntil: { $lte: now } }),
    rateCounters.deleteMany(expired),
    keyUsage.deleteMany(expired),
  ]);
  return {
    sessions: s.deletedCount,
    signInFailures: f.deletedCount,
    passwordResets: p.deletedCount,
    signInChallenges: c.deletedCount,
    emailChanges: e.deletedCount,
    accessTokens: a.deletedCount,
    invitations: i.deletedCount,
    rateCounters: r.deletedCount,
    keyUsage: u.deletedCount,
  };
}

export interface SweeperOptions {
  readonly intervalMs?: number;
  readonly firstDelayMs?: number;
  /** The clock, in epoch milliseconds; tests pass their own. */
  readonly now?: () => number;
}

export interface Sweeper {
  /** Sweeps now (waiting for one under way first); never rejects: failures are logged. */
  sweep(): Promise<void>;
  /** Stops the timer and waits for a sweep under way; no sweep starts afterwards. */
  close(): Promise<void>;
}

/** Runs `purgeExpired` on a timer (unref'd: it never keeps the process alive). */
export function startSweeper(
  collections: Collections,
  log: Logger,
  options: SweeperOptions = {},
): Sweeper {
  const now = options.now ?? Date.now;
  const task = startTimerLoop(
    () =>
      purgeExpired(collections, new Date(now())).then(
        (purged) => {
          if (Object.values(purged).some((n) => n > 0)) {
            log.debug({ purged }, "expired sessions and sign-in records deleted");
          }
        },
        (err: unknown) => {
          log.warn({ err }, "deleting expired sessions and sign-in records failed; will retry");
        },
      ),
    {
      intervalMs: options.intervalMs ?? SWEEP_INTERVAL_MS,
      firstDelayMs: options.firstDelayMs ?? FIRST_SWEEP_DELAY_MS,
    },
  );
  return { sweep: task.runNow, close: task.close };
}
