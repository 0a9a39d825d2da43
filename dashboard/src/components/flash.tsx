import { createContext } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";

/**
 * Shows a notice on the screen the app goes to next ("Blog removed."), kept there until the
 * screen after it: for an action that ends by leaving the screen it was taken on.
 */
export type Flash = (message: string) => void;

const FlashContext = createContext<Flash>(() => {});
export const FlashProvider = FlashContext.Provider;

/** The shell's `Flash`, for a screen to announce what it did on the next one. */
export const useFlash = (): Flash => useContext(FlashContext);

interface Shown {
  message: string;
  /** The screen it is shown on; null until the navigation that follows it. */
  on: string | null;
}

/** The state behind a `FlashProvider`: its `flash`, the message to show now, and `dismiss`. */
export function useFlashState(screen: string) {
  const [shown, setShown] = useState<Shown | null>(null);
  useEffect(() => {
    setShown((s) => (s === null ? null : s.on === null ? { ...s, on: screen } : null));
  }, [screen]);
  return {
    flash: (message: string) => setShown({ message, on: null }),
    message: shown?.message ?? null,
    dismiss: () => setShown(null),
  };
}

/** The flash notice, at the top of the screen; its live region is always there. */
export function FlashNotice({
  message,
  onDismiss,
}: {
  message: string | null;
  onDismiss: () => void;
}) {
  return (
    <div role="status" class="flash">
      {message && (
        <p class="notice success">
          <span>{message}</span>
          <button type="button" class="button small" onClick={onDismiss}>
            Dismiss
          </button>
        </p>
      )}
    </div>
  );
}
