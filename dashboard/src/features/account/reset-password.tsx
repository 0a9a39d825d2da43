import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, api, messageOf, send } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { fieldOfMessage, useCheckedForm } from "../../components/checked-form.js";
import { problemOf } from "../../components/field-rules.js";
import { NewPasswordField } from "../../components/new-password-field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit, useTitle } from "../../hooks.js";
import { wellFormedResetToken } from "./reset-link.js";
import { useThrottle } from "./throttle.js";
import { ThrottledSubmit } from "./throttled-submit.js";
import "./recovery.css";

const limits = adminLimits.completePasswordReset;

/** A link cut short on its way (a mail client that wrapped it): never sent to the server. */
const INCOMPLETE =
  "This reset link is incomplete. Open it again from the mail, whole, or ask for a new one.";

interface ResetPasswordProps {
  /** From the link's fragment (reset-link.ts); sent only in the request's body. */
  token: string;
  /** Leaves the page without a change: to sign-in, or back to the dashboard when signed in. */
  leave: { label: string; onLeave: () => void };
  /** The password is changed (every session of the account ended): sign in with it. */
  onChanged: () => void;
  /** "Ask for a new link", when this one cannot be used. */
  onAskAgain: () => void;
}

/**
 * The page of a password reset link (`/dashboard/#/reset/{token}`; admin.yaml,
 * completePasswordReset): choose a new password. It does not sign this browser in: the
 * sign-in screen follows. A link that cannot be used (unknown, used, expired, voided: one `410`)
 * offers a new one.
 */
export function ResetPassword({ token, leave, onChanged, onAskAgain }: ResetPasswordProps) {
  useTitle("Choose a new password");
  /** Why the link cannot be used; `answered` when a submit found out (the focus goes there). */
  const [unusable, setUnusable] = useState<{ message: string; answered: boolean } | null>(() =>
    wellFormedResetToken(token) ? null : { message: INCOMPLETE, answered: false },
  );
  const [password, setPassword] = useState("");
  const throttle = useThrottle(token);
  const form = useCheckedForm<"password">();
  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 410) {
      setUnusable({ message: err.message, answered: true });
      return null;
    }
    if (err instanceof ApiError && err.status === 429) {
      throttle.hold(
        token,
        err.retryAfterSeconds,
        (wait) => `Too many attempts. For your security, try again in ${wait}.`,
      );
      return null;
    }
    const onPassword =
      err instanceof ApiError && err.status === 400
        ? fieldOfMessage<"password">(err.message, { password: /newPassword|password/i })
        : null;
    if (onPassword === null) return messageOf(err);
    form.showOnField(onPassword, messageOf(err));
    return null;
  });
  const change = form.checked(
    () => ({
      password: problemOf(password, { required: "Choose a new password.", ...limits.newPassword }),
    }),
    submit(async () => {
      await send(api.POST("/password-resets/complete", { body: { token, newPassword: password } }));
      onChanged();
    }),
  );

  const back = (
    <p class="auth-links">
      <button type="button" class="link-button" onClick={leave.onLeave}>
        {leave.label}
      </button>
    </p>
  );
  if (unusable) {
    return (
      <AuthCard title="This reset link cannot be used">
        <ErrorMessage message={unusable.message} focus={unusable.answered} />
        <button type="button" class="button primary block" onClick={onAskAgain}>
          Ask for a new link
        </button>
        {back}
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <p class="lead">
        Choose the password you will sign in with. Changing it ends every session of the account, on
        every device; then sign in with the new one.
      </p>
      <form class="stack" noValidate ref={form.formRef} onSubmit={change}>
        {/* Lets password managers offer to save the new password. */}
        <input type="hidden" autocomplete="username" />
        <NewPasswordField
          label="New password"
          bounds={limits.newPassword}
          hint="A passphrase works well."
          error={form.errors.password}
          value={password}
          onInput={(value) => {
            setPassword(value);
            form.clear("password");
          }}
        />
        <ThrottledSubmit
          error={error}
          throttle={throttle}
          busy={busy}
          label="Change password"
          busyLabel="Changing…"
        />
      </form>
      {back}
    </AuthCard>
  );
}
