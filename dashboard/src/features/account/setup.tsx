import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, api, call, type Me, messageOf, type SetupRequest } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { fieldOfMessage, useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { NewPasswordField } from "../../components/new-password-field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit, useTitle } from "../../hooks.js";

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
  const checks = useCheckedForm<keyof SetupRequest>();
  const { errors } = checks;
  const setValue = (field: keyof SetupRequest, value: string) => {
    setForm({ ...form, [field]: value });
    checks.clear(field);
  };
  const set = (field: keyof SetupRequest) => (event: Event) =>
    setValue(field, (event.currentTarget as HTMLInputElement).value);

  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 400) {
      const field = fieldOfMessage<keyof SetupRequest>(err.message, {
        // Before "name": "Workspace name …" is about the workspace.
        workspaceName: /\bworkspace\b/i,
        name: /\bname\b/i,
        email: /\bemail\b/i,
        password: /\bpassword\b/i,
      });
      if (field) {
        checks.showOnField(field, err.message);
        return null;
      }
    }
    if (!(err instanceof ApiError && err.status === 409)) return messageOf(err);
    onAlreadyDone();
    return null;
  });
  const create = checks.checked(
    () => ({
      name: problemOf(form.name, {
        required: "Enter your name.",
        maxLength: limits.name.maxLength,
      }),
      email: problemOf(form.email, {
        required: "Enter your email address.",
        email: true,
        maxLength: limits.email.maxLength,
      }),
      password: problemOf(form.password, {
        required: "Choose a password.",
        ...limits.password,
      }),
      workspaceName: problemOf(form.workspaceName, {
        required: "Name your first workspace.",
        maxLength: limits.workspaceName.maxLength,
      }),
    }),
    submit(async () => {
      onDone(await call(api.POST("/setup", { body: { ...form, name: form.name.trim() } })));
    }),
  );

  return (
    <AuthCard title="Welcome to Pressroom">
      <p class="lead">
        Create the owner account and your first workspace. This page appears only once, before
        anyone has an account.
      </p>
      <form class="stack" noValidate ref={checks.formRef} onSubmit={create}>
        <Field label="Your name" error={errors.name}>
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
        <Field label="Email" error={errors.email}>
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
          error={errors.password}
          value={form.password}
          onInput={(password) => setValue("password", password)}
        />
        <Field
          label="Workspace name"
          error={errors.workspaceName}
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
