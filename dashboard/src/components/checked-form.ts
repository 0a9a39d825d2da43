import { useRef, useState } from "preact/hooks";
import { type FieldErrors, focusFirstInvalid, isValid } from "./form-check.js";

export interface CheckedForm<K extends string> {
  /** The problems shown now, by field. */
  errors: FieldErrors<K>;
  /** For the form element: where the first invalid field is looked for. */
  formRef: { current: HTMLFormElement | null };
  /** Drops one field's problem (it is being corrected). */
  clear: (field: K) => void;
  /**
   * An `onSubmit` that checks first: with problems, shows them on their fields, moves focus to
   * the first and sends nothing; without, calls `send` (a `useSubmit` handler).
   */
  checked: (check: () => FieldErrors<K>, send: (event?: Event) => void) => (event: Event) => void;
  /** Shows the server's problem on the field it is about, and focuses it. */
  showOnField: (field: K, message: string) => void;
}

/** Inline field errors for a form checked on submit (see components/field.tsx). */
export function useCheckedForm<K extends string>(): CheckedForm<K> {
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const formRef = useRef<HTMLFormElement | null>(null);
  return {
    errors,
    formRef,
    clear: (field) =>
      setErrors((now) => (now[field] === undefined ? now : { ...now, [field]: undefined })),
    checked: (check, send) => (event) => {
      event.preventDefault();
      const found = check();
      setErrors(found);
      if (isValid(found)) send(event);
      else focusFirstInvalid(formRef.current);
    },
    showOnField: (field, message) => {
      setErrors({ [field]: message } as FieldErrors<K>);
      focusFirstInvalid(formRef.current);
    },
  };
}

/**
 * The field a server's 400 or 409 is about, when its message names one: the validator's
 * `request/body/<field> …`, or one of `mentions` (a field's own words) found in the message.
 */
export function fieldOfMessage<K extends string>(
  message: string,
  mentions: Partial<Record<K, RegExp>>,
): K | null {
  const named = /request\/body\/(\w+)/.exec(message)?.[1];
  if (named !== undefined && named in mentions) return named as K;
  for (const [field, pattern] of Object.entries(mentions) as [K, RegExp | undefined][]) {
    if (pattern?.test(message)) return field;
  }
  return null;
}
