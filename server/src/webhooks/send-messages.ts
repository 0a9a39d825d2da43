/**
 * What the delivery log may show of an attempt (admin spec, `WebhookAttempt.error` and
 * `.responseExcerpt`): short texts without control characters, never a stack trace, never more
 * of the receiver's answer than its first KiB.
 */

/** How much of a response body is read at most; the connection is closed past it. */
export const MAX_BODY_BYTES = 64 * 1024;
/** How much of it is kept as the excerpt. */
export const EXCERPT_BYTES = 1024;
const MAX_ERROR_CHARS = 500;

/**
 * The excerpt of a response body: its first KiB decoded as UTF-8 (invalid bytes become U+FFFD; a
 * character cut at the end is dropped), every control character but tab, CR and LF replaced by
 * U+FFFD. Null for an empty body.
 */
export function responseExcerpt(firstBytes: Uint8Array): string | null {
  const bytes = firstBytes.subarray(0, EXCERPT_BYTES);
  if (bytes.length === 0) return null;
  // stream: true keeps an incomplete trailing character back instead of writing U+FFFD for it.
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes, { stream: true });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, "\uFFFD");
}

/** One line for the log: control characters replaced, at most 500 characters. */
export function oneLine(message: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  const clean = message.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim();
  return clean.length <= MAX_ERROR_CHARS ? clean : `${clean.slice(0, MAX_ERROR_CHARS - 1)}…`;
}

/** "10 s", "1.5 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

const TLS_MESSAGES: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: "certificate has expired",
  CERT_NOT_YET_VALID: "certificate is not yet valid",
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed certificate",
  SELF_SIGNED_CERT_IN_CHAIN: "self-signed certificate in the chain",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "unable to verify the certificate (incomplete chain?)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "certificate issuer unknown",
  ERR_TLS_CERT_ALTNAME_INVALID: "certificate is not for this host name",
  CERT_REVOKED: "certificate revoked",
  ERR_SSL_WRONG_VERSION_NUMBER: "the server does not speak TLS on this port",
};

const NET_MESSAGES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the receiver",
  EPIPE: "connection closed by the receiver",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "DNS: name not found",
  EAI_AGAIN: "DNS: lookup failed (temporary)",
  ENODATA: "DNS: no address for this name",
  HPE_INVALID_CONSTANT: "invalid HTTP response",
  HPE_INVALID_STATUS: "invalid HTTP response",
  HPE_HEADER_OVERFLOW: "response headers too large",
};

/**
 * A short message for an error thrown while sending: from its code when it has one (network,
 * DNS and TLS errors), never its stack; errors without a known code say only "connection failed"
 * and the code.
 */
export function sendErrorMessage(error: unknown): string {
  const code =
    typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
      ? error.code
      : undefined;
  if (code === undefined) return "connection failed";
  const tls = TLS_MESSAGES[code];
  if (tls !== undefined) return `TLS: ${tls}`;
  if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) {
    return oneLine(`TLS: handshake failed (${code})`);
  }
  const net = NET_MESSAGES[code];
  if (net !== undefined) return net;
  if (code.startsWith("HPE_")) return "invalid HTTP response";
  return oneLine(`connection failed (${code})`);
}

/** "redirect not followed (to https://elsewhere.example)": only the target's origin is kept, never
 * its path or query (which may carry a token), and nothing unparsable. */
export function redirectNote(location: string | undefined, base: URL): string {
  let origin: string | null = null;
  try {
    origin = location === undefined ? null : new URL(location, base).origin;
  } catch {
    origin = null;
  }
  return origin === null || origin === "null"
    ? "redirect not followed"
    : `redirect not followed (to ${oneLine(origin).slice(0, 200)})`;
}
