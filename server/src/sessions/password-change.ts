import { DomainError } from "../platform/domain-error.js";
import type { UsersStore } from "../users/users-store.js";
import { currentPasswordCheck, WRONG_CURRENT_PASSWORD_MESSAGE } from "./current-password.js";
import type { SessionsStore } from "./sessions-store.js";
import type { SignInThrottle } from "./sign-in-throttle.js";

export { WRONG_CURRENT_PASSWORD_MESSAGE };

/** A password change as the signed-in user asks for it. */
export interface PasswordChangeRequest {
  userId: string;
  /** The session making the change: the one that stays. */
  sessionToken: string;
  currentPassword: string;
  newPassword: string;
  ip: string | undefined;
}

/**
 * Changing one's own password (admin.yaml, changePassword). The current password is checked as
 * a sign-in is (current-password.ts). On success every other session of
 * the user ends — sign-ins in flight with the old password too (sessions-store.ts); the one making
 * the change stays.
 */
export type PasswordChange = (input: PasswordChangeRequest) => Promise<void>;

export function passwordChange(deps: {
  users: Pick<UsersStore, "findById" | "setPassword">;
  sessions: Pick<SessionsStore, "endOthers">;
  throttle: SignInThrottle;
}): PasswordChange {
  const proven = currentPasswordCheck(deps);
  return async (input: PasswordChangeRequest): Promise<void> => {
    const user = await proven(input.userId, input.currentPassword, input.ip);
    // Only over the hash just checked: a change that came first makes this one's proof stale.
    if (!(await deps.users.setPassword(user._id, user.passwordHash, input.newPassword))) {
      throw new DomainError("forbidden", WRONG_CURRENT_PASSWORD_MESSAGE);
    }
    // After the generation grew: a sign-in in flight either is deleted here or deletes itself.
    await deps.sessions.endOthers(user._id, input.sessionToken);
  };
}
