import type { Response } from "express";
import type { AuditLog } from "../audit/audit-log.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { CodeSignIn } from "../sessions/second-step.js";
import type { TwoStep } from "../users/two-step.js";
import { hasTwoStep } from "../users/two-step-store.js";
import type { UsersStore } from "../users/users-store.js";
import { mayRequireTwoStep } from "../workspaces/workspace-rules.js";
import { toWorkspace } from "../workspaces/workspace-view.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";
import { requestOrigin, roleInPath, setSessionCookie, signedInUser } from "./guards.js";
import type { MeView } from "./me-view.js";

/**
 * Two-step sign-in (admin.yaml, startTwoStep … renewRecoveryCodes, signInWithCode and
 * setOwnerTwoStep); the rules are users/two-step.ts's and workspace-rules.ts's. Secrets and
 * codes leave only in the answer that shows them; none is ever logged.
 */
export function twoStepHandlers(deps: {
  twoStep: TwoStep;
  signInWithCode: CodeSignIn;
  me: MeView["me"];
  users: Pick<UsersStore, "findById">;
  workspaces: Pick<WorkspacesStore, "setOwnersNeedTwoStep">;
  audit: AuditLog;
  secureCookies: boolean;
}) {
  const asker = (res: Pick<Response, "locals">, ip: string | undefined) => ({
    userId: signedInUser(res),
    ip,
  });

  const startTwoStep: AdminHandler<"startTwoStep"> = async (req, res) => {
    const started = await deps.twoStep.start({
      ...asker(res, req.ip),
      currentPassword: req.body.currentPassword,
    });
    res.json({ ...started, expiresAt: started.expiresAt.toISOString() });
  };

  const confirmTwoStep: AdminHandler<"confirmTwoStep"> = async (req, res) => {
    const recoveryCodes = await deps.twoStep.confirm({
      ...asker(res, req.ip),
      code: req.body.code,
    });
    res.json({ recoveryCodes });
  };

  const turnOffTwoStep: AdminHandler<"turnOffTwoStep"> = async (req, res) => {
    await deps.twoStep.turnOff({
      ...asker(res, req.ip),
      currentPassword: req.body.currentPassword,
    });
    res.status(204).end();
  };

  const renewRecoveryCodes: AdminHandler<"renewRecoveryCodes"> = async (req, res) => {
    const recoveryCodes = await deps.twoStep.renewRecoveryCodes({
      ...asker(res, req.ip),
      currentPassword: req.body.currentPassword,
    });
    res.json({ recoveryCodes });
  };

  const signInWithCode: AdminHandler<"signInWithCode"> = async (req, res) => {
    const signedIn = await deps.signInWithCode(req.body.challenge, req.body.code, req.ip);
    setSessionCookie(res, signedIn.token, signedIn.expiresAt, deps.secureCookies);
    res.json(await deps.me(signedIn.user._id, requestOrigin(res)));
  };

  const setOwnerTwoStep: AdminHandler<"setOwnerTwoStep"> = async (req, res) => {
    const { workspaceId } = req.params;
    const actor = signedInUser(res);
    const { required } = req.body;
    const user = await deps.users.findById(actor);
    mayRequireTwoStep(required, user !== null && hasTwoStep(user));
    const { workspace, previous } = await deps.workspaces.setOwnersNeedTwoStep(
      workspaceId,
      required,
    );
    if (previous !== required) {
      await deps.audit.record({
        workspaceId,
        actor,
        action: required ? "workspace.owner_two_step_required" : "workspace.owner_two_step_lifted",
      });
    }
    res.json(toWorkspace(workspace, roleInPath(res), requestOrigin(res)));
  };

  return {
    startTwoStep,
    confirmTwoStep,
    turnOffTwoStep,
    renewRecoveryCodes,
    signInWithCode,
    setOwnerTwoStep,
  };
}
