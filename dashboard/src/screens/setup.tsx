import { useState } from "preact/hooks";
import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import { ApiError, api, call, type Me, messageOf, type SetupRequest } from "../api.js";
import { AuthCard } from "../components/auth-card.js";
import { Field } from "../components/field.js";
import { NewPasswordField } from "../components/new-password-field.js";
import { ErrorMessage } from "../components/status.js";
import { useSubmit, useTitle } from "../hooks.js";

const limits = adminLimits.runSetup;

interface SetupProps {
  onDone: (me: Me) => void;
  /** Someone else finished setup first (409). */
  onAlreadyDone: () => void;
}

/** First run: the owner account and the first workspace, in one form. */
export function Setup({ onDone, onAlreadyDone }: SetupProps) {
  useTitle("Set up");
  const [form, setForm] = useState<SetupRequest>({
    name: "",
    email: "",
    password: "",
    workspaceName: "",
  });
  const set = (field: keyof SetupRequest) => (event: Event) =>
    setForm({ ...form, [field]: (event.currentTarget as HTMLInputElement).value });

  const { busy, error, submit } = useSubmit((err) => {
    if (!(err instanceof ApiError && err.status === 409)) return messageOf(err);
    onAlreadyDone();
    return null;
  });
  const create = submit(async () => {
    onDone(await call(api.POST("/setup", { body: { ...form, name: form.name.trim() } })));
  });

  return (
    <AuthCard title="Welcome to Pressroom">
      <p class="lead">
        Create the owner account and your first workspace. This page appears only once, before
        anyone has an account.
      </p>
      <form class="stack" onSubmit={create}>
        <Field label="Your name">
          {(p) => (
            <input
              {...p}
              required
              maxLength={limits.name.maxLength}
              autocomplete="name"
              value={form.name}
              onInput={set("name")}
            />
          )}
        </Field>
        <Field label="Email">
          {(p) => (
            <input
              {...p}
              type="email"
              required
              maxLength={limits.email.maxLength}
              autocomplete="email"
              value={form.email}
              onInput={set("email")}
            />
          )}
        </Field>
        <NewPasswordField
          label="Password"
          bounds={limits.password}
          hint="A passphrase works well."
          value={form.password}
          onInput={(password) => setForm({ ...form, password })}
        />
        <Field
          label="Workspace name"
          hint="Usually your site or publication. You can add more later."
        >
          {(p) => (
            <input
              {...p}
              required
              maxLength={limits.workspaceName.maxLength}
              autocomplete="organization"
              value={form.workspaceName}
              onInput={set("workspaceName")}
            />
          )}
        </Field>
        {error && <ErrorMessage message={error} />}
        <button type="submit" class="button primary block" disabled={busy}>
          {busy ? "Creating…" : "Create account and workspace"}
        </button>
      </form>
    </AuthCard>
  );
}
