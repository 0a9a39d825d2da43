import { isIP } from "node:net";

export interface UrlPolicy {
  /** WEBHOOK_ALLOW_HTTP_LOOPBACK: plain http to a loopback address (development only). */
  readonly allowHttpLoopback: boolean;
}

/**
 * Why `raw` cannot be a webhook endpoint's URL, checked when it is saved; null when it can.
 * Names are resolved again before every delivery (webhooks/safe-send.ts): this check alone
 * cannot stop a name that later points at a private address.
 *
 * FIRST VERSION: syntax, scheme and userinfo only; webhooks/ SSRF work extends it.
 */
export function endpointUrlProblem(raw: string, policy: UrlPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The webhook URL is not a valid absolute URL.";
  }
  if (url.username !== "" || url.password !== "") {
    return "The webhook URL must not carry a user name or password.";
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host === "127.0.0.1" || host === "::1";
  if (url.protocol === "http:" && loopback && policy.allowHttpLoopback) return null;
  if (url.protocol !== "https:") return "The webhook URL must start with https://.";
  if (loopback || (isIP(host) !== 0 && host.startsWith("10."))) {
    return "The webhook URL must not point at a private, loopback, link-local or metadata address.";
  }
  return null;
}
