import { useEffect, useRef, useState } from "preact/hooks";

interface CopyOnceFieldProps {
  id: string;
  label: string;
  /** The secret shown once (a raw key, an invitation link). */
  value: string;
  /** What it is, in the hint when the clipboard is refused ("key", "link"). */
  what: string;
}

/**
 * A value the server shows once: read-only, selected on focus, with a Copy button that has the
 * focus when the dialog opens. When the clipboard is refused, the value is selected for Ctrl+C.
 */
export function CopyOnceField({ id, label, value, what }: CopyOnceFieldProps) {
  const [copy, setCopy] = useState<"" | "copied" | "failed">("");
  const input = useRef<HTMLInputElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => copyButton.current?.focus(), []);

  const copyValue = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopy("copied");
    } catch {
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
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" class="button primary" ref={copyButton} onClick={copyValue}>
          {copy === "copied" ? "Copied" : "Copy"}
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
