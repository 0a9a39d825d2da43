import { DomainError } from "../platform/domain-error.js";
import type { TwoStep } from "../users/two-step.js";
import { hasTwoStep } from "../users/two-step-store.js";
import type { UsersStore } from "../users/users-store.js";
import type { SessionsStore } from "./sessions-store.js";
import type { SignedIn } from "./sign-in.js";
import type { SignInChallenges } from "./sign-in-challenges.js";
import type { SignInThrottle } from "./sign-in-throttle.js";

export const WRONG_CODE_MESSAGE = "Wrong code.";
export const CHALLENGE_GONE_MESSAGE = "This sign-in has expired or was used. Sign in again.";

/** The second step of a sign-in (admin.yaml, signInWithCode): a session, or refused. */
export type CodeSignIn = (
  challenge: string,
  code: string,
  ip: string | undefined,
) => Promise<SignedIn>;

/**
 * Every try is counted as a sign-in of the account's email before its code is checked
 * (sign-in-throttle.ts), so codes cannot be guessed faster than passwords; a right code clears
 * the count. A challenge that is unknown, expired, used, of a password changed since, or of an
 * account whose two-step sign-in was turned off since is refused before anything is counted:
 * there is no account to count it against, and 256 random bits are not guessed. Of two right codes sent with one challenge at the same moment, one signs in: the
 * code is accepted once (two-step.ts), and the challenge is used up once.
 */
export function codeSignIn(deps: {
  challenges: SignInChallenges;
  users: Pick<UsersStore, "findById">;
  twoStep: Pick<TwoStep, "checkCode">;
  sessions: Pick<SessionsStore, "create">;
  throttle: SignInThrottle;
}): CodeSignIn {
  const gone = () => new DomainError("unauthenticated", CHALLENGE_GONE_MESSAGE);
  return async (challenge, code, ip): Promise<SignedIn> => {
    const waiting = await deps.challenges.find(challenge);
    if (waiting === null) throw gone();
    const user = await deps.users.findById(waiting.userId);
    // Gone too when two-step was turned off since the password (`pressroom user
    // turn-off-two-step`): the password alone signs such an account in now.
    if (
      user === null ||
      !hasTwoStep(user) ||
      (user.passwordGeneration ?? 0) !== waiting.generation
    ) {
      throw gone();
    }
    const attempt = await deps.throttle.begin(user.email, ip);
    if (!(await deps.twoStep.checkCode(user, code))) {
      throw new DomainError("unauthenticated", WRONG_CODE_MESSAGE);
    }
    if (!(await deps.challenges.use(waiting.hash))) throw gone();
    await attempt.succeeded();
    // The generation the password was checked at: a change since refuses the session.
    const session = await deps.sessions.create({
      _id: user._id,
      passwordGeneration: waiting.generation,
    });
    return { user, ...session };
  };
}
