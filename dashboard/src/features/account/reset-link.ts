import { useEffect, useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";

/**
 * Password reset links: `/dashboard/#/reset/{token}` (admin.yaml, requestPasswordReset). As in
 * an invitation link (join-link.ts), the token lives in the URL's fragment, which browsers never
 * send to a server; the reset page sends it in a request body. It is taken out of the address
 * bar and the history entry as soon as it is read, so it is not left behind in the history of a
 * shared machine: a reload shows the sign-in screen, and the mail's link opens the page again.
 */
const RESET = /^#\/reset\/(.*)$/;
const TOKEN = new RegExp(adminLimits.completePasswordReset.token.pattern);

/**
 * What follows `#/reset/` in the address this page was opened with, or null when it is not a
 * reset link. It may be cut or mangled (a mail client that wrapped it): `wellFormedResetToken`
 * tells, and such a link is met as one that cannot be used, without asking the server.
 */
export function resetTokenOf(hash: string): string | null {
  return RESET.exec(hash)?.[1] ?? null;
}

/** True for a token of the shape the server makes (admin.yaml, PasswordReset). */
export const wellFormedResetToken = (token: string): boolean => TOKEN.test(token);

/** Forgets the link: the address bar keeps the path, without the fragment. */
export function forgetResetLink(): void {
  history.replaceState(history.state, "", location.pathname + location.search);
}

/**
 * The token of the one-time link this page was opened with, as `tokenOf` reads it from the
 * fragment, or of one opened in it later (a link pasted into the address bar of an open
 * dashboard changes only the fragment: no new page), read once and forgotten at once; `done`
 * ends the link's page. Reset links and email-change confirmations (confirm-email-link.ts).
 */
export function useFragmentLink(tokenOf: (hash: string) => string | null): {
  token: string | null;
  done: () => void;
} {
  const [token, setToken] = useState(() => tokenOf(location.hash));
  useEffect(() => {
    const read = () => {
      const found = tokenOf(location.hash);
      if (found === null) return;
      forgetResetLink();
      setToken(found);
    };
    read();
    addEventListener("hashchange", read);
    return () => removeEventListener("hashchange", read);
  }, [tokenOf]);
  return { token, done: () => setToken(null) };
}

/** The reset link's token (`useFragmentLink`); `done` ends the reset page. */
export const useResetLink = () => useFragmentLink(resetTokenOf);
