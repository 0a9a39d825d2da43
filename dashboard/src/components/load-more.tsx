import type { RefObject } from "preact";

interface LoadMoreProps {
  /** A page is on its way: the button says so and does nothing. */
  loading: boolean;
  onLoad: () => void;
  /** As wide as the list (a list's end), or a button among others (a dialog's row). */
  block?: boolean;
  buttonRef?: RefObject<HTMLButtonElement | null>;
}

/**
 * A list's "Load more" (the next page of a cursor). `aria-disabled`, not `disabled`, while it
 * loads: a disabled button drops the keyboard focus to <body>, and the reader loses their place.
 */
export function LoadMoreButton({ loading, onLoad, block = true, buttonRef }: LoadMoreProps) {
  return (
    <button
      type="button"
      class={block ? "button block" : "button"}
      ref={buttonRef}
      onClick={() => !loading && onLoad()}
      aria-disabled={loading}
    >
      {loading ? "Loading…" : "Load more"}
    </button>
  );
}
