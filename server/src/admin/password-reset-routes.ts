import type { AdminHandler } from "../platform/http/admin-types.js";
import type { PasswordReset } from "../users/password-reset.js";
import { dashboardOrigin } from "./guards.js";

/**
 * "Forgot password?" (admin.yaml, requestPasswordReset and completePasswordReset): open to
 * everyone, like sign-in; the rules are users/password-reset.ts's. The link's token is only ever
 * read from a request body, never answered, logged or stored.
 */
export function passwordResetHandlers(resets: PasswordReset, publicOrigin: string | undefined) {
  const requestPasswordReset: AdminHandler<"requestPasswordReset"> = async (req, res) => {
    await resets.request(req.body.email, req.ip, dashboardOrigin(req, publicOrigin));
    res.status(202).end();
  };

  const completePasswordReset: AdminHandler<"completePasswordReset"> = async (req, res) => {
    await resets.complete(req.body.token, req.body.newPassword, req.ip);
    res.status(204).end();
  };

  return { requestPasswordReset, completePasswordReset };
}
