import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import {
  ApiError,
  api,
  type CreatedInvitation,
  call,
  messageOf,
  type Role,
  type Workspace,
} from "../../api.js";
import { fieldOfMessage, useCheckedForm } from "../../components/checked-form.js";
import { CopyOnceField } from "../../components/copy-once-field.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { Modal } from "../../components/modal.js";
import { ShownOnceDialog } from "../../components/shown-once-dialog.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";

interface InviteProps {
  workspace: Workspace;
  onInvited: () => void;
  onClose: () => void;
}

/** An owner invites an email with a role, then sees the one-time link once, to hand over. */
export function InviteDialog({ workspace, onInvited, onClose }: InviteProps) {
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const form = useCheckedForm<"email">();
  // A refused email (already a member, 409; or malformed, 400) is said on the field.
  const { busy, error, submit } = useSubmit((err) => {
    const onEmail =
      err instanceof ApiError &&
      (err.status === 400 || err.status === 409) &&
      fieldOfMessage<"email">(err.message, { email: /email/i }) !== null;
    if (!onEmail) return messageOf(err);
    form.showOnField("email", messageOf(err));
    return null;
  });
  const invite = form.checked(
    () => ({
      email: problemOf(email, {
        required: "Enter the email address to invite.",
        email: true,
        maxLength: adminLimits.createInvitation.email.maxLength,
      }),
    }),
    submit(async () => {
      const result = await call(
        api.POST("/workspaces/{workspaceId}/invitations", {
          params: { path: { workspaceId: workspace.id } },
          body: { email: email.trim(), role },
        }),
      );
      setCreated(result);
      onInvited();
    }),
  );

  if (created) return <ShowLink created={created} onClose={onClose} />;
  return (
    <Modal
      title={`Invite someone to ${workspace.name}`}
      onClose={onClose}
      description="They get a link that works once, for 7 days, to join with a new account or the one they have."
    >
      <form class="stack" noValidate ref={form.formRef} onSubmit={invite}>
        <Field label="Email" error={form.errors.email}>
          {(p) => (
            <input
              {...p}
              type="email"
              required
              autofocus
              autocomplete="off"
              maxLength={adminLimits.createInvitation.email.maxLength}
              value={email}
              onInput={(e) => {
                setEmail(e.currentTarget.value);
                form.clear("email");
              }}
            />
          )}
        </Field>
        <fieldset class="field role-choice">
          <legend class="label-like">Role</legend>
          <label>
            <input
              type="radio"
              name="invite-role"
              value="member"
              checked={role === "member"}
              onChange={() => setRole("member")}
            />{" "}
            Member — writes blogs, manages keys
          </label>
          <label>
            <input
              type="radio"
              name="invite-role"
              value="owner"
              checked={role === "owner"}
              onChange={() => setRole("owner")}
            />{" "}
            Owner — also manages members
          </label>
        </fieldset>
        {error && <ErrorMessage message={error} />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Inviting…" : "Create invitation"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** What became of the invitation's mail (admin.yaml, CreatedInvitation.mail). */
const MAILED: Record<CreatedInvitation["mail"], (email: string) => string> = {
  sent: (email) => `It was also mailed to ${email}.`,
  failed: (email) => `Mailing it to ${email} failed: send it to them yourself.`,
  off: (email) => `Send it to ${email} yourself: this Pressroom server sends no mail.`,
};

/**
 * The invitation's link, shown once (it lives only in this dialog's state): `ShownOnceDialog`,
 * so Escape and stray clicks do nothing and "Done" asks first unless it was copied.
 */
export function ShowLink({
  created,
  onClose,
}: {
  created: CreatedInvitation;
  onClose: () => void;
}) {
  const { invitation, mail } = created;
  return (
    <ShownOnceDialog
      title="Copy the invitation link now"
      secret={created.link}
      what="link"
      loss={
        mail === "sent"
          ? `It was mailed to ${invitation.email}, but once this dialog closes nobody can see it here again.`
          : `Once this dialog closes nobody can see it again, you included, and ${invitation.email} cannot join without it.`
      }
      onClose={onClose}
      description={
        <p class="notice warning">
          <strong>This link will not be shown again.</strong> {MAILED[mail](invitation.email)} It
          works once, until {new Date(invitation.expiresAt).toLocaleString()}.
        </p>
      }
    >
      {(copied) => (
        <CopyOnceField
          id="invitation-link"
          label={`Invitation link for ${invitation.email}`}
          value={created.link}
          what="link"
          onCopied={copied}
        />
      )}
    </ShownOnceDialog>
  );
}
