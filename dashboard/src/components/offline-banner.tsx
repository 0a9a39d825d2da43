import { useEffect, useRef, useState } from "preact/hooks";
import { forgetNetworkFailure, onReachabilityChange, serverReachable } from "../api.js";
import { useReconnect } from "./reconnect.js";

/**
 * The connection as this page knows it: `offline` while the browser says so (`navigator.onLine`,
 * its online/offline events); `unreachable` while it is online but the latest request could not
 * reach the server (api.ts), until a request sent after that failure gets an answer (the
 * background checks of `useReconnect` send one); `online` otherwise.
 */
export type Connection = "online" | "offline" | "unreachable";

export function useConnection(): Connection {
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
  const connection = !browserOnline ? "offline" : reachable ? "online" : "unreachable";
  useReconnect(connection === "unreachable");
  return connection;
}

/**
 * The app-wide connection notice, on every screen, signed in or not: "You are offline" when the
 * browser says so, "Can't reach Pressroom" when only the server does not answer (it goes by
 * itself once a background check is answered). The live region is always there (empty while
 * online) so screen readers announce the notice when it appears.
 */
export function OfflineBanner() {
  const connection = useConnection();
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
      {connection !== "online" && (
        <p class="offline-banner">
          {connection === "offline" ? (
            <strong>You are offline.</strong>
          ) : (
            <>
              <strong>Can't reach Pressroom.</strong> The server is not answering; this page checks
              again by itself.
            </>
          )}{" "}
          What is on screen stays readable. Changes you make will not be saved until the connection
          is back.
        </p>
      )}
    </div>
  );
}
