import { useState } from "preact/hooks";
import { ApiError, messageOf } from "../api.js";
import { useSubmit } from "../hooks.js";
import { useCheckedForm } from "./checked-form.js";
import { Field } from "./field.js";
import { problemOf } from "./field-rules.js";
import { ErrorMessage } from "./status.js";

interface NameFormProps {
  label: string;
  hint?: string;
  autocomplete?: string;
  /** From admin.yaml, through openapi/generated/admin-limits.ts. */
  maxLength: number | undefined;
  submitLabel: string;
  /** The submit button's label while the request runs ("Creating…"). */
  busyLabel: string;
  /** Said under the field when it is submitted empty ("Name the workspace."). */
  emptyMessage: string;
  /**
   * Sends the trimmed name; if it throws, its message shows (a 400 or 409 under the field, being
   * about the one thing typed) and the name stays as typed.
   */
  onSubmit: (name: string) => Promise<void>;
  onCancel: () => void;
  /** The name the field starts with (a rename); default empty. */
  initial?: string;
}

/** A dialog's form that names something (a new workspace or key, a rename): one field, Cancel, submit. */
export function NameForm(props: NameFormProps) {
  const [name, setName] = useState(props.initial ?? "");
  const form = useCheckedForm<"name">();
  const { busy, error, submit } = useSubmit((err) => {
    if (!(err instanceof ApiError && (err.status === 400 || err.status === 409))) {
      return messageOf(err);
    }
    form.showOnField("name", err.message);
    return null;
  });
  const send = form.checked(
    () => ({ name: problemOf(name, { required: props.emptyMessage, maxLength: props.maxLength }) }),
    submit(() => props.onSubmit(name.trim())),
  );
  return (
    <form class="stack" noValidate ref={form.formRef} onSubmit={send}>
      <Field label={props.label} hint={props.hint} error={form.errors.name}>
        {(p) => (
          <input
            {...p}
            required
            maxLength={props.maxLength}
            autofocus
            autocomplete={props.autocomplete}
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
              form.clear("name");
            }}
          />
        )}
      </Field>
      {error && <ErrorMessage message={error} />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy}>
          {busy ? props.busyLabel : props.submitLabel}
        </button>
      </div>
    </form>
  );
}
