import type { ComponentChildren } from "preact";
import { useSubmit } from "../hooks.js";
import { Modal } from "./modal.js";
import { ErrorMessage } from "./status.js";

interface ConfirmProps {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  /** The label of the button that closes the dialog without acting; default "Cancel". */
  cancelLabel?: string;
  /** Runs the action; the dialog stays open, with the error, if it throws. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** "Are you sure?" for destructive actions; Cancel has the focus, so Enter is harmless. */
export function ConfirmDialog(props: ConfirmProps) {
  const { title, children, confirmLabel, cancelLabel = "Cancel", onConfirm, onClose } = props;
  const { busy, error, submit } = useSubmit();
  const confirm = submit(onConfirm);
  return (
    <Modal title={title} onClose={onClose} description={children}>
      {error && <ErrorMessage message={error} />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={onClose} autofocus>
          {cancelLabel}
        </button>
        <button type="button" class="button danger" onClick={confirm} aria-disabled={busy}>
          {busy ? "Working…" : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
