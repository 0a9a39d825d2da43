import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { Field } from "./field.js";
import "./chrome.css";

interface PasswordFieldProps {
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  /** "current-password" or "new-password": unchanged while the password is shown. */
  autocomplete: "current-password" | "new-password";
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  autofocus?: boolean;
  value: string;
  onInput: (value: string) => void;
}

/**
 * A password input with a "Show password" / "Hide password" button that switches it between
 * type=password and type=text. A pointer press on the button does not take focus from the
 * input, and the caret (or selection) stays where it was, so typing goes on where it stopped.
 */
export function PasswordField(props: PasswordFieldProps) {
  const [shown, setShown] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const toggle = () => {
    const el = input.current;
    const start = el?.selectionStart ?? null;
    const end = el?.selectionEnd ?? null;
    const hadFocus = el !== null && document.activeElement === el;
    // Set on the element, not rendered: at once (so the selection can be restored after), and
    // Preact leaves it be, the rendered `type` never changing.
    if (el) el.type = shown ? "password" : "text";
    setShown(!shown);
    if (el && hadFocus && start !== null && end !== null) el.setSelectionRange(start, end);
  };
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(p) => (
        <div class="password-input">
          <input
            {...p}
            ref={input}
            type="password"
            required={props.required}
            minLength={props.minLength}
            maxLength={props.maxLength}
            autofocus={props.autofocus}
            autocomplete={props.autocomplete}
            autocapitalize="off"
            spellcheck={false}
            value={props.value}
            onInput={(e) => props.onInput(e.currentTarget.value)}
          />
          <button
            type="button"
            class="button small password-toggle"
            aria-controls={p.id}
            onMouseDown={(e) => e.preventDefault()}
            onClick={toggle}
          >
            {shown ? "Hide" : "Show"}
            <span class="visually-hidden"> password</span>
          </button>
        </div>
      )}
    </Field>
  );
}
