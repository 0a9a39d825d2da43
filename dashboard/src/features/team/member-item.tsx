import type { Member, Role } from "../../api.js";
import { TimeAgo } from "../../components/status.js";

/** The change a member's button asks to confirm. */
export type Pending =
  | { kind: "remove"; member: Member }
  | { kind: "leave"; member: Member }
  | { kind: "role"; member: Member; role: Role };

/** One member: name, email, role, when added; for owners, its role and remove buttons. */
export function MemberItem(props: {
  member: Member;
  self: boolean;
  canManage: boolean;
  /** The workspace's only owner: never offered "Make member" (the server would refuse it). */
  lastOwner: boolean;
  onPick: (p: Pending) => void;
}) {
  const { member: m, self, canManage, lastOwner, onPick } = props;
  const other: Role = m.role === "owner" ? "member" : "owner";
  return (
    <li class="member">
      <div class="member-main">
        <span class="member-name">
          {m.user.name}
          {self && <span class="muted"> (you)</span>}
        </span>
        <span class="sub">{m.user.email}</span>
      </div>
      <div class="member-meta">
        <span class={m.role === "owner" ? "badge active" : "badge"}>{m.role}</span>
        <span class="sub">
          added <TimeAgo iso={m.addedAt} now={Date.now()} />
        </span>
      </div>
      {canManage && (
        <div class="member-actions">
          {!lastOwner && (
            <button
              type="button"
              class="button small"
              onClick={() => onPick({ kind: "role", member: m, role: other })}
            >
              {other === "owner" ? "Make owner" : "Make member"}
              <span class="visually-hidden"> {m.user.name}</span>
            </button>
          )}
          {!self && (
            <button
              type="button"
              class="button small danger-outline"
              onClick={() => onPick({ kind: "remove", member: m })}
            >
              Remove<span class="visually-hidden"> {m.user.name}</span>
            </button>
          )}
        </div>
      )}
    </li>
  );
}

// The confirmation of each change: its title, its button and what it means.
export const titleOf = (p: Pending, workspaceName: string): string =>
  p.kind === "leave"
    ? `Leave “${workspaceName}”?`
    : p.kind === "remove"
      ? `Remove ${p.member.user.name}?`
      : `Make ${p.member.user.name} ${p.role === "owner" ? "an owner" : "a member"}?`;

export const labelOf = (p: Pending): string =>
  p.kind === "leave" ? "Leave" : p.kind === "remove" ? "Remove member" : "Change role";

export const explain = (p: Pending): string =>
  p.kind === "leave"
    ? "You lose access to its blogs and keys at once. An owner can invite you back."
    : p.kind === "remove"
      ? `${p.member.user.name} loses access to this workspace at once.`
      : p.role === "owner"
        ? "Owners can invite and remove members, change roles and rename the workspace."
        : "Members write blogs and manage keys, but cannot manage members. A workspace always keeps at least one owner.";
