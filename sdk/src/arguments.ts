/** Where the consumer API lives under the server address. */
const CONSUMER_PATH = "/api/consumer";

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
 * base URL (`apiBase`); `baseUrl` may be given with or without `/api/consumer`.
 */
export function checkBaseUrl(baseUrl: unknown): { origin: string; apiBase: string } {
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
  const root = path.endsWith(CONSUMER_PATH) ? path.slice(0, -CONSUMER_PATH.length) : path;
  const origin = `${url.origin}${root}`;
  return { origin, apiBase: `${origin}${CONSUMER_PATH}` };
}

/** A time limit (`timeoutMs`, of the client or of a call): a positive number of milliseconds. */
export function checkTimeout(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError("timeoutMs must be a positive number of milliseconds.");
  }
  return timeoutMs;
}
