import { useEffect } from "preact/hooks";
import { api, call } from "../api.js";

/** The first background check after the server stopped answering, in ms; each next one waits twice as long. */
export const RECHECK_FIRST_MS = 3000;
/** The longest wait between two background checks, in ms. */
export const RECHECK_MAX_MS = 30_000;

/**
 * While `active` (the browser is online but the server did not answer), asks `GET /session`
 * (admin.yaml, getSession: 200 signed in or not, nothing changed) after 3 s, then 6, 12, 24 and
 * every 30 s, and at once when the tab comes back into view; none while the tab is hidden. Its
 * answer, like any answer to a request sent after the failure, marks the server reachable again
 * (api.ts), which ends `active` and with it the checks.
 */
export function useReconnect(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let wait = RECHECK_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), wait);
    };
    const check = async () => {
      if (document.visibilityState !== "visible") return; // checked again once it is seen
      try {
        await call(api.GET("/session"));
      } catch {
        // Still not reached (or an error answered, which api.ts counts as reached already).
      }
      if (stopped) return;
      wait = Math.min(wait * 2, RECHECK_MAX_MS);
      schedule();
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") void check();
    };
    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [active]);
}
