import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

interface MoreFocus {
  /** On the list of blogs shown (its rows' `.blog-title` links). */
  listRef: RefObject<HTMLUListElement | null>;
  /** On "Load more". */
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** Called as "Load more" asks for the page after the `shown` rows. */
  willLoad: (shown: number) => void;
  /** What the last page added, for a polite status ("20 more blogs: 40 shown."). */
  said: string;
}

/**
 * Where the keyboard focus goes after "Load more", never to `<body>`: it stays on the button
 * while the button remains (it is `aria-disabled` while the page loads, not `disabled`, which
 * would drop the focus), so Enter loads the next page again; once the last page is in and the
 * button is gone, it goes to the first row that page added. A status says how many came. The
 * focus moves only if it was on the button when the page was asked for and is still there (or
 * fell to `<body>`) when it arrives.
 */
export function useMoreFocus(blogs: readonly unknown[] | null, loading: boolean): MoreFocus {
  const listRef = useRef<HTMLUListElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  /** The number of rows before the page asked for by a focused "Load more"; null if none. */
  const from = useRef<number | null>(null);
  /** Rows before the page asked for, whatever had the focus: the status counts from it. */
  const counted = useRef<number | null>(null);
  /**
   * Set once an effect has seen the asked page loading. An effect of a render from before the
   * ask (the first page's, still waiting for the paint when "Load more" was pressed) runs with
   * `loading` false too, and must not take the page on its way for the one it saw.
   */
  const asked = useRef(false);
  const [said, setSaid] = useState("");

  useEffect(() => {
    if (counted.current === null) return;
    if (loading) {
      asked.current = true;
      return;
    }
    if (!asked.current) return;
    asked.current = false;
    const before = from.current;
    const start = counted.current;
    from.current = null;
    counted.current = null;
    const shown = blogs?.length ?? 0;
    if (start !== null && shown > start) {
      const added = shown - start;
      setSaid(`${added} more ${added === 1 ? "blog" : "blogs"}: ${shown} shown.`);
    }
    if (before === null || shown <= before) return;
    const active = document.activeElement;
    const button = buttonRef.current;
    if (button?.isConnected && active === button) return; // it stays for the next page
    if (active !== null && active !== document.body && active !== button) return;
    listRef.current?.querySelectorAll<HTMLElement>(".blog-title")[before]?.focus();
  }, [blogs, loading]);

  return {
    listRef,
    buttonRef,
    willLoad: (shown) => {
      counted.current = shown;
      asked.current = false;
      from.current = document.activeElement === buttonRef.current ? shown : null;
      setSaid("");
    },
    said,
  };
}
