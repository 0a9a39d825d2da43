import type { UrlPolicy } from "./endpoint-url.js";

export interface SendRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** What became of one attempt: an HTTP answer (any status), or why none came. */
export type SendOutcome =
  | {
      readonly ok: boolean;
      readonly statusCode: number;
      readonly latencyMs: number;
      /** The first 1 KiB of the body as text (control characters replaced); null if empty. */
      readonly responseExcerpt: string | null;
      readonly error: null;
    }
  | {
      readonly ok: false;
      readonly statusCode: null;
      readonly latencyMs: number | null;
      readonly responseExcerpt: null;
      /** For the delivery log: timeout, refused address, connection error, redirect not followed. */
      readonly error: string;
    };

export type Send = (request: SendRequest) => Promise<SendOutcome>;

/**
 * POSTs one delivery. FIRST VERSION (plain fetch, no address checks, no redirects followed);
 * the SSRF work replaces the body of this function keeping its signature: resolve the name,
 * refuse private/loopback/link-local/metadata addresses, connect to the address checked, cap
 * the response body.
 */
export function safeSender(_policy: UrlPolicy): Send {
  return async ({ url, headers, body, timeoutMs }) => {
    const started = performance.now();
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = (await res.text()).slice(0, 1024);
      return {
        ok: res.status >= 200 && res.status < 300,
        statusCode: res.status,
        latencyMs: Math.round(performance.now() - started),
        responseExcerpt: text === "" ? null : text,
        error: null,
      };
    } catch (err) {
      return {
        ok: false,
        statusCode: null,
        latencyMs: Math.round(performance.now() - started),
        responseExcerpt: null,
        error: err instanceof Error ? err.message : "send failed",
      };
    }
  };
}
