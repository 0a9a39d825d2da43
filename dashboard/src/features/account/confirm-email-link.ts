import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { useFragmentLink } from "./reset-link.js";

/**
 * Email-change confirmation links: `/dashboard/#/confirm-email/{token}` (admin.yaml,
 * changeEmail), mailed to the new address. As a reset link's (reset-link.ts), the token lives in
 * the URL's fragment, which browsers never send to a server; the page sends it in a request body,
 * and it is taken out of the address bar and the history entry as soon as it is read.
 */
const CONFIRM = /^#\/confirm-email\/(.*)$/;
const TOKEN = new RegExp(adminLimits.confirmEmailChange.token.pattern);

/** What follows `#/confirm-email/` in `hash`, or null when it is not a confirmation link. */
export function confirmTokenOf(hash: string): string | null {
  return CONFIRM.exec(hash)?.[1] ?? null;
}

/** True for a token of the shape the server makes (admin.yaml, EmailChangeConfirm). */
export const wellFormedConfirmToken = (token: string): boolean => TOKEN.test(token);

/** The confirmation link's token (reset-link.ts `useFragmentLink`); `done` ends its page. */
export const useConfirmEmailLink = () => useFragmentLink(confirmTokenOf);
