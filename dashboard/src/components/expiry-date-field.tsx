import { Field } from "./field.js";

interface ExpiryDateFieldProps {
  /** What stops working: "key", "token". */
  what: string;
  /** The first and last days that may be chosen (`YYYY-MM-DD`). */
  range: { first: string; last: string };
  value: string;
  error: string | null | undefined;
  onInput: (day: string) => void;
}

/** An expiry chosen as a day (a key's, an access token's): it ends at the end of that day. */
export function ExpiryDateField({ what, range, value, error, onInput }: ExpiryDateFieldProps) {
  return (
    <Field
      label="Expiry date"
      hint={`The ${what} stops working at the end of that day.`}
      error={error}
    >
      {(p) => (
        <input
          {...p}
          type="date"
          required
          min={range.first}
          max={range.last}
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
