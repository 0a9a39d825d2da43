import { useRef, useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, api, call, type Me, messageOf, send } from "../../api.js";
import { fieldOfMessage, useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { PasswordField } from "../../components/password-field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { exactTime } from "../../time.js";

const limits = adminLimits.changeEmail;

type EmailField = "email" | "current";

/**
 * One's email (admin.yaml, changeEmail and cancelEmailChange): the current password always; with
 * mail, the change waits for the link mailed to the new address (shown here, with Cancel);
 * without, it is made at once.
 */
export function YourEmail({ me, onChanged }: { me: Me; onChanged: (me: Me) => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const form = useCheckedForm<EmailField>();
  const { byMail, pending } = me.emailChange;
  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 429) {
      const minutes = Math.ceil((err.retryAfterSeconds ?? 60) / 60);
      return `${err.message} Try again in ${minutes} min.`;
    }
    // A wrong password, an email taken or refused: said on that field.
    const field =
      err instanceof ApiError && [400, 403, 409].includes(err.status)
        ? fieldOfMessage<EmailField>(err.message, {
            email: /email/i,
            current: /password/i,
          })
        : null;
    if (field === null) return messageOf(err);
    form.showOnField(field, messageOf(err));
    return null;
  });
  const change = form.checked(
    () => ({
      email: problemOf(email.trim(), {
        required: "Enter the new email.",
        maxLength: limits.newEmail.maxLength,
        email: true,
      }),
      current: problemOf(password, { required: "Enter your current password." }),
    }),
    submit(async () => {
      setNotice(null);
      const answer = await call(
        api.POST("/me/email", { body: { newEmail: email.trim(), currentPassword: password } }),
      );
      setEmail("");
      setPassword("");
      // Emptied after a success, not by the person: no "required" red on them (:user-invalid).
      form.formRef.current?.reset();
      if ("user" in answer) {
        onChanged(answer);
        setNotice(`Email changed. Sign in with ${answer.user.email} from now on.`);
        return;
      }
      onChanged({ ...me, emailChange: { byMail, pending: answer.pending } });
      setNotice(
        `Check the inbox of ${answer.pending.email}: the change happens when you open the link there.`,
      );
    }),
  );
  const cancel = useSubmit();
  const cancelChange = cancel.submit(async () => {
    await send(api.DELETE("/me/email"));
    onChanged({ ...me, emailChange: { byMail, pending: null } });
    setNotice(`Change cancelled. Your email stays ${me.user.email}.`);
    // The Cancel button is gone: the focus goes to the form, not to the page's <body>.
    emailRef.current?.focus();
  });

  return (
    <section class="card" aria-labelledby="email-title">
      <h2 id="email-title">Email</h2>
      <p>
        You sign in with <strong>{me.user.email}</strong>.
      </p>
      {pending && (
        <div class="notice info pending-email">
          <p>
            Waiting for confirmation: a link was mailed to <strong>{pending.email}</strong>. Your
            email changes when it is opened there, until{" "}
            <time dateTime={pending.expiresAt}>{exactTime(pending.expiresAt)}</time>.
          </p>
          {cancel.error && <ErrorMessage message={cancel.error} focus />}
          <button type="button" class="button small" onClick={cancelChange} disabled={cancel.busy}>
            {cancel.busy ? "Cancelling…" : "Cancel change"}
          </button>
        </div>
      )}
      <form class="stack" noValidate ref={form.formRef} onSubmit={change}>
        <Field
          label="New email"
          hint={
            byMail
              ? "We mail a link to the new address; your email changes when you open it."
              : "Your email changes at once; sign in with the new one from then on."
          }
          error={form.errors.email}
        >
          {(p) => (
            <input
              {...p}
              ref={emailRef}
              type="email"
              required
              maxLength={limits.newEmail.maxLength}
              autocomplete="email"
              value={email}
              onInput={(e) => {
                setEmail(e.currentTarget.value);
                form.clear("email");
              }}
            />
          )}
        </Field>
        <PasswordField
          label="Your password"
          hint="Asked every time: a browser left signed in is not enough."
          error={form.errors.current}
          required
          maxLength={limits.currentPassword.maxLength}
          autocomplete="current-password"
          value={password}
          onInput={(value) => {
            setPassword(value);
            form.clear("current");
          }}
        />
        {error && <ErrorMessage message={error} focus />}
        <div role="status">{notice && <p class="notice success">{notice}</p>}</div>
        <div>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Changing…" : "Change email"}
          </button>
        </div>
      </form>
    </section>
  );
}
