import type { ComponentChildren } from "preact";
import { useId, useLayoutEffect, useRef } from "preact/hooks";
import "./modal.css";

interface ModalProps {
  title: string;
  /** Called when the dialog closes: Escape, a close button, or the parent unmounting it. */
  onClose: () => void;
  children: ComponentChildren;
  /** Shown under the title, and announced with it. */
  description?: ComponentChildren;
  /**
   * False for a dialog whose content would be lost by closing it (a secret shown once): Escape
   * then does nothing, and only the dialog's own buttons close it. Default true.
   */
  dismissible?: boolean;
  /** Up to 60rem wide instead of 32rem: for a dialog that compares things side by side. */
  wide?: boolean;
}

/**
 * A modal `<dialog>`, open while mounted: focus moves into it (to the `autofocus` element or
 * the first control), Tab stays inside, Escape closes it (unless not `dismissible`), a click on
 * the backdrop never does, and focus returns to where it was.
 *
 * It opens in a layout effect, in the same task as the render that mounts it, so a key typed at
 * once after the click that opened it lands in the dialog's field, not on the button behind it.
 */
export function Modal(props: ModalProps) {
  const { title, onClose, children, description, dismissible = true, wide = false } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const closeRef = useRef<(() => void) | null>(onClose);
  closeRef.current = onClose;

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    return () => {
      closeRef.current = null; // unmounted by the parent: it knows already
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      class={wide ? "modal modal-wide" : "modal"}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Not dismissible: Escape's default and the cancel it raises are refused, and should the
      // browser close it anyway (Chromium lets a second Escape without a click through), it
      // opens again: only the parent's own buttons, unmounting it, end it.
      onKeyDown={(event) => {
        if (!dismissible && event.key === "Escape") event.preventDefault();
      }}
      onCancel={(event) => {
        if (!dismissible) event.preventDefault();
      }}
      onClose={() => {
        const dialog = ref.current;
        if (dismissible || closeRef.current === null || !dialog?.isConnected) {
          closeRef.current?.();
        } else {
          dialog.showModal();
        }
      }}
    >
      <h2 id={titleId} class="modal-title">
        {title}
      </h2>
      {description && (
        <div id={descriptionId} class="modal-description">
          {description}
        </div>
      )}
      {children}
    </dialog>
  );
}
