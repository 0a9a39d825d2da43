import { useState } from "preact/hooks";
import { api, call, send, type Workspace } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle } from "../../hooks.js";
import { useLoad } from "../../use-load.js";
import { PendingInvitations } from "./invitations.js";
import { InviteDialog } from "./invite.js";
import { explain, labelOf, MemberItem, type Pending, titleOf } from "./member-item.js";
import { OwnerTwoStep } from "./owner-two-step.js";
import { RenameWorkspaceDialog } from "./rename-workspace.js";
import "./team.css";

interface MembersProps {
  workspace: Workspace;
  meId: string;
  /**
   * The signed-in user's own membership changed (left, or their role), or the workspace's name:
   * reload who they are and their workspaces.
   */
  onOwnMembershipChanged: (left: boolean) => Promise<void>;
  /** The workspace changed here (its owners' two-step rule): the rest of the dashboard follows. */
  onWorkspaceChange: (workspace: Workspace) => void;
}

/**
 * A workspace's members: name, email, role and when they were added. Owners change roles,
 * remove members, invite people and see pending invitations; anyone may leave. The server
 * decides (admin.yaml): a workspace always keeps an owner, and its answer says so.
 */
export function Members(props: MembersProps) {
  const { workspace, meId, onOwnMembershipChanged, onWorkspaceChange } = props;
  useTitle(`Members · ${workspace.name}`);
  const owner = workspace.role === "owner";
  const [pending, setPending] = useState<Pending | null>(null);
  const [inviting, setInviting] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [notice, setNotice] = useState("");
  const [invitationsVersion, setInvitationsVersion] = useState(0);

  const loaded = useLoad(async () => {
    const path = { params: { path: { workspaceId: workspace.id } } };
    const { data } = await call(api.GET("/workspaces/{workspaceId}/members", path));
    return data;
  }, [workspace.id]);
  const members = loaded.data;
  const error = loaded.error?.message ?? null;

  const act = async (p: Pending) => {
    const userPath = { params: { path: { workspaceId: workspace.id, userId: p.member.user.id } } };
    const self = p.member.user.id === meId;
    if (p.kind === "role") {
      await call(
        api.PATCH("/workspaces/{workspaceId}/members/{userId}", {
          ...userPath,
          body: { role: p.role },
        }),
      );
      setNotice(`${p.member.user.name} is now ${p.role === "owner" ? "an owner" : "a member"}.`);
    } else {
      await send(api.DELETE("/workspaces/{workspaceId}/members/{userId}", userPath));
      setNotice(self ? "" : `${p.member.user.name} was removed from ${workspace.name}.`);
    }
    setPending(null);
    if (self) await onOwnMembershipChanged(p.kind === "leave");
    if (!(self && p.kind === "leave")) await loaded.reload();
  };

  const me = members?.find((m) => m.user.id === meId);
  // The last owner can be neither made a member nor leave (admin.yaml: a workspace always keeps
  // an owner): those buttons are not offered, and this says why.
  const owners = members?.filter((m) => m.role === "owner").length ?? 0;
  const soleOwner = me?.role === "owner" && owners === 1;
  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Members</h1>
          <p class="lead">
            Everyone in <strong>{workspace.name}</strong> writes blogs and manages API keys. Owners
            also rename the workspace, invite people and manage members.
          </p>
        </div>
        <div class="action-buttons">
          {owner && (
            <button type="button" class="button primary" onClick={() => setInviting(true)}>
              Invite someone
            </button>
          )}
          {owner && (
            <button type="button" class="button" onClick={() => setRenaming(true)}>
              Rename workspace
            </button>
          )}
          {me && !soleOwner && (
            <button
              type="button"
              class="button danger-outline"
              onClick={() => setPending({ kind: "leave", member: me })}
            >
              Leave workspace
            </button>
          )}
        </div>
      </div>
      {soleOwner && (
        <p class="notice">
          You are the only owner of {workspace.name}. To leave it, or to become a member, make
          someone else an owner first.
        </p>
      )}
      <div role="status">{notice && <p class="notice success">{notice}</p>}</div>
      {error && <ErrorMessage message={error} onRetry={loaded.reload} />}
      {members === null && !error && <Loading label="Loading members…" />}
      {members && (
        <ul class="member-list" aria-label={`Members of ${workspace.name}`}>
          {members.map((m) => (
            <MemberItem
              key={m.user.id}
              member={m}
              self={m.user.id === meId}
              canManage={owner}
              lastOwner={m.role === "owner" && owners === 1}
              onPick={setPending}
            />
          ))}
        </ul>
      )}
      {owner && (
        <PendingInvitations
          workspaceId={workspace.id}
          version={invitationsVersion}
          onWithdrawn={(email) => setNotice(`The invitation for ${email} was withdrawn.`)}
        />
      )}
      {owner && <OwnerTwoStep workspace={workspace} onSaved={onWorkspaceChange} />}
      {renaming && (
        <RenameWorkspaceDialog
          workspace={workspace}
          onRenamed={async (renamed) => {
            setRenaming(false);
            setNotice(`The workspace is now called ${renamed.name}.`);
            await onOwnMembershipChanged(false);
          }}
          onClose={() => setRenaming(false)}
        />
      )}
      {inviting && (
        <InviteDialog
          workspace={workspace}
          onInvited={() => setInvitationsVersion((v) => v + 1)}
          onClose={() => setInviting(false)}
        />
      )}
      {pending && (
        <ConfirmDialog
          title={titleOf(pending, workspace.name)}
          confirmLabel={labelOf(pending)}
          onConfirm={() => act(pending)}
          onClose={() => setPending(null)}
        >
          <p>{explain(pending)}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
