import { useState } from "preact/hooks";
import { useSubmit } from "../hooks.js";
import { Field } from "./field.js";
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
  /** Sends the trimmed name; if it throws, its message shows and the name stays as typed. */
  onSubmit: (name: string) => Promise<void>;
  onCancel: () => void;
}

/** A dialog's form that names something new (a workspace, a key): one field, Cancel, submit. */
export function NameForm(props: NameFormProps) {
  const [name, setName] = useState("");
  const { busy, error, submit } = useSubmit();
  return (
    <form class="stack" onSubmit={submit(() => props.onSubmit(name.trim()))}>
      <Field label={props.label} hint={props.hint}>
        {(p) => (
          <input
            {...p}
            required
            maxLength={props.maxLength}
            autofocus
            autocomplete={props.autocomplete}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
      </Field>
      {error && <ErrorMessage message={error} />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy || name.trim() === ""}>
          {busy ? props.busyLabel : props.submitLabel}
        </button>
      </div>
    </form>
  );
}
