/**
 * The rules of workspaces and their memberships, in one place: names, limits, roles, and who may
 * do what. The stores apply them to what they write; the admin API's guards ask them.
 *
 * Who may do what in a workspace:
 * - someone who is not a member may do nothing, and is told the workspace does not exist (the
 *   same "not found" as for a workspace that does not), so ids cannot be probed;
 * - any member reads the workspace and its members, writes, releases and removes its blogs, and
 *   mints and revokes its API keys;
 * - only its owner renames it and adds or removes members;
 * - the owner's own membership is never removed: a workspace always keeps its owner.
 */
import type { Role } from "../db/collections.js";
import { conflict, DomainError, invalid, notFound } from "../domain-error.js";

export type { Role };

/** Longest workspace name (admin.yaml, `WorkspaceInput.name`: maxLength 100). */
export const MAX_WORKSPACE_NAME_LENGTH = 100;

/** A workspace name as it is stored: trimmed, 1 to 100 characters. Same on create and rename. */
export function workspaceName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > MAX_WORKSPACE_NAME_LENGTH) {
    throw invalid(`A workspace needs a name of 1 to ${MAX_WORKSPACE_NAME_LENGTH} characters.`);
  }
  return trimmed;
}

/** The caller's role in a workspace; not a member: "not found", as if it did not exist. */
export function memberRole(role: Role | null): Role {
  if (role === null) throw notFound("Workspace not found.");
  return role;
}

/** Renaming a workspace and adding or removing its members: its owner only. */
export function mustBeOwner(role: Role | null | undefined): void {
  if (role !== "owner") throw new DomainError("forbidden", "Only the workspace owner can do this.");
}

/** A membership may be removed unless it is the owner's; "not found" when there is none. */
export function mayRemoveMember(role: Role | null): void {
  if (role === null) throw notFound("Member not found.");
  if (role === "owner") throw conflict("The owner cannot be removed.");
}
