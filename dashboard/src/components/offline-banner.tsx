import { useEffect, useRef, useState } from "preact/hooks";
import { forgetNetworkFailure, onReachabilityChange, serverReachable } from "../api.js";

/**
 * Offline: the browser says so (`navigator.onLine`, its online/offline events), or the latest
 * request could not reach the server (api.ts), until the browser is back online or a request
 * gets an answer again.
 */
export function useOffline(): boolean {
  const [browserOnline, setBrowserOnline] = useState(() => navigator.onLine);
  const [reachable, setReachable] = useState(serverReachable);
  useEffect(() => {
    const online = () => {
      setBrowserOnline(true);
      forgetNetworkFailure(); // tells the listener below
    };
    const offline = () => setBrowserOnline(false);
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    const unsubscribe = onReachabilityChange(setReachable);
    return () => {
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      unsubscribe();
    };
  }, []);
  return !browserOnline || !reachable;
}

/**
 * The app-wide connection notice, on every screen, signed in or not. The live region is always
 * there (empty while online) so screen readers announce the notice when it appears.
 */
export function OfflineBanner() {
  const offline = useOffline();
  const region = useRef<HTMLDivElement>(null);
  // Other sticky things (the editor's action bar) stick below the banner, not under it: publish
  // its height as `--offline-h` on the root (0 while online), kept true as the text wraps.
  useEffect(() => {
    const el = region.current;
    if (!el) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty("--offline-h", `${el.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--offline-h");
    };
  }, []);
  return (
    <div class="offline-region" role="status" ref={region}>
      {offline && (
        <p class="offline-banner">
          <strong>You are offline.</strong> What is on screen stays readable. Changes you make will
          not be saved until the connection is back.
        </p>
      )}
    </div>
  );
}
