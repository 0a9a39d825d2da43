import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  /** Set while the field's error is shown. */
  "aria-invalid"?: true;
}

interface FieldProps {
  label: string;
  hint?: ComponentChildren;
  /** The field's own problem, shown under it and announced with it; null or absent: none. */
  error?: string | null;
  /** Renders the control with the id its label points at (and its error's and hint's ids). */
  children: (control: ControlProps) => ComponentChildren;
  class?: string;
}

/**
 * A labelled form control with an optional hint and an inline error, wired for screen readers:
 * the error marks the control `aria-invalid` and comes first in its description. Forms using it
 * set `noValidate` and check on submit (`focusFirstInvalid`), so no browser bubble stands in.
 */
export function Field({ label, hint, error, children, class: className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [error ? errorId : null, hint ? hintId : null].filter((x) => x !== null);
  const control: ControlProps = { id };
  if (described.length > 0) control["aria-describedby"] = described.join(" ");
  if (error) control["aria-invalid"] = true;
  return (
    <div class={className ? `field ${className}` : "field"}>
      <label for={id}>{label}</label>
      {children(control)}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
      {hint && (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
