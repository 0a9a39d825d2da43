import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, api, type Me, messageOf, requestsSettled, send } from "../../api.js";
import { fieldOfMessage, useCheckedForm } from "../../components/checked-form.js";
import { problemOf } from "../../components/field-rules.js";
import { NewPasswordField } from "../../components/new-password-field.js";
import { PasswordField } from "../../components/password-field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit, useTitle } from "../../hooks.js";
import { AccessTokens } from "./access-tokens.js";
import { TwoStep } from "./two-step.js";
import { YourEmail } from "./your-email.js";
import { YourName } from "./your-name.js";
import "./account.css";

const limits = adminLimits.changePassword;

interface AccountProps {
  me: Me;
  /** The account changed (its name, its email): the header and the rest show it. */
  onMeChange: (me: Me) => void;
  /** Every session ended, this one too. */
  onSignedOutEverywhere: () => void;
}

/**
 * One's own account: one's name, the password (other sessions end when it changes), two-step
 * sign-in, one's email, the access tokens of one's scripts and CI jobs, or sign out everywhere.
 */
export function Account({ me, onMeChange, onSignedOutEverywhere }: AccountProps) {
  useTitle("Your account");
  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Your account</h1>
          <p class="lead">
            Signed in as <strong>{me.user.name}</strong> ({me.user.email}).
          </p>
        </div>
      </div>
      <div class="account-sections">
        <YourName me={me} onChanged={onMeChange} />
        <ChangePassword />
        <TwoStep me={me} onMeChange={onMeChange} />
        <YourEmail me={me} onChanged={onMeChange} />
        <AccessTokens />
        <SignOutEverywhere onDone={onSignedOutEverywhere} />
      </div>
    </>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [done, setDone] = useState(false);
  const form = useCheckedForm<"current" | "next">();
  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 429) {
      return `Too many wrong passwords. Try again in ${Math.ceil((err.retryAfterSeconds ?? 60) / 60)} min.`;
    }
    // A wrong current password, or a new one the server refuses: said on that field.
    const field =
      err instanceof ApiError && (err.status === 400 || err.status === 403)
        ? fieldOfMessage<"current" | "next">(err.message, {
            current: /current/i,
            next: /new ?password|newPassword/i,
          })
        : null;
    if (field === null) return messageOf(err);
    form.showOnField(field, messageOf(err));
    return null;
  });
  const change = form.checked(
    () => ({
      current: problemOf(current, { required: "Enter your current password." }),
      next: problemOf(next, { required: "Choose a new password.", ...limits.newPassword }),
    }),
    submit(async () => {
      setDone(false);
      await send(
        api.POST("/me/password", { body: { currentPassword: current, newPassword: next } }),
      );
      setCurrent("");
      setNext("");
      setDone(true);
    }),
  );
  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form class="stack" noValidate ref={form.formRef} onSubmit={change}>
        {/* Lets password managers file the new password under the right account. */}
        <input type="hidden" autocomplete="username" />
        <PasswordField
          label="Current password"
          error={form.errors.current}
          required
          maxLength={limits.currentPassword.maxLength}
          autocomplete="current-password"
          value={current}
          onInput={(value) => {
            setCurrent(value);
            form.clear("current");
          }}
        />
        <NewPasswordField
          label="New password"
          bounds={limits.newPassword}
          hint="Your other sessions end when it changes."
          error={form.errors.next}
          value={next}
          onInput={(value) => {
            setNext(value);
            form.clear("next");
          }}
        />
        {error && <ErrorMessage message={error} />}
        <div role="status">
          {done && (
            <p class="notice success">
              Password changed. Your other sessions have ended; this one stays signed in.
            </p>
          )}
        </div>
        <div>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Changing…" : "Change password"}
          </button>
        </div>
      </form>
    </section>
  );
}

function SignOutEverywhere({ onDone }: { onDone: () => void }) {
  const { busy, error, submit } = useSubmit();
  const signOut = submit(async () => {
    await requestsSettled(); // none still on its way comes back 401 (api.ts)
    await send(api.DELETE("/me/sessions"));
    onDone();
  });
  return (
    <section class="card" aria-labelledby="everywhere-title">
      <h2 id="everywhere-title">Sign out everywhere</h2>
      <p>Ends every session of your account, on every browser and device, this one included.</p>
      {error && <ErrorMessage message={error} />}
      <button type="button" class="button danger" onClick={signOut} disabled={busy}>
        {busy ? "Signing out…" : "Sign out everywhere"}
      </button>
    </section>
  );
}
