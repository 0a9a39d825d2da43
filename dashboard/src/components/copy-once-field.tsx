import { useEffect, useRef, useState } from "preact/hooks";

/** How long "Copied" stays on the button before it reads "Copy" again. */
export const COPIED_MS = 2000;

interface CopyOnceFieldProps {
  id: string;
  label: string;
  /** The secret shown once (a raw key, an invitation link), or a line that holds it. */
  value: string;
  /** What it is, in the hint when the clipboard is refused ("key", "link"). */
  what: string;
  /**
   * Whether its Copy button takes the focus when it appears (default true). Only one field of a
   * dialog should; the others pass false.
   */
  focus?: boolean;
  /** Told after the value reached the clipboard. */
  onCopied?: () => void;
}

/**
 * A value the server shows once: read-only, selected on focus, with a Copy button. "Copied" turns
 * back into "Copy" after two seconds, so a second copy (of this or another line) reads true. When
 * the clipboard is refused, the value is selected for Ctrl+C.
 *
 * The Copy button carries `autofocus`, so a modal `<dialog>` opening with it focuses it in the
 * same task (a key pressed at once lands there). Outside a dialog the attribute does nothing after
 * the page has loaded; then an effect focuses the button, but only if nothing else has the focus:
 * it never takes it from where someone has already moved it.
 */
export function CopyOnceField({
  id,
  label,
  value,
  what,
  focus = true,
  onCopied,
}: CopyOnceFieldProps) {
  const [copy, setCopy] = useState<"" | "copied" | "failed">("");
  const input = useRef<HTMLInputElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (focus && (active === null || active === document.body)) copyButton.current?.focus();
  }, [focus]);
  useEffect(() => {
    if (copy !== "copied") return;
    const timer = setTimeout(() => setCopy(""), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copy]);

  const copyValue = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopy("copied");
      onCopied?.();
    } catch {
      input.current?.focus();
      input.current?.select();
      setCopy("failed");
    }
  };

  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input
          id={id}
          ref={input}
          class="mono"
          readOnly
          value={value}
          spellcheck={false}
          autocomplete="off"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          class="button primary"
          ref={copyButton}
          autofocus={focus}
          onClick={copyValue}
        >
          {copy === "copied" ? "Copied" : "Copy"}
          <span class="visually-hidden"> {label}</span>
        </button>
      </div>
      <p class="hint" role="status">
        {copy === "copied" && "Copied to the clipboard."}
        {copy === "failed" &&
          `Could not copy: the ${what} is selected, press Ctrl+C (⌘C) to copy it.`}
      </p>
    </div>
  );
}
