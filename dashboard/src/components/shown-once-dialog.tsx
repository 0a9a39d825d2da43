import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { Modal } from "./modal.js";
import { CLOSE_ARMS_AFTER_MS } from "./shown-once-guard.js";
import "./shown-once.css";

interface ShownOnceDialogProps {
  title: string;
  /** The warning under the title ("This key will not be shown again…"). */
  description: ComponentChildren;
  /** The value shown once: a Ctrl+C of a selection that holds it counts as a copy. */
  secret: string;
  /** What it is, in the question: "You have not copied the key." */
  what: string;
  /** What closing now costs, after that sentence; default: nobody can see it again. */
  loss?: string;
  onClose: () => void;
  /** The fields; each `CopyOnceField` passes `copied` on as its `onCopied`. */
  children: (copied: () => void) => ComponentChildren;
}

/**
 * A secret the server shows once (a raw API key, an invitation link, a webhook signing secret),
 * in a dialog that is hard to lose: Escape and backdrop clicks do nothing, and "Done" asks first
 * unless a Copy (or a Ctrl+C of the secret in the dialog) succeeded. The question puts the focus
 * on "Go back and copy", and its "Close without copying" ignores activation for its first
 * `CLOSE_ARMS_AFTER_MS` (disabled): a double tap on "Done" never closes the dialog.
 */
export function ShownOnceDialog(props: ShownOnceDialogProps) {
  const { title, description, secret, what, onClose, children } = props;
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  const [armed, setArmed] = useState(false);
  const stay = useRef<HTMLButtonElement>(null);
  const fields = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (asking) stay.current?.focus();
  }, [asking]);
  useEffect(() => {
    setArmed(false);
    if (!asking) return;
    const timer = setTimeout(() => setArmed(true), CLOSE_ARMS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [asking]);
  const markCopied = () => {
    setCopied(true);
    setAsking(false);
  };
  // A copy made with Ctrl+C counts when what it copied holds the secret (not a label or a hint).
  const onCopy = (event: ClipboardEvent) => {
    const target = event.target;
    const selected =
      target instanceof HTMLInputElement
        ? target.value.slice(target.selectionStart ?? 0, target.selectionEnd ?? 0)
        : (document.getSelection()?.toString() ?? "");
    if (selected.includes(secret)) markCopied();
  };
  const done = () => (copied ? onClose() : setAsking(true));
  const goBack = () => {
    fields.current?.querySelector("button")?.focus(); // the secret's own Copy
    setAsking(false);
  };

  return (
    <Modal title={title} onClose={onClose} dismissible={false} description={description}>
      {/* A copy made with Ctrl+C (after a refused clipboard selected the text) counts too. */}
      <div class="stack shown-once" ref={fields} onCopy={onCopy}>
        {children(markCopied)}
      </div>
      {asking ? (
        <div
          class="notice warning confirm-close"
          role="alert"
          // A tap on the still disabled button keeps the focus where it is, on "Go back and copy".
          onPointerDown={(event) => {
            if (!armed) event.preventDefault();
          }}
          onMouseDown={(event) => {
            if (!armed) event.preventDefault();
          }}
        >
          <p>
            <strong>You have not copied the {what}.</strong>{" "}
            {props.loss ?? "Once this dialog closes nobody can see it again, you included."}
          </p>
          <div class="modal-actions">
            <button type="button" class="button danger-outline" disabled={!armed} onClick={onClose}>
              Close without copying
            </button>
            <button type="button" class="button primary" ref={stay} onClick={goBack}>
              Go back and copy
            </button>
          </div>
        </div>
      ) : (
        <div class="modal-actions">
          <button type="button" class="button" onClick={done}>
            Done
          </button>
        </div>
      )}
    </Modal>
  );
}
