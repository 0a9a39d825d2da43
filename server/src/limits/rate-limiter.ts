import { randomBytes } from "node:crypto";
import type { RateLimitSetting } from "../platform/db/collections.js";
import type { Logger } from "../platform/logger.js";
import type { RateCounters } from "./rate-counters.js";
import { reserveOf, windowStartOf } from "./rate-limit-policy.js";

/** A request's answer from the limiter, with what its RateLimit fields say. */
export interface LimitDecision {
  readonly allowed: boolean;
  /** Requests left in the window, as far as this instance knows (never below 0). */
  readonly remaining: number;
  /** Whole seconds to the window's end (at least 1): `t` of `RateLimit`, and `Retry-After`. */
  readonly resetSeconds: number;
}

/** One key's current window, as this instance sees it. */
interface WindowState {
  readonly keyId: string;
  readonly windowStart: number;
  readonly windowEnd: number;
  /** Attempts this instance counted in the window (admitted and refused alike). */
  own: number;
  /** `own` as of the last completed exchange: what the database holds of this instance. */
  synced: number;
  /** The window's total over all instances, as read by the last completed exchange. */
  known: number;
  running: Promise<Exchanged> | undefined;
  /** The exchange that will start when `running` ends; callers arriving meanwhile share it. */
  queued: Promise<Exchanged> | undefined;
}

/** What an exchange read: the window's total over the other instances. */
interface Exchanged {
  readonly others: number;
}

export interface RateLimiterOptions {
  /** How long admitted requests wait, at most, before their counts are written. */
  readonly flushMs?: number;
  /** The clock, in epoch ms; tests pass their own. */
  readonly now?: () => number;
}

/**
 * Per-key fixed-window limits shared by every instance through the database, with no round trip
 * while a key is well under its limit (README, "Rate limits").
 *
 * Each instance keeps, per key and window, `own` (attempts it counted), `synced` (how many of
 * them the database holds) and `known` (the window's total at its last read). A request is
 * admitted with no I/O when `known + unsynced + 1 <= requests - reserve` and `unsynced <
 * reserve` (`unsynced = own - synced`, reserve = max(1, ceil(requests / 20))); its count is
 * written by a coalesced flush (every `flushMs`). Otherwise the request first *exchanges*:
 * writes the instance's total and reads the sum over all instances, and is admitted iff the
 * other instances' total plus its own place among this instance's attempts (which the write
 * included) is at most the limit. Once a read shows the window full, further requests are
 * refused with no I/O (still counted). Refused requests count as attempts.
 *
 * Bound: with n instances, a window admits at most `requests + (n - 1) * reserve`: every
 * admitted request is covered by a read that saw at most the limit, except the at most
 * `reserve` requests each other instance admitted since its last exchange.
 */
export class RateLimiter {
  /** Random per process start: the instance's own counter documents. */
  readonly instanceId = randomBytes(8).toString("hex");
  private readonly windows = new Map<string, WindowState>();
  private readonly flushMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly counters: RateCounters,
    private readonly log: Logger,
    options: RateLimiterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 250;
    this.now = options.now ?? Date.now;
  }

  /**
   * Counts one attempt of `keyId` under `limit` and decides it: synchronously when the key is
   * well under its limit or its window is known to be full, else after one exchange.
   */
  check(keyId: string, limit: RateLimitSetting): LimitDecision | Promise<LimitDecision> {
    const now = this.now();
    const st = this.windowOf(keyId, limit, now);
    const resetSeconds = Math.max(1, Math.ceil((st.windowEnd - now) / 1000));
    const max = limit.requests;
    const unsynced = st.own - st.synced;
    st.own += 1;
    if (st.known >= max) {
      this.schedule();
      return { allowed: false, remaining: 0, resetSeconds };
    }
    const reserve = reserveOf(max);
    if (st.known + unsynced + 1 <= max - reserve && unsynced < reserve) {
      this.schedule();
      return { allowed: true, remaining: max - st.known - unsynced - 1, resetSeconds };
    }
    // Its place among this instance's attempts: of those sharing one exchange, the earlier
    // ones come first, so a burst on one instance is not refused whole.
    const position = st.own;
    return this.exchange(st).then(({ others }) => ({
      allowed: others + position <= max,
      remaining: max - st.known - (st.own - st.synced),
      resetSeconds,
    }));
  }

  /** Writes every pending count now (and reads the totals back). Never rejects. */
  async flush(): Promise<void> {
    const now = this.now();
    const work: Promise<void>[] = [];
    for (const [key, st] of this.windows) {
      if (st.own > st.synced) {
        work.push(
          this.exchange(st).then(
            () => undefined,
            (err: unknown) => this.failed(err),
          ),
        );
      } else if (st.windowEnd <= now && st.running === undefined) {
        this.windows.delete(key);
      }
    }
    await Promise.all(work);
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private windowOf(keyId: string, limit: RateLimitSetting, now: number): WindowState {
    const windowStart = windowStartOf(now, limit.windowSeconds);
    const current = this.windows.get(keyId);
    if (current !== undefined && current.windowStart === windowStart) return current;
    // A new window (or a changed window length): the old state's counts no longer matter.
    const st: WindowState = {
      keyId,
      windowStart,
      windowEnd: windowStart + limit.windowSeconds * 1000,
      own: 0,
      synced: 0,
      known: 0,
      running: undefined,
      queued: undefined,
    };
    this.windows.set(keyId, st);
    return st;
  }

  /**
   * One exchange at a time per window state (so the instance's own document has one writer
   * with one write in flight); a caller arriving while one runs shares the next, which starts
   * after it and includes the caller's attempt.
   */
  private exchange(st: WindowState): Promise<Exchanged> {
    if (st.queued !== undefined) return st.queued;
    const start = (): Promise<Exchanged> => {
      st.queued = undefined;
      const snapshot = st.own;
      const run = this.counters
        .exchange(st.keyId, st.windowStart, st.windowEnd, this.instanceId, snapshot)
        .then((total) => {
          st.synced = Math.max(st.synced, snapshot);
          st.known = total;
          return { others: total - snapshot };
        })
        .finally(() => {
          if (st.running === run) st.running = undefined;
        });
      st.running = run;
      return run;
    };
    if (st.running === undefined) return start();
    const queued = st.running.catch(() => {}).then(start);
    st.queued = queued;
    return queued;
  }

  private failed(err: unknown): void {
    this.log.warn({ err }, "rate-limit counts flush failed; will retry");
  }

  private schedule(): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().then(() => {
        for (const st of this.windows.values()) {
          if (st.own > st.synced) {
            this.schedule();
            return;
          }
        }
      });
    }, this.flushMs);
    this.timer.unref();
  }
}
