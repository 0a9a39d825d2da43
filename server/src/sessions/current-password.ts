import type { UserDoc } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import { verifyPassword } from "../users/passwords.js";
import type { UsersStore } from "../users/users-store.js";
import type { SignInThrottle } from "./sign-in-throttle.js";

export const WRONG_CURRENT_PASSWORD_MESSAGE = "The current password is wrong.";

/**
 * The signed-in user's current password, asked again before a change of the account (its
 * password, email, two-step sign-in): checked as a sign-in is — counted first against the
 * account's email and the client's address, so a stolen session cannot be used to guess it
 * faster than the sign-in form allows — and a wrong one is "forbidden" (the session is fine; the
 * proof is not). The account as read, whose hash was checked.
 */
export type CurrentPasswordCheck = (
  userId: string,
  password: string,
  ip: string | undefined,
) => Promise<UserDoc>;

export function currentPasswordCheck(deps: {
  users: Pick<UsersStore, "findById">;
  throttle: SignInThrottle;
}): CurrentPasswordCheck {
  return async (userId, password, ip) => {
    const user = await deps.users.findById(userId);
    if (user === null) throw new DomainError("unauthenticated", "Sign in first.");
    const attempt = await deps.throttle.begin(user.email, ip);
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new DomainError("forbidden", WRONG_CURRENT_PASSWORD_MESSAGE);
    }
    await attempt.succeeded();
    return user;
  };
}
