import { useEffect, useRef } from "preact/hooks";

/** Ctrl+S, or ⌘+S on a Mac: "save" in every editor people know. */
export const isSaveShortcut = (event: KeyboardEvent): boolean =>
  (event.ctrlKey || event.metaKey) &&
  !event.altKey &&
  !event.shiftKey &&
  event.key.toLowerCase() === "s";

/**
 * Runs `save` on Ctrl/⌘+S from anywhere on the page while mounted, instead of the browser's
 * "Save page as". While a modal dialog is open the shortcut does nothing (the dialog's question
 * comes first), but the browser's own save is still kept away.
 */
export function useSaveShortcut(save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSaveShortcut(event)) return;
      event.preventDefault();
      if (event.repeat || document.querySelector("dialog[open]")) return;
      latest.current();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
