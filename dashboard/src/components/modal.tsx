import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

interface ModalProps {
  title: string;
  /** Called when the dialog closes: Escape, a close button, or the parent unmounting it. */
  onClose: () => void;
  children: ComponentChildren;
  /** Shown under the title, and announced with it. */
  description?: ComponentChildren;
}

/**
 * A modal `<dialog>`, open while mounted: focus moves into it (to the `autofocus` element or
 * the first control), Tab stays inside, Escape closes it, and focus returns to where it was.
 */
export function Modal({ title, onClose, children, description }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const closeRef = useRef<(() => void) | null>(onClose);
  closeRef.current = onClose;

  useEffect(() => {
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
      class="modal"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={() => closeRef.current?.()}
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
