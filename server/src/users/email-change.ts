/**
 * Changing one's own email (admin.yaml, changeEmail, cancelEmailChange and confirmEmailChange;
 * README, "Your account"):
 * - the current password is asked for every time, checked as a password change checks it
 *   (sessions/password-change.ts): counted first as a sign-in of the account's email, a wrong one
 *   "forbidden"; so a session alone cannot move the account to an address of someone else's;
 * - an email another account has, or the account's own, is a "conflict" (the users' unique index
 *   decides in the end: two accounts asking for one email at once cannot both get it);
 * - without a mailer the password confirms the change at once; with one, a one-time link is
 *   mailed to the new address (email-change-links.ts: 24 hours, one waiting change per account)
 *   and the change happens when it is used, counted as a reset link's use is; then a notice goes
 *   to the old address. Confirmation mails are counted too: 5 per account per window;
 * - a change grows the account's `passwordGeneration` (users-store.ts), so its reset links,
 *   mailed to the old address, stop working; its sessions stay signed in (the change was proved
 *   with the password, and by mail with the new address).
 */
import type { Mailer } from "../mail/mailer.js";
import type { UserDoc } from "../platform/db/collections.js";
import { conflict, DomainError, gone } from "../platform/domain-error.js";
import type { Logger } from "../platform/logger.js";
import {
  currentPasswordCheck,
  WRONG_CURRENT_PASSWORD_MESSAGE,
} from "../sessions/current-password.js";
import type { SignInThrottle } from "../sessions/sign-in-throttle.js";
import {
  EMAIL_CHANGE_TTL_MS,
  type EmailChangeLinks,
  hashEmailChangeToken,
} from "./email-change-links.js";
import { EMAIL_TAKEN_MESSAGE, normalEmail, type UsersStore } from "./users-store.js";

export const EMAIL_CHANGE_GONE_MESSAGE =
  "This confirmation link cannot be used any more. Ask for the change again from your account.";
export const SAME_EMAIL_MESSAGE = "This is your email already.";
export const TOO_MANY_MAILS_MESSAGE =
  "Too many confirmation mails for this account. Try again later.";
export const MAIL_FAILED_MESSAGE =
  "The confirmation mail could not be sent. Nothing changed; try again later.";
/** When to try again after a send that failed. */
const MAIL_RETRY_SECONDS = 60;

/** The dashboard's page of a confirmation link: the token in the fragment, which no server log sees. */
export const confirmEmailLinkOf = (origin: string, token: string): string =>
  `${origin}/dashboard/#/confirm-email/${token}`;

/** A change waiting for its link. */
export interface PendingEmail {
  email: string;
  expiresAt: Date;
}

export interface EmailChangeRequest {
  userId: string;
  newEmail: string;
  currentPassword: string;
  ip: string | undefined;
  /** Where the dashboard is (admin/guards.ts, dashboardOrigin): the link's origin. */
  origin: string;
}

export interface EmailChange {
  /** Whether changes are confirmed by a mailed link (a mailer is configured). */
  readonly byMail: boolean;
  /** Changes the email at once (no mailer), or mails a link and answers the waiting change. */
  request(input: EmailChangeRequest): Promise<{ changed: true } | { pending: PendingEmail }>;
  /** Changes the email with the link's token; "gone" for every link that cannot be used. */
  confirm(token: string, ip: string | undefined): Promise<{ email: string }>;
  /** Drops the account's waiting change, if any: its link stops working. */
  cancel(userId: string): Promise<void>;
  /** The account's change waiting for its link, if one can still be confirmed. */
  pendingOf(
    user: Pick<UserDoc, "_id" | "email" | "passwordGeneration">,
  ): Promise<PendingEmail | null>;
  /** Waits for the notices under way (the app's close). */
  drain(): Promise<void>;
}

export interface EmailChangeDeps {
  links: EmailChangeLinks;
  users: Pick<UsersStore, "findById" | "findByEmail" | "changeEmail">;
  throttle: SignInThrottle;
  mailer: Mailer | undefined;
  log: Logger;
  now?: () => number;
}

/** The kind of a failure, for the log: never its message, which might quote a link. */
const kindOf = (err: unknown): string => (err instanceof Error ? err.name : typeof err);

export function emailChange(deps: EmailChangeDeps): EmailChange {
  const now = deps.now ?? Date.now;
  const underWay = new Set<Promise<void>>();
  /** What the throttle counts a link's uses by, in place of an email: never the token. */
  const attemptKey = (token: string) => `email-change:${hashEmailChangeToken(token).slice(0, 32)}`;

  /** The password checked as a sign-in is (current-password.ts); the account as read. */
  const checkPassword = currentPasswordCheck(deps);
  const proven = (input: EmailChangeRequest) =>
    checkPassword(input.userId, input.currentPassword, input.ip);

  /** Counts a confirmation mail of the account: never taken off, as reset asks are not. */
  const countMail = async (userId: string, ip: string | undefined) => {
    try {
      await deps.throttle.begin(`email-change-mail:${userId}`, ip);
    } catch (err) {
      if (!(err instanceof DomainError && err.code === "throttled")) throw err;
      throw new DomainError("throttled", TOO_MANY_MAILS_MESSAGE, err.retryAfterSeconds);
    }
  };

  /** After the change: the notice to the old address; a failure logged, never the answer's. */
  const notify = (
    mailer: Mailer,
    user: Pick<UserDoc, "_id" | "name">,
    from: string,
    to: string,
  ) => {
    const task = mailer
      .sendEmailChanged({ to: from, name: user.name, newEmail: to })
      .catch((err: unknown) => {
        deps.log.warn(
          { kind: kindOf(err), userId: user._id },
          "mailing an email-change notice failed",
        );
      })
      .finally(() => underWay.delete(task));
    underWay.add(task);
  };

  return {
    byMail: deps.mailer !== undefined,

    async request(input) {
      const user = await proven(input);
      const email = normalEmail(input.newEmail);
      if (email === user.email) throw conflict(SAME_EMAIL_MESSAGE);
      if ((await deps.users.findByEmail(email)) !== null) throw conflict(EMAIL_TAKEN_MESSAGE);
      const mailer = deps.mailer;
      if (mailer === undefined) {
        // Over the email and hash just checked: a change that came first makes this proof stale.
        if (!(await deps.users.changeEmail(user._id, user, email))) {
          throw new DomainError("forbidden", WRONG_CURRENT_PASSWORD_MESSAGE);
        }
        await deps.links.cancel(user._id);
        deps.log.info({ userId: user._id }, "email changed");
        return { changed: true };
      }
      await countMail(user._id, input.ip);
      const { token, expiresAt } = await deps.links.issue(user, email);
      try {
        await mailer.sendEmailChange({
          to: email,
          name: user.name,
          currentEmail: user.email,
          link: confirmEmailLinkOf(input.origin, token),
          hours: EMAIL_CHANGE_TTL_MS / 3_600_000,
        });
      } catch (err) {
        // Not the error itself: its message might quote the link, whose token must not be logged.
        deps.log.warn(
          { kind: kindOf(err), userId: user._id },
          "mailing an email-change link failed",
        );
        await deps.links.cancel(user._id, token);
        throw new DomainError("unavailable", MAIL_FAILED_MESSAGE, MAIL_RETRY_SECONDS);
      }
      deps.log.info({ userId: user._id }, "email-change link mailed");
      return { pending: { email, expiresAt } };
    },

    async confirm(token, ip) {
      const attempt = await deps.throttle.begin(attemptKey(token), ip);
      const change = await deps.links.claim(token, new Date(now()));
      if (change === null) throw gone(EMAIL_CHANGE_GONE_MESSAGE);
      const user = await deps.users.findById(change._id);
      // Asked for another email or password: changed, or its sessions ended, since.
      if (
        user === null ||
        user.email !== change.fromEmail ||
        (user.passwordGeneration ?? 0) !== change.generation
      ) {
        throw gone(EMAIL_CHANGE_GONE_MESSAGE);
      }
      await attempt.succeeded();
      // "conflict" when another account took the email since the request (the unique index).
      if (!(await deps.users.changeEmail(user._id, user, change.newEmail))) {
        throw gone(EMAIL_CHANGE_GONE_MESSAGE);
      }
      deps.log.info({ userId: user._id }, "email changed");
      if (deps.mailer !== undefined) notify(deps.mailer, user, user.email, change.newEmail);
      return { email: change.newEmail };
    },

    cancel: (userId) => deps.links.cancel(userId),

    async pendingOf(user) {
      const change = await deps.links.of(user._id);
      const waiting =
        change !== null &&
        change.usedAt === null &&
        change.expiresAt.getTime() > now() &&
        change.fromEmail === user.email &&
        change.generation === (user.passwordGeneration ?? 0);
      return waiting ? { email: change.newEmail, expiresAt: change.expiresAt } : null;
    },

    async drain() {
      await Promise.allSettled([...underWay]);
    },
  };
}
