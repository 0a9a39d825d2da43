import { PasswordField } from "./password-field.js";

interface NewPasswordFieldProps {
  label: string;
  /** The spec's bounds of this password (admin-limits.ts). */
  bounds: { minLength?: number; maxLength?: number };
  /** Said after "At least N characters." */
  hint: string;
  error?: string | null;
  value: string;
  onInput: (value: string) => void;
}

/** A password being chosen (setup, joining, changing one's own), with the spec's length rules. */
export function NewPasswordField({ label, bounds, hint, ...rest }: NewPasswordFieldProps) {
  return (
    <PasswordField
      label={label}
      hint={`At least ${bounds.minLength} characters. ${hint}`}
      required
      minLength={bounds.minLength}
      maxLength={bounds.maxLength}
      autocomplete="new-password"
      {...rest}
    />
  );
}
