/**
 * The rules of workspaces and their memberships, in one place: names, limits, roles, and who may
 * do what. The stores apply them to what they write; the admin API's guards ask them.
 *
 * Who may do what in a workspace:
 * - someone who is not a member may do nothing, and is told the workspace does not exist (the
 *   same "not found" as for a workspace that does not), so ids cannot be probed;
 * - any member reads the workspace and its members, writes, releases and removes its blogs, and
 *   mints and revokes its API keys;
 * - only an owner renames it, invites, adds or removes members and changes their roles; a
 *   workspace may have several owners, all alike;
 * - any member may leave it (remove their own membership);
 * - a workspace always keeps an owner: its last owner can be neither removed, nor demoted, nor
 *   leave (owner-guard.ts keeps this under concurrency);
 * - a workspace may require two-step sign-in of its owners: an owner without it may do nothing
 *   in it until they turn it on (members are not affected), and only an owner who has it may
 *   turn the rule on, so nobody locks themselves out.
 */
import type { Role } from "../platform/db/collections.js";
import { conflict, DomainError, invalid, notFound } from "../platform/domain-error.js";

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

/** Renaming a workspace and managing its members: an owner only. */
export function mustBeOwner(role: Role | null | undefined): void {
  if (role !== "owner") throw new DomainError("forbidden", "Only the workspace owner can do this.");
}

/** Removing a membership: an owner removes anyone; a member only themselves (leaving). */
export function mayRemove(callerRole: Role, callerId: string, userId: string): void {
  if (callerId !== userId) mustBeOwner(callerRole);
}

/** The role of the membership to change or remove; "not found" when there is none. */
export function existingMember(role: Role | null): Role {
  if (role === null) throw notFound("Member not found.");
  return role;
}

export const LAST_OWNER_MESSAGE = "A workspace needs an owner. Make another member an owner first.";

/** What the last owner's removal, demotion or leaving answers. */
export const lastOwner = (): DomainError => conflict(LAST_OWNER_MESSAGE);

export const OWNER_NEEDS_TWO_STEP_MESSAGE =
  "This workspace requires its owners to use two-step sign-in. Turn it on in Account first.";

/** An owner of a workspace that requires two-step sign-in of its owners, without it: refused. */
export function ownerTwoStepRule(role: Role, required: boolean, hasTwoStep: boolean): void {
  if (role === "owner" && required && !hasTwoStep) {
    throw new DomainError("forbidden", OWNER_NEEDS_TWO_STEP_MESSAGE);
  }
}

/** Turning the rule on: only by an owner who uses two-step sign-in. */
export function mayRequireTwoStep(required: boolean, hasTwoStep: boolean): void {
  if (required && !hasTwoStep) {
    throw conflict(
      "Turn on two-step sign-in for your own account first (Account), then require it of owners.",
    );
  }
}
