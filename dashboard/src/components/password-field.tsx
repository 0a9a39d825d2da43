import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
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
  /** The caret or selection to put back after the switch, when the input had the focus. */
  const selection = useRef<[number, number] | null>(null);
  /** Where the caret was as the pointer went down on the button (a click moves it after). */
  const pressedAt = useRef<[number, number] | null>(null);
  const caretOf = (el: HTMLInputElement): [number, number] | null =>
    document.activeElement === el && el.selectionStart !== null && el.selectionEnd !== null
      ? [el.selectionStart, el.selectionEnd]
      : null;
  const toggle = () => {
    const el = input.current;
    if (!el) return;
    selection.current = pressedAt.current ?? caretOf(el);
    pressedAt.current = null;
    setShown(!shown);
  };
  // A shown password is masked again as its form is submitted (capture: before the form's own
  // handler), so the browser sees a password field — it offers to save it and keeps it out of
  // the autofill history of text fields — and when the field goes away. Set on the element too,
  // as the re-render comes after the submit event.
  useEffect(() => {
    const el = input.current;
    const form = el?.form;
    if (!el || !form) return;
    const mask = () => {
      el.type = "password";
      setShown(false);
    };
    form.addEventListener("submit", mask, true);
    return () => {
      form.removeEventListener("submit", mask, true);
      el.type = "password";
    };
  }, []);
  // Chromium moves the caret to the start when the type changes and the input is laid out
  // again: put it back once rendered, and again after the next layout.
  useLayoutEffect(() => {
    const el = input.current;
    const at = selection.current;
    selection.current = null;
    if (!el || !at) return;
    el.setSelectionRange(at[0], at[1]);
    const frame = requestAnimationFrame(() => {
      if (document.activeElement === el) el.setSelectionRange(at[0], at[1]);
    });
    return () => cancelAnimationFrame(frame);
  }, [shown]);
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(p) => (
        <div class="password-input">
          <input
            {...p}
            ref={input}
            // Preact types an input's `type` per role, so a union is spread, not one `type`.
            {...(shown ? { type: "text" as const } : { type: "password" as const })}
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
            onMouseDown={(e) => {
              // Keeps the focus in the input, typing going on where it stopped.
              e.preventDefault();
              pressedAt.current = input.current ? caretOf(input.current) : null;
            }}
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
