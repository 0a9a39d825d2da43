import { useState } from "preact/hooks";
import { api, type CreatedInvitation, call, type Invitation, send } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { ErrorMessage, TimeAgo } from "../../components/status.js";
import { useLoad } from "../../use-load.js";
import { ShowLink } from "./invite.js";

interface PendingProps {
  workspaceId: string;
  /** Bumped by the parent after an invitation is made, to reload. */
  version: number;
  onWithdrawn: (email: string) => void;
}

/**
 * An owner's list of invitations not yet used, each with "Resend" (a new link, shown once and
 * mailed again; admin.yaml, resendInvitation) and "Withdraw".
 */
export function PendingInvitations({ workspaceId, version, onWithdrawn }: PendingProps) {
  const [withdrawing, setWithdrawing] = useState<Invitation | null>(null);
  const [resending, setResending] = useState<Invitation | null>(null);
  const [resent, setResent] = useState<CreatedInvitation | null>(null);
  const loaded = useLoad(
    async () => {
      const { data } = await call(
        api.GET("/workspaces/{workspaceId}/invitations", {
          params: { path: { workspaceId } },
        }),
      );
      return data;
    },
    [workspaceId],
    { refreshOn: [version] },
  );
  const list = loaded.data;
  const error = loaded.error?.message ?? null;

  const withdraw = async (invitation: Invitation) => {
    await send(
      api.DELETE("/workspaces/{workspaceId}/invitations/{invitationId}", {
        params: { path: { workspaceId, invitationId: invitation.id } },
      }),
    );
    setWithdrawing(null);
    onWithdrawn(invitation.email);
    await loaded.reload();
  };

  const resend = async (invitation: Invitation) => {
    const created = await call(
      api.POST("/workspaces/{workspaceId}/invitations/{invitationId}/resend", {
        params: { path: { workspaceId, invitationId: invitation.id } },
      }),
    );
    setResending(null);
    setResent(created);
    await loaded.reload();
  };

  const now = Date.now();
  return (
    <section class="card invitations" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Pending invitations</h2>
      {error && <ErrorMessage message={error} onRetry={loaded.reload} />}
      {list?.length === 0 && <p class="muted">None. Invited people show here until they join.</p>}
      {list && list.length > 0 && (
        <ul class="member-list">
          {list.map((i) => (
            <li key={i.id} class="member">
              <div class="member-main">
                <span class="member-name">{i.email}</span>
                <span class="sub">
                  invited <TimeAgo iso={i.createdAt} now={now} />
                  {i.invitedBy && ` by ${i.invitedBy.name}`}
                </span>
              </div>
              <div class="member-meta">
                <span class="badge">{i.role}</span>
                <span class="sub">expires {new Date(i.expiresAt).toLocaleDateString()}</span>
              </div>
              <div class="member-actions">
                <button type="button" class="button small" onClick={() => setResending(i)}>
                  Resend<span class="visually-hidden"> the invitation for {i.email}</span>
                </button>
                <button
                  type="button"
                  class="button small danger-outline"
                  onClick={() => setWithdrawing(i)}
                >
                  Withdraw<span class="visually-hidden"> the invitation for {i.email}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {resending && (
        <ConfirmDialog
          title={`Send ${resending.email} a new link?`}
          confirmLabel="Make a new link"
          onConfirm={() => resend(resending)}
          onClose={() => setResending(null)}
        >
          <p>
            The link they have stops working at once. The new one works for 7 days, and is shown to
            you once.
          </p>
        </ConfirmDialog>
      )}
      {resent && <ShowLink created={resent} onClose={() => setResent(null)} />}
      {withdrawing && (
        <ConfirmDialog
          title={`Withdraw the invitation for ${withdrawing.email}?`}
          confirmLabel="Withdraw"
          onConfirm={() => withdraw(withdrawing)}
          onClose={() => setWithdrawing(null)}
        >
          <p>Its link stops working at once. You can invite them again later.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
