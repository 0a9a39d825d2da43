import type { UserDoc } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import { verifyAgainstNothing, verifyPassword } from "../users/passwords.js";
import type { UsersStore } from "../users/users-store.js";
import type { SessionsStore } from "./sessions-store.js";
import type { SignInThrottle } from "./sign-in-throttle.js";

export const WRONG_PASSWORD_MESSAGE = "Wrong email or password.";

export interface SignedIn {
  user: UserDoc;
  /** The session token, for the cookie; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

/**
 * Signing in with an email and a password: a new session, or "throttled" over a limit of
 * attempts (sign-in-throttle.ts), or "unauthenticated" alike for a wrong password and an
 * unknown email.
 */
export type PasswordSignIn = (
  email: string,
  password: string,
  ip: string | undefined,
) => Promise<SignedIn>;

/**
 * The attempt is counted before the password is checked, so parallel attempts cannot outrun
 * the count, and over a limit it is refused with no password checked. A wrong password and an
 * unknown email get the same answer after as much work; a failure stays counted.
 */
export function passwordSignIn(deps: {
  users: Pick<UsersStore, "findByEmail">;
  sessions: Pick<SessionsStore, "create">;
  throttle: SignInThrottle;
}): PasswordSignIn {
  return async (email: string, password: string, ip: string | undefined): Promise<SignedIn> => {
    const attempt = await deps.throttle.begin(email, ip);
    const user = await deps.users.findByEmail(email);
    const ok =
      user === null
        ? await verifyAgainstNothing(password)
        : await verifyPassword(user.passwordHash, password);
    if (user === null || !ok) throw new DomainError("unauthenticated", WRONG_PASSWORD_MESSAGE);
    await attempt.succeeded();
    // The same read's generation as its hash: a password change since then refuses the session.
    return { user, ...(await deps.sessions.create(user)) };
  };
}
