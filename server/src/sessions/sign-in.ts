import type { UserDoc } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import { verifyAgainstNothing, verifyPassword } from "../users/passwords.js";
import { hasTwoStep } from "../users/two-step-store.js";
import type { UsersStore } from "../users/users-store.js";
import type { SessionsStore } from "./sessions-store.js";
import type { SignInChallenges } from "./sign-in-challenges.js";
import type { SignInThrottle } from "./sign-in-throttle.js";

export const WRONG_PASSWORD_MESSAGE = "Wrong email or password.";

export interface SignedIn {
  user: UserDoc;
  /** The session token, for the cookie; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

/** A right password of an account with two-step sign-in: its code comes next (second-step.ts). */
export interface CodeNeeded {
  readonly codeNeeded: true;
  /** For the browser, once; only its hash is stored (sign-in-challenges.ts). */
  readonly challenge: string;
  readonly expiresAt: Date;
}

/**
 * Signing in with an email and a password: a new session, or for an account with two-step
 * sign-in a challenge for its code, or "throttled" over a limit of attempts
 * (sign-in-throttle.ts), or "unauthenticated" alike for a wrong password and an unknown email.
 */
export type PasswordSignIn = (
  email: string,
  password: string,
  ip: string | undefined,
) => Promise<SignedIn | CodeNeeded>;

/**
 * The attempt is counted before the password is checked, so parallel attempts cannot outrun
 * the count, and over a limit it is refused with no password checked. A wrong password and an
 * unknown email get the same answer after as much work; a failure stays counted. A right
 * password of an account with two-step sign-in stays counted too, until its code is right: so
 * the password cannot be used to wipe the count of wrong codes.
 */
export function passwordSignIn(deps: {
  users: Pick<UsersStore, "findByEmail">;
  sessions: Pick<SessionsStore, "create">;
  challenges: Pick<SignInChallenges, "create">;
  throttle: SignInThrottle;
}): PasswordSignIn {
  return async (email, password, ip): Promise<SignedIn | CodeNeeded> => {
    const attempt = await deps.throttle.begin(email, ip);
    const user = await deps.users.findByEmail(email);
    const ok =
      user === null
        ? await verifyAgainstNothing(password)
        : await verifyPassword(user.passwordHash, password);
    if (user === null || !ok) throw new DomainError("unauthenticated", WRONG_PASSWORD_MESSAGE);
    if (hasTwoStep(user)) return { codeNeeded: true, ...(await deps.challenges.create(user)) };
    await attempt.succeeded();
    // The same read's generation as its hash: a password change since then refuses the session.
    return { user, ...(await deps.sessions.create(user)) };
  };
}
