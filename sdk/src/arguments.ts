/** Where the consumer API lives under the server address, live and preview. */
const CONSUMER_PATH = "/api/consumer";
const PREVIEW_PATH = "/api/preview";
const PREVIEW_KEY_PREFIX = "cp_preview_";

/**
 * Whether the client reads the preview perspective: a `cp_preview_…` key does; `preview`
 * must agree with the key, since the server refuses a key on the other kind's path.
 */
export function checkPreview(apiKey: string, preview: unknown): boolean {
  const previewKey = apiKey.startsWith(PREVIEW_KEY_PREFIX);
  if (preview !== undefined && typeof preview !== "boolean") {
    throw new TypeError("preview must be true or false.");
  }
  if (preview === true && !previewKey) {
    throw new TypeError(
      "preview: true needs a preview key (cp_preview_…), minted by the workspace's owner.",
    );
  }
  if (preview === false && previewKey) {
    throw new TypeError("This is a preview key (cp_preview_…): it reads only with preview: true.");
  }
  return previewKey;
}

/** The API key as it is sent in `x-api-key`; throws, never quoting it, when it cannot be one. */
export function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new TypeError("createClient needs apiKey: a workspace API key (cp_live_…).");
  }
  for (let i = 0; i < apiKey.length; i++) {
    const code = apiKey.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) {
      // Never quote the key: it would end up in logs.
      throw new TypeError("apiKey contains a character that cannot be sent in an HTTP header.");
    }
  }
  return apiKey.trim();
}

/**
 * The server address the client shows (`origin`, without `/api/consumer`) and the consumer API's
 * base URL (`apiBase`: `/api/preview` for a preview client); `baseUrl` may be given with or
 * without `/api/consumer` (or `/api/preview`).
 */
export function checkBaseUrl(
  baseUrl: unknown,
  preview = false,
): { origin: string; apiBase: string } {
  if (typeof baseUrl !== "string" || !URL.canParse(baseUrl)) {
    throw new TypeError("createClient needs baseUrl: the Pressroom server, e.g. https://host.");
  }
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("baseUrl must be an http: or https: URL.");
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new TypeError("baseUrl must not contain credentials, a query or a fragment.");
  }
  const path = url.pathname.replace(/\/+$/, "");
  const suffix = [CONSUMER_PATH, PREVIEW_PATH].find((p) => path.endsWith(p));
  const root = suffix === undefined ? path : path.slice(0, -suffix.length);
  const origin = `${url.origin}${root}`;
  return { origin, apiBase: `${origin}${preview ? PREVIEW_PATH : CONSUMER_PATH}` };
}

/** A time limit (`timeoutMs`, of the client or of a call): a positive number of milliseconds. */
export function checkTimeout(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError("timeoutMs must be a positive number of milliseconds.");
  }
  return timeoutMs;
}
