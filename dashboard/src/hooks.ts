import { useEffect, useRef, useState } from "preact/hooks";
import { messageOf } from "./api.js";

/**
 * Calls `tick` every `ms` while the page is visible, and at once when it becomes visible again.
 * Returns the time of the latest tick, to re-render relative times.
 */
export function useVisibleInterval(tick: () => void, ms: number): number {
  const [now, setNow] = useState(Date.now);
  const tickRef = useRef(tick);
  tickRef.current = tick;
  useEffect(() => {
    const run = () => {
      setNow(Date.now());
      tickRef.current();
    };
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      clearInterval(timer);
      timer = document.visibilityState === "visible" ? setInterval(run, ms) : undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") run();
      start();
    };
    start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [ms]);
  return now;
}

/**
 * A ref whose element takes the keyboard focus as it appears (when `enabled`): what replaced
 * the control that had it (a form gone after its answer, a refused submit's message), so the
 * focus never falls back to the page's `<body>`. The element needs `tabIndex={-1}` unless it
 * is focusable already.
 */
export function useFocusOnMount<T extends HTMLElement>(enabled = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (enabled) ref.current?.focus();
  }, []);
  return ref;
}

/** Sets the document title for the current screen. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Pressroom`;
  }, [title]);
}

export interface Submit {
  /** A task is running: its form shows "…ing" and refuses another submit meanwhile. */
  busy: boolean;
  /** The failed task's message, for an `ErrorMessage`; null while running and after a success. */
  error: string | null;
  /**
   * An `onSubmit` (or `onClick`) handler that runs `task`: the event's default is prevented, the
   * error cleared and `busy` set until the task settles. Nothing else is reset: what was typed
   * stays in the form after a failure, to be corrected and sent again.
   */
  submit: (task: (event: Event | undefined) => Promise<void>) => (event?: Event) => void;
}

/**
 * The busy/error/submit state every dashboard form shares. `describe` turns a failure into the
 * message to show (default: the server's own, `messageOf`); it may handle the failure itself
 * (go elsewhere, start a countdown) and return null to show none.
 */
export function useSubmit(describe: (err: unknown) => string | null = messageOf): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const submit: Submit["submit"] = (task) => (event) => {
    event?.preventDefault();
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    const settle = (message: string | null) => {
      running.current = false;
      if (!mounted.current) return; // a success that left the screen (signed in, dialog closed)
      setError(message);
      setBusy(false);
    };
    task(event).then(
      () => settle(null),
      (err: unknown) => settle(describe(err)),
    );
  };
  return { busy, error, submit };
}
