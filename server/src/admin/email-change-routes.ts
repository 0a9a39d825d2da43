import type { AdminHandler } from "../platform/http/admin-types.js";
import type { EmailChange } from "../users/email-change.js";
import { dashboardOrigin, requestOrigin, signedInUser } from "./guards.js";
import type { MeView } from "./me-view.js";

/**
 * Changing one's email (admin.yaml, changeEmail, cancelEmailChange and confirmEmailChange); the
 * rules are users/email-change.ts's. The confirmation is open to everyone, like a reset link's
 * use: the link's token, only ever read from a request body, is the credential; it is never
 * answered, logged or stored.
 */
export function emailChangeHandlers(deps: {
  emailChange: EmailChange;
  me: MeView["me"];
  publicOrigin: string | undefined;
}) {
  const changeEmail: AdminHandler<"changeEmail"> = async (req, res) => {
    const userId = signedInUser(res);
    const outcome = await deps.emailChange.request({
      userId,
      newEmail: req.body.newEmail,
      currentPassword: req.body.currentPassword,
      ip: req.ip,
      origin: dashboardOrigin(req, deps.publicOrigin),
    });
    if ("pending" in outcome) {
      const { email, expiresAt } = outcome.pending;
      res.status(202).json({ pending: { email, expiresAt: expiresAt.toISOString() } });
      return;
    }
    res.json(await deps.me(userId, requestOrigin(res)));
  };

  const cancelEmailChange: AdminHandler<"cancelEmailChange"> = async (_req, res) => {
    await deps.emailChange.cancel(signedInUser(res));
    res.status(204).end();
  };

  const confirmEmailChange: AdminHandler<"confirmEmailChange"> = async (req, res) => {
    res.json(await deps.emailChange.confirm(req.body.token, req.ip));
  };

  return { changeEmail, cancelEmailChange, confirmEmailChange };
}
