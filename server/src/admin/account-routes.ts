import type { AdminHandler } from "../platform/http/admin-types.js";
import type { PasswordChange } from "../sessions/password-change.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import type { UsersStore } from "../users/users-store.js";
import {
  clearSessionCookie,
  requestOrigin,
  sessionTokenOf,
  signedInUser,
  signInFirst,
} from "./guards.js";
import type { MeView } from "./me-view.js";

/** The signed-in user's own account: their name, their password, and all their sessions at once. */
export function accountHandlers(deps: {
  changePassword: PasswordChange;
  users: Pick<UsersStore, "endSessions" | "rename">;
  me: MeView["me"];
  sessions: Pick<SessionsStore, "endAll">;
  secureCookies: boolean;
}) {
  const changePassword: AdminHandler<"changePassword"> = async (req, res) => {
    const sessionToken = sessionTokenOf(req);
    if (sessionToken === undefined) throw signInFirst();
    await deps.changePassword({
      userId: signedInUser(res),
      sessionToken,
      currentPassword: req.body.currentPassword,
      newPassword: req.body.newPassword,
      ip: req.ip,
    });
    res.status(204).end();
  };

  const signOutEverywhere: AdminHandler<"signOutEverywhere"> = async (_req, res) => {
    const userId = signedInUser(res);
    // The generation first, so a sign-in in flight does not keep its session (sessions-store.ts).
    await deps.users.endSessions(userId);
    await deps.sessions.endAll(userId);
    clearSessionCookie(res, deps.secureCookies);
    res.status(204).end();
  };

  const updateMe: AdminHandler<"updateMe"> = async (req, res) => {
    const userId = signedInUser(res);
    await deps.users.rename(userId, req.body.name);
    res.json(await deps.me(userId, requestOrigin(res)));
  };

  return { changePassword, signOutEverywhere, updateMe };
}
