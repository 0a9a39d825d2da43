import { useEffect, useRef, useState } from "preact/hooks";

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

/** Sets the document title for the current screen. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Pressroom`;
  }, [title]);
}
