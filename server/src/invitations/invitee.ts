import type { UserDoc } from "../platform/db/collections.js";
import { conflict, DomainError, invalid } from "../platform/domain-error.js";
import { WRONG_PASSWORD_MESSAGE } from "../sessions/sign-in.js";
import type { SignInAttempt, SignInThrottle } from "../sessions/sign-in-throttle.js";
import { verifyAgainstNothing, verifyPassword } from "../users/passwords.js";
import { hasTwoStep } from "../users/two-step-store.js";
import type { UsersStore } from "../users/users-store.js";
import { HOW_TO_ACCEPT_MESSAGE } from "./invitation-rules.js";

/** What an accept sends besides the link (admin.yaml, InvitationAcceptance). */
export interface Credentials {
  name?: string | undefined;
  password?: string | undefined;
}

/** Who accepts an invitation, as its request proved it. */
export type Invitee =
  /** Signed in as the invited account already: it joins, with no new session. */
  | { readonly kind: "signed-in"; readonly user: UserDoc }
  /** Gave the invited account's password: it joins and is signed in, as by `signIn`. */
  | { readonly kind: "password"; readonly user: UserDoc }
  /** No account has the email: one is made with this name and password, and signed in. */
  | {
      readonly kind: "new";
      readonly name: string;
      readonly password: string;
      readonly attempt: SignInAttempt;
    };

/**
 * Tells who accepts an invitation for `email` (admin.yaml, acceptInvitation) without telling
 * anyone else whether an account has that email:
 * - no password: only the invited account, signed in, gets further; everyone else — signed out
 *   or signed in as another account, whether or not the email has an account — hears the same
 *   409;
 * - a password without a name is a sign-in of the email (counted as one; sign-in-throttle.ts): a
 *   wrong password and a missing account get the same 401 after the same work;
 * - a name and a password make an account when none has the email, and are the previous case
 *   when one has. That success is the one answer that tells (README, "Team").
 *
 * The user document returned is the one whose hash was checked: its `passwordGeneration` goes
 * with it to the new session (sessions-store.ts).
 */
export type InviteeCheck = (
  email: string,
  body: Credentials,
  signedInAs: string | null,
  ip: string | undefined,
) => Promise<Invitee>;

export function inviteeCheck(deps: {
  users: Pick<UsersStore, "findByEmail">;
  throttle: SignInThrottle;
}): InviteeCheck {
  return async (
    email: string,
    body: Credentials,
    signedInAs: string | null,
    ip: string | undefined,
  ): Promise<Invitee> => {
    if (body.password === undefined) {
      if (body.name !== undefined) throw invalid("Choose a password too, or send neither.");
      const account = await deps.users.findByEmail(email);
      if (account === null || signedInAs !== account._id) throw conflict(HOW_TO_ACCEPT_MESSAGE);
      return { kind: "signed-in", user: account };
    }
    // Counted before the check, as a sign-in of this email, whether or not it has an account.
    const attempt = await deps.throttle.begin(email, ip);
    const account = await deps.users.findByEmail(email);
    if (account !== null) {
      if (!(await verifyPassword(account.passwordHash, body.password))) {
        throw new DomainError("unauthenticated", WRONG_PASSWORD_MESSAGE);
      }
      // A password alone never clears the count of an account with two-step sign-in (sign-in.ts).
      if (!hasTwoStep(account)) await attempt.succeeded();
      return { kind: "password", user: account };
    }
    if (body.name === undefined) {
      await verifyAgainstNothing(body.password);
      throw new DomainError("unauthenticated", WRONG_PASSWORD_MESSAGE);
    }
    return { kind: "new", name: body.name, password: body.password, attempt };
  };
}
