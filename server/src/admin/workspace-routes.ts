import type { Response } from "express";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { TeamActor, TeamChanges } from "../workspaces/team-changes.js";
import { mayRemove } from "../workspaces/workspace-rules.js";
import { toMember, toWorkspace } from "../workspaces/workspace-view.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";
import { requestOrigin, roleInPath, signedInUser } from "./guards.js";

export const MEMBER_ADD_ACCEPTED =
  "If an account uses this email, it is now a member of this workspace.";

/**
 * Workspaces of the signed-in user, and their members. Who may do what is checked by the
 * router's guards (workspace-rules.ts); the rules of names and memberships by the store; team
 * changes leave audit entries (team-changes.ts).
 */
export function workspaceHandlers(workspaces: WorkspacesStore, team: TeamChanges) {
  const actorIn = (workspaceId: string, res: Pick<Response, "locals">): TeamActor => ({
    workspaceId,
    actor: signedInUser(res),
    log: res.locals.log,
  });

  const listWorkspaces: AdminHandler<"listWorkspaces"> = async (_req, res) => {
    const mine = await workspaces.of(signedInUser(res));
    res.json({ data: mine.map((w) => toWorkspace(w.workspace, w.role, requestOrigin(res))) });
  };

  const createWorkspace: AdminHandler<"createWorkspace"> = async (req, res) => {
    const doc = await workspaces.create(req.body.name, signedInUser(res));
    res.status(201).json(toWorkspace(doc, "owner", requestOrigin(res)));
  };

  const renameWorkspace: AdminHandler<"renameWorkspace"> = async (req, res) => {
    const doc = await workspaces.rename(req.params.workspaceId, req.body.name);
    res.json(toWorkspace(doc, roleInPath(res), requestOrigin(res)));
  };

  const listMembers: AdminHandler<"listMembers"> = async (req, res) => {
    res.json({ data: (await workspaces.members(req.params.workspaceId)).map(toMember) });
  };

  // The same 202 whether or not the email has an account and whether or not it is a member
  // already (admin.yaml, addMember): the answer must not tell who has an account.
  const addMember: AdminHandler<"addMember"> = async (req, res) => {
    await team.add(actorIn(req.params.workspaceId, res), req.body.email);
    res.status(202).json({ message: MEMBER_ADD_ACCEPTED });
  };

  const changeMemberRole: AdminHandler<"changeMemberRole"> = async (req, res) => {
    const { workspaceId, userId } = req.params;
    res.json(toMember(await team.changeRole(actorIn(workspaceId, res), userId, req.body.role)));
  };

  // An owner removes anyone; any member removes themselves, which is leaving (workspace-rules.ts).
  const removeMember: AdminHandler<"removeMember"> = async (req, res) => {
    const { workspaceId, userId } = req.params;
    mayRemove(roleInPath(res), signedInUser(res), userId);
    await team.remove(actorIn(workspaceId, res), userId);
    res.status(204).end();
  };

  return {
    listWorkspaces,
    createWorkspace,
    renameWorkspace,
    listMembers,
    addMember,
    changeMemberRole,
    removeMember,
  };
}
