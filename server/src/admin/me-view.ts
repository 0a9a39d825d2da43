import type { Me } from "../platform/http/admin-types.js";
import type { EmailChange } from "../users/email-change.js";
import type { TwoStep } from "../users/two-step.js";
import { toUser } from "../users/user-view.js";
import type { UsersStore } from "../users/users-store.js";
import { toWorkspace } from "../workspaces/workspace-view.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";
import { signInFirst } from "./guards.js";

/** The admin spec's `Me` of a user: the account with every workspace they belong to. */
export interface MeView {
  /**
   * The user with their workspaces; "unauthenticated" when the account no longer exists.
   * `origin`: this server's public origin (guards.ts `requestOrigin`), for the feeds' addresses.
   */
  me(userId: string, origin: string): Promise<Me>;
  /** The user with their workspaces, or null when the account no longer exists. */
  meOrNull(userId: string, origin: string): Promise<Me | null>;
}

export function meView(
  users: Pick<UsersStore, "findById">,
  workspaces: Pick<WorkspacesStore, "of">,
  emailChange: Pick<EmailChange, "byMail" | "pendingOf">,
  twoStep: Pick<TwoStep, "status">,
): MeView {
  const meOrNull = async (userId: string, origin: string): Promise<Me | null> => {
    const user = await users.findById(userId);
    if (user === null) return null;
    const [mine, pending] = await Promise.all([workspaces.of(userId), emailChange.pendingOf(user)]);
    return {
      user: toUser(user),
      twoStep: twoStep.status(user),
      workspaces: mine.map((w) => toWorkspace(w.workspace, w.role, origin)),
      emailChange: {
        byMail: emailChange.byMail,
        pending:
          pending === null
            ? null
            : { email: pending.email, expiresAt: pending.expiresAt.toISOString() },
      },
    };
  };
  const me = async (userId: string, origin: string): Promise<Me> => {
    const found = await meOrNull(userId, origin);
    if (found === null) throw signInFirst();
    return found;
  };
  return { me, meOrNull };
}
