import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, messageOf } from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { problemOf } from "../../components/field-rules.js";
import { PasswordField } from "../../components/password-field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";

const MAX = adminLimits.startTwoStep.currentPassword.maxLength;

interface PasswordStepProps {
  /** Under the field: why it is asked. */
  hint: string;
  submitLabel: string;
  /** The submit button's label while the request runs ("Turning off…"). */
  busyLabel: string;
  /** A red button: the step takes something away (turning two-step sign-in off). */
  danger?: boolean;
  /** Sends the password; a `403` is said on the field, anything else above the buttons. */
  onSubmit: (password: string) => Promise<void>;
  onCancel: () => void;
}

/**
 * A dialog's form that asks for the current password before a change to two-step sign-in
 * (admin.yaml, startTwoStep, turnOffTwoStep, renewRecoveryCodes): a wrong one (`403`, counted as
 * a failed sign-in) is said on the field, the throttle's `429` with its wait, a refusal (`409`:
 * on already, or a workspace requires it) in the server's words.
 */
export function PasswordStep(props: PasswordStepProps) {
  const [password, setPassword] = useState("");
  const form = useCheckedForm<"current">();
  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 429) {
      return `Too many wrong passwords. Try again in ${Math.ceil((err.retryAfterSeconds ?? 60) / 60)} min.`;
    }
    if (!(err instanceof ApiError && err.status === 403)) return messageOf(err);
    form.showOnField("current", err.message);
    return null;
  });
  const send = form.checked(
    () => ({ current: problemOf(password, { required: "Enter your current password." }) }),
    submit(() => props.onSubmit(password)),
  );
  return (
    <form class="stack" noValidate ref={form.formRef} onSubmit={send}>
      {/* Lets password managers fill the right account's password. */}
      <input type="hidden" autocomplete="username" />
      <PasswordField
        label="Current password"
        hint={props.hint}
        error={form.errors.current}
        required
        autofocus
        maxLength={MAX}
        autocomplete="current-password"
        value={password}
        onInput={(value) => {
          setPassword(value);
          form.clear("current");
        }}
      />
      {error && <ErrorMessage message={error} focus />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          class={props.danger ? "button danger" : "button primary"}
          disabled={busy}
        >
          {busy ? props.busyLabel : props.submitLabel}
        </button>
      </div>
    </form>
  );
}
