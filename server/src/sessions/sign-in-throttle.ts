import { randomBytes } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import type { Collections } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import { normalEmail } from "../users/users-store.js";

/** Password checks per email per window (a success clears them). */
export const MAX_FAILURES = 5;
/**
 * Password checks per client address per window, whatever the emails: a password spray from one
 * address (one guess against each of many emails) gets 20 guesses per window instead of 5 per
 * email ever tried. Twenty leaves room for the typos of a team behind one NAT address, since a
 * success takes its own attempt off the count.
 */
export const MAX_FAILURES_PER_ADDRESS = 20;
export const WINDOW_MS = 15 * 60_000;

export const TOO_MANY_MESSAGE = "Too many failed sign-ins. Try again later.";

/** The eight 16-bit groups of an IPv6 address (embedded IPv4 included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) =>
    part === undefined || part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16));
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const zeros = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array.from({ length: zeros }, () => 0), ...tail];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * Who an attempt is counted against: an IPv4 address as it is (IPv4-mapped IPv6 too), an IPv6
 * address by its /64 — one host usually has a whole /64 to pick addresses from.
 */
export function addressKey(ip: string | undefined): string {
  if (ip === undefined || ip === "") return "unknown";
  const address = ip.replace(/%.*$/, "");
  if (isIPv4(address)) return address;
  if (isIPv6(address)) {
    const groups = ipv6Groups(address.toLowerCase());
    if (groups !== null) {
      const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
      if (mapped) {
        const hi = groups[6] ?? 0;
        const lo = groups[7] ?? 0;
        return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
      }
      return `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(":")}::/64`;
    }
  }
  return address.slice(0, 64);
}

export interface ThrottleOptions {
  /** The clock, in epoch milliseconds; tests pass their own. */
  readonly now?: () => number;
}

/** A sign-in attempt that was let through to the password check. */
export interface SignInAttempt {
  /**
   * The password was right: the email's count is cleared (this attempt's record included). A
   * wrong password needs no call: the attempt's record is the failure.
   */
  succeeded(): Promise<void>;
}

/**
 * Sign-in throttling, counted in the database so every instance sees it: per `WINDOW_MS`, at
 * most `MAX_FAILURES` password checks per email (a success clears them) and
 * `MAX_FAILURES_PER_ADDRESS` per client address (`addressKey`).
 */
export interface SignInThrottle {
  /**
   * Counts the attempt; throttled (with its retry time) when over a limit. Call before the
   * check.
   */
  begin(rawEmail: string, ip: string | undefined): Promise<SignInAttempt>;
  /** Forgets the email's failed attempts: its password was just reset (users/password-reset.ts). */
  forget(rawEmail: string): Promise<void>;
}

/**
 * Every attempt first inserts a record of its own (a random `_id`, the email, the client
 * address, `expiresAt` = now + WINDOW_MS), then counts the live records of its email and of its
 * address. Over either limit, it deletes its record again and is refused ("throttled": 429) —
 * before any password check; otherwise the password is checked, and a failure leaves the record
 * in place.
 *
 * Why this is exact under any concurrency, on any database (it needs no atomic update at all):
 * inserts of distinct documents are never lost, and an attempt counts only after its own insert is
 * acknowledged. Of any MAX + 1 attempts let through within one window, the last one inserted
 * counted after all the others' records were in place — records of attempts let through are
 * deleted only by a success or by expiry — so it saw at least MAX + 1 and was refused instead.
 * Under contention the check errs on the safe side: refused attempts' records, until deleted, make
 * others refuse too.
 *
 * Refused attempts leave nothing behind, so an email holds at most MAX_FAILURES live records and
 * an address at most MAX_FAILURES_PER_ADDRESS. Expired records are deleted by a TTL index on
 * MongoDB and by the sweeper (platform/db/ttl-sweeper.ts) everywhere.
 */
export function signInThrottle(
  { signInFailures }: Collections,
  options: ThrottleOptions = {},
): SignInThrottle {
  const now = options.now ?? Date.now;

  /** Seconds until the oldest live record of `filter` expires (at least 1). */
  const retryAfter = async (filter: { email: string } | { address: string }, at: number) => {
    const [oldest] = await signInFailures
      .find({ ...filter, expiresAt: { $gt: new Date(at) } })
      .sort({ expiresAt: 1, _id: 1 })
      .limit(1)
      .toArray();
    const ms = oldest === undefined ? 1000 : oldest.expiresAt.getTime() - at;
    return Math.max(1, Math.ceil(ms / 1000));
  };

  return {
    async begin(rawEmail: string, ip: string | undefined): Promise<SignInAttempt> {
      const at = now();
      // As the users store looks it up, so every spelling of an account's email shares one count.
      const email = normalEmail(rawEmail);
      const address = addressKey(ip);
      const _id = randomBytes(16).toString("base64url");
      await signInFailures.insertOne({
        _id,
        email,
        address,
        expiresAt: new Date(at + WINDOW_MS),
      });
      const live = { $gt: new Date(at) };
      const [byEmail, byAddress] = await Promise.all([
        signInFailures.countDocuments({ email, expiresAt: live }),
        signInFailures.countDocuments({ address, expiresAt: live }),
      ]);
      const emailOver = byEmail > MAX_FAILURES;
      const addressOver = byAddress > MAX_FAILURES_PER_ADDRESS;
      if (emailOver || addressOver) {
        await signInFailures.deleteOne({ _id });
        const seconds = await Promise.all([
          emailOver ? retryAfter({ email }, at) : 0,
          addressOver ? retryAfter({ address }, at) : 0,
        ]);
        throw new DomainError("throttled", TOO_MANY_MESSAGE, Math.max(...seconds));
      }
      return {
        async succeeded() {
          await signInFailures.deleteMany({ email });
        },
      };
    },

    async forget(rawEmail: string): Promise<void> {
      await signInFailures.deleteMany({ email: normalEmail(rawEmail) });
    },
  };
}
