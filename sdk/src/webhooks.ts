import type { components } from "./generated/consumer.js";

/** What a webhook delivery carries: a blog event, or the dashboard's test event. */
export type WebhookEvent = components["schemas"]["BlogEvent"] | components["schemas"]["TestEvent"];

/** A Fetch-style headers object: the runtime's `Headers`, undici's, node-fetch's… */
export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * Request headers as a `Headers` (fetch, Request; any object with a Fetch-style `get`) or a
 * plain object as Node and Express give them (`req.headers`): names in any case, values a string
 * or an array of strings.
 */
export type WebhookHeaders =
  | HeadersLike
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300. */
  readonly toleranceSeconds?: number | undefined;
  /** The current time (a `Date` or milliseconds since the epoch). Default: `Date.now()`. */
  readonly now?: Date | number | undefined;
}

/** A delivery that is not provably from Pressroom (or not fresh): answer it 400 and drop it. */
export class WebhookVerificationError extends Error {
  static {
    WebhookVerificationError.prototype.name = "WebhookVerificationError";
  }
}

const PREFIX = "whsec_";
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (typeof secret !== "string") throw new TypeError("verifyWebhook: the secret must be a string");
  const raw = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  const bytes = base64Bytes(raw);
  if (bytes === null || bytes.length === 0) {
    throw new TypeError(
      "verifyWebhook: the secret must be the endpoint's signing secret, whsec_ followed by base64",
    );
  }
  return bytes;
}

function isHeadersLike(headers: WebhookHeaders): headers is HeadersLike {
  return typeof (headers as Partial<HeadersLike>).get === "function";
}

/** One header's value, whatever the container and the case of its name; undefined if absent. */
function header(headers: WebhookHeaders, name: string): string | undefined {
  // Any Fetch-style headers object (the runtime's own, undici's, node-fetch's…), not only
  // instances of this realm's Headers: they all look up names case-insensitively with get().
  if (isHeadersLike(headers)) return headers.get(name) ?? undefined;
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (typeof value === "string") values.push(value);
    else values.push(...value);
  }
  if (values.length > 1) {
    throw new WebhookVerificationError(`The delivery has more than one ${name} header.`);
  }
  return values[0];
}

function required(headers: WebhookHeaders, name: string): string {
  const value = header(headers, name)?.trim();
  if (value === undefined || value === "") {
    throw new WebhookVerificationError(`The delivery has no ${name} header.`);
  }
  return value;
}

/** Equal bytes, comparing every byte whatever the first difference (no early exit). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

async function hmacSha256(
  key: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, data));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function nowSeconds(now: Date | number | undefined): number {
  const ms = now === undefined ? Date.now() : typeof now === "number" ? now : now.getTime();
  return Math.floor(ms / 1000);
}

/**
 * Verifies a webhook delivery as the Standard Webhooks specification says, and returns its event.
 * `secret` is the endpoint's signing secret (`whsec_…`, or the base64 after the prefix);
 * `headers` the request's headers; `body` the request's RAW body, exactly as received (a string
 * or bytes) — never a parsed and re-serialised object, whose bytes differ.
 *
 * Checks that `webhook-id`, `webhook-timestamp` and `webhook-signature` are present, that the
 * timestamp is within `toleranceSeconds` (default 5 minutes) of now either way (a replayed old
 * delivery fails), and that one of the space-separated `v1,` signatures is the HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` (compared in constant time). Rejects with a
 * {@link WebhookVerificationError} otherwise; with a `TypeError` if the secret itself is unusable.
 * Uses Web Crypto only: Node ≥ 20.19, Bun, Deno and browsers.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const key = secretBytes(secret);
  const id = required(headers, "webhook-id");
  const timestamp = required(headers, "webhook-timestamp");
  const signatures = required(headers, "webhook-signature");
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError("The delivery's webhook-timestamp is not a number.");
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const age = nowSeconds(options.now) - Number(timestamp);
  if (age > tolerance) {
    throw new WebhookVerificationError(
      `The delivery's webhook-timestamp is too old (${age} s ago; at most ${tolerance} s allowed): a replay, or a clock out of sync.`,
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      `The delivery's webhook-timestamp is too far in the future (${-age} s ahead; at most ${tolerance} s allowed).`,
    );
  }
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const expected = await hmacSha256(key, concat(encoder.encode(`${id}.${timestamp}.`), bytes));
  const matches = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => base64Bytes(s.slice(3)))
    .filter((s): s is Uint8Array<ArrayBuffer> => s !== null)
    .map((s) => constantTimeEqual(s, expected));
  if (!matches.includes(true)) {
    throw new WebhookVerificationError(
      "No webhook-signature matches: the body was changed, the secret is wrong, or the delivery is forged.",
    );
  }
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new WebhookVerificationError("The delivery's body is not JSON.");
  }
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    throw new WebhookVerificationError("The delivery's body is not a JSON object.");
  }
  // Signed by the server with this endpoint's secret: the shape is the API's (openapi.yaml,
  // webhooks), not re-validated here.
  return event as WebhookEvent;
}
