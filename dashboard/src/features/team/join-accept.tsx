import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, api, call, type Me, messageOf } from "../../api.js";
import { fieldOfMessage, useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { NewPasswordField } from "../../components/new-password-field.js";
import { PasswordField } from "../../components/password-field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";

// The ways to accept an invitation (join.tsx): as the signed-in account it was made
// for, with that account's password, or with a new account.

const limits = adminLimits.acceptInvitation;

type OnJoined = (me: Me, workspaceId: string | null) => void;

/** The workspace just joined: the one that was not among the user's workspaces before. */
const joinedWorkspace = (me: Me, before: ReadonlySet<string>): string | null =>
  me.workspaces.find((w) => !before.has(w.id))?.id ?? null;

export function AcceptAsMe(props: {
  token: string;
  known: ReadonlySet<string>;
  onJoined: OnJoined;
}) {
  const { busy, error, submit } = useSubmit();
  const accept = submit(async () => {
    const me = await call(api.POST("/invitations/accept", { body: { token: props.token } }));
    props.onJoined(me, joinedWorkspace(me, props.known));
  });
  return (
    <form class="stack" onSubmit={accept}>
      {error && <ErrorMessage message={error} />}
      <button type="submit" class="button primary block" disabled={busy}>
        {busy ? "Joining…" : "Accept and join"}
      </button>
    </form>
  );
}

/** "I have an account": its password signs this browser in as it and joins. */
export function ExistingAccount(props: {
  token: string;
  email: string;
  known: ReadonlySet<string>;
  onJoined: OnJoined;
}) {
  const [password, setPassword] = useState("");
  const form = useCheckedForm<"password">();
  const { busy, error, submit } = useSubmit((err) =>
    err instanceof ApiError && err.status === 401
      ? `Wrong password for ${props.email}, or no account has this email.`
      : messageOf(err),
  );
  const join = form.checked(
    () => ({ password: problemOf(password, { required: "Enter your password." }) }),
    submit(async () => {
      const me = await call(
        api.POST("/invitations/accept", { body: { token: props.token, password } }),
      );
      props.onJoined(me, joinedWorkspace(me, props.known));
    }),
  );
  return (
    <form class="stack" noValidate ref={form.formRef} onSubmit={join}>
      <input type="hidden" autocomplete="username" value={props.email} />
      <PasswordField
        label={`Password of ${props.email}`}
        error={form.errors.password}
        required
        autocomplete="current-password"
        value={password}
        onInput={(value) => {
          setPassword(value);
          form.clear("password");
        }}
      />
      {error && <ErrorMessage message={error} />}
      <button type="submit" class="button primary block" disabled={busy}>
        {busy ? "Joining…" : "Sign in and join"}
      </button>
    </form>
  );
}

/**
 * "I'm new here": a name and a password make the account. Should the email have one already,
 * the server takes the password as that account's (admin.yaml, acceptInvitation).
 */
export function NewAccount(props: { token: string; email: string; onJoined: OnJoined }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const form = useCheckedForm<"name" | "password">();
  const { busy, error, submit } = useSubmit((err) => {
    const field =
      err instanceof ApiError && err.status === 400
        ? fieldOfMessage<"name" | "password">(err.message, {
            name: /\bname\b/i,
            password: /\bpassword\b/i,
          })
        : null;
    if (err instanceof ApiError && err.status === 401) {
      return `An account with ${props.email} exists already, and this is not its password. Choose “I have an account”.`;
    }
    if (field === null) return messageOf(err);
    form.showOnField(field, messageOf(err));
    return null;
  });
  const join = form.checked(
    () => ({
      name: problemOf(name, { required: "Enter your name.", maxLength: limits.name.maxLength }),
      password: problemOf(password, { required: "Choose a password.", ...limits.password }),
    }),
    submit(async () => {
      const me = await call(
        api.POST("/invitations/accept", {
          body: { token: props.token, name: name.trim(), password },
        }),
      );
      props.onJoined(me, joinedWorkspace(me, new Set()));
    }),
  );
  return (
    <form class="stack" noValidate ref={form.formRef} onSubmit={join}>
      <input type="hidden" autocomplete="username" value={props.email} />
      <Field label="Your name" error={form.errors.name}>
        {(p) => (
          <input
            {...p}
            required
            autofocus
            maxLength={limits.name.maxLength}
            autocomplete="name"
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
              form.clear("name");
            }}
          />
        )}
      </Field>
      <NewPasswordField
        label="Choose a password"
        bounds={limits.password}
        hint="A passphrase works well."
        error={form.errors.password}
        value={password}
        onInput={(value) => {
          setPassword(value);
          form.clear("password");
        }}
      />
      {error && <ErrorMessage message={error} />}
      <button type="submit" class="button primary block" disabled={busy}>
        {busy ? "Joining…" : "Create account and join"}
      </button>
    </form>
  );
}
