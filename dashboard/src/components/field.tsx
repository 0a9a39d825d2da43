import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
}

interface FieldProps {
  label: string;
  hint?: ComponentChildren;
  /** Renders the control with the id its label points at (and its hint's id). */
  children: (control: ControlProps) => ComponentChildren;
  class?: string;
}

/** A labelled form control with an optional hint, wired for screen readers. */
export function Field({ label, hint, children, class: className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div class={className ? `field ${className}` : "field"}>
      <label for={id}>{label}</label>
      {children(hint ? { id, "aria-describedby": hintId } : { id })}
      {hint && (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
