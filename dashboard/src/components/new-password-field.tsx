import { Field } from "./field.js";

interface NewPasswordFieldProps {
  label: string;
  /** The spec's bounds of this password (admin-limits.ts). */
  bounds: { minLength?: number; maxLength?: number };
  /** Said after "At least N characters." */
  hint: string;
  value: string;
  onInput: (value: string) => void;
}

/** A password being chosen (setup, joining, changing one's own), with the spec's length rules. */
export function NewPasswordField({ label, bounds, hint, value, onInput }: NewPasswordFieldProps) {
  return (
    <Field label={label} hint={`At least ${bounds.minLength} characters. ${hint}`}>
      {(p) => (
        <input
          {...p}
          type="password"
          required
          minLength={bounds.minLength}
          maxLength={bounds.maxLength}
          autocomplete="new-password"
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
