import type { RequestHandler } from "express";
import type { UsersStore } from "../users/users-store.js";
import type { Accepted, Member, Workspace, WorkspaceInput } from "./admin-types.js";
import { signedInUser } from "./guards.js";

type WorkspaceParams = { workspaceId: string };

export const MEMBER_ADD_ACCEPTED =
  "If an account uses this email, it is now a member of this workspace.";

/** Workspaces of the signed-in user, and their members. Membership is checked by the router. */
export function workspaceHandlers(users: UsersStore) {
  const listWorkspaces: RequestHandler<object, { data: Workspace[] }> = async (_req, res) => {
    res.json({ data: await users.workspacesOf(signedInUser(res)) });
  };

  const createWorkspace: RequestHandler<object, Workspace, WorkspaceInput> = async (req, res) => {
    res.status(201).json(await users.createWorkspace(signedInUser(res), req.body.name));
  };

  const renameWorkspace: RequestHandler<WorkspaceParams, Workspace, WorkspaceInput> = async (
    req,
    res,
  ) => {
    await users.rename(req.params.workspaceId, req.body.name);
    const all = await users.workspacesOf(signedInUser(res));
    const renamed = all.find((w) => w.id === req.params.workspaceId);
    if (renamed === undefined) throw new Error("renamed workspace vanished");
    res.json(renamed);
  };

  const listMembers: RequestHandler<WorkspaceParams, { data: Member[] }> = async (req, res) => {
    res.json({ data: await users.members(req.params.workspaceId) });
  };

  // The same 202 whether or not the email has an account and whether or not it is a member
  // already (admin.yaml, addMember): the answer must not tell who has an account.
  const addMember: RequestHandler<WorkspaceParams, Accepted, { email: string }> = async (
    req,
    res,
  ) => {
    await users.addMember(req.params.workspaceId, req.body.email);
    res.status(202).json({ message: MEMBER_ADD_ACCEPTED });
  };

  const removeMember: RequestHandler<WorkspaceParams & { userId: string }> = async (req, res) => {
    await users.removeMember(req.params.workspaceId, req.params.userId);
    res.status(204).end();
  };

  return { listWorkspaces, createWorkspace, renameWorkspace, listMembers, addMember, removeMember };
}
