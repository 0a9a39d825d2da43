/**
 * Password recovery (admin.yaml, requestPasswordReset and completePasswordReset; README,
 * "Password recovery"):
 * - asking answers at once and alike whether or not an account has the email: the lookup, the
 *   link and the mail happen after the answer, so neither its body nor its timing tells;
 * - asking is counted as a sign-in is (sign-in-throttle.ts), against `reset:` + the email and the
 *   client's address, and never taken off: 5 links per email, 20 asks per address, per window;
 * - a link works once, for 30 minutes, and only for the password it was made for;
 * - using one is counted as an invitation link's use is (against the link and the address; a link
 *   that works is taken off); every link that cannot be used gets the same answer;
 * - a reset ends every session of the account, sign-ins under way too (sessions-store.ts), and
 *   forgets its failed sign-ins, so its owner can sign in at once; its other links are void, as
 *   made for the password it replaced (the account's `passwordGeneration` grew).
 */
import type { Mailer } from "../mail/mailer.js";
import { DomainError, gone } from "../platform/domain-error.js";
import type { Logger } from "../platform/logger.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import type { SignInThrottle } from "../sessions/sign-in-throttle.js";
import {
  hashResetToken,
  type PasswordResetLinks,
  RESET_LINK_TTL_MS,
} from "./password-reset-links.js";
import type { UsersStore } from "./users-store.js";

export const RESET_GONE_MESSAGE = "This reset link cannot be used any more. Ask for a new one.";
export const NO_MAIL_MESSAGE =
  "This Pressroom server sends no mail. Ask its operator for a reset link (pressroom user reset-password EMAIL).";

/** The dashboard's page of a reset link: the token in the fragment, which no server log sees. */
export const resetLinkOf = (origin: string, token: string): string =>
  `${origin}/dashboard/#/reset/${token}`;

export interface PasswordReset {
  /**
   * Counts the ask, then mails a link if an account has the email, after returning. Refused
   * ("not_configured") without a mailer, and ("throttled") past the limits.
   */
  request(email: string, ip: string | undefined, origin: string): Promise<void>;
  /** Replaces the password with the link's token; "gone" for every link that cannot be used. */
  complete(token: string, newPassword: string, ip: string | undefined): Promise<void>;
  /** Waits for the mails under way (the app's close). */
  drain(): Promise<void>;
}

export interface PasswordResetDeps {
  links: PasswordResetLinks;
  users: Pick<UsersStore, "findByEmail" | "findById" | "setPassword">;
  sessions: Pick<SessionsStore, "endAll">;
  throttle: SignInThrottle;
  mailer: Mailer | undefined;
  log: Logger;
  now?: () => number;
}

export function passwordReset(deps: PasswordResetDeps): PasswordReset {
  const now = deps.now ?? Date.now;
  const underWay = new Set<Promise<void>>();
  /** What the throttle counts a link's uses by, in place of an email: never the token. */
  const attemptKey = (token: string) => `reset:${hashResetToken(token).slice(0, 32)}`;

  /** After the answer: the account, its link and the mail; failures logged without the link. */
  const mailLink = async (mailer: Mailer, email: string, origin: string) => {
    try {
      const user = await deps.users.findByEmail(email);
      if (user === null) return;
      const { token } = await deps.links.issue(user);
      await mailer.sendPasswordReset({
        to: user.email,
        name: user.name,
        link: resetLinkOf(origin, token),
        minutes: RESET_LINK_TTL_MS / 60_000,
      });
      deps.log.info({ userId: user._id }, "password reset link mailed");
    } catch (err) {
      // Not the error itself: its message might quote the link, whose token must not be logged.
      const kind = err instanceof Error ? err.name : typeof err;
      deps.log.warn({ kind }, "mailing a password reset link failed");
    }
  };

  return {
    async request(email, ip, origin) {
      const mailer = deps.mailer;
      if (mailer === undefined) throw new DomainError("not_configured", NO_MAIL_MESSAGE);
      await deps.throttle.begin(`reset:${email}`, ip);
      const task = mailLink(mailer, email, origin).finally(() => underWay.delete(task));
      underWay.add(task);
    },

    async complete(token, newPassword, ip) {
      const attempt = await deps.throttle.begin(attemptKey(token), ip);
      const at = new Date(now());
      const link = await deps.links.claim(token, at);
      if (link === null) throw gone(RESET_GONE_MESSAGE);
      const user = await deps.users.findById(link.userId);
      // Made for another password: changed, or its sessions ended, since the link was made.
      if (user === null || (user.passwordGeneration ?? 0) !== link.generation) {
        throw gone(RESET_GONE_MESSAGE);
      }
      if (!(await deps.users.setPassword(user._id, user.passwordHash, newPassword))) {
        throw gone(RESET_GONE_MESSAGE);
      }
      await attempt.succeeded();
      // After the generation grew: a sign-in in flight either is deleted here or deletes itself.
      await deps.sessions.endAll(user._id);
      await deps.throttle.forget(user.email);
      deps.log.info({ userId: user._id }, "password reset");
    },

    async drain() {
      await Promise.allSettled([...underWay]);
    },
  };
}
