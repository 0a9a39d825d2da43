import { isIP } from "node:net";
import { addressProblem, isLoopbackAddress } from "./address-rules.js";

export interface UrlPolicy {
  /** WEBHOOK_ALLOW_HTTP_LOOPBACK: plain http to a loopback address (development only). */
  readonly allowHttpLoopback: boolean;
}

/**
 * Ports browsers refuse to fetch from (the Fetch Standard's "bad port" list): mail, shell, DNS,
 * IRC… services a POST could be smuggled into. Any other port is allowed.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/**
 * Name suffixes that never reach the public internet (RFC 6761/6762/8375, ICANN's `.internal`,
 * and private-network habits); names under them resolve, if at all, inside the operator's
 * network — `metadata.google.internal`, `instance-data.ec2.internal`, `printer.local`…
 */
const PRIVATE_SUFFIXES = [
  "internal",
  "local",
  "localdomain",
  "arpa",
  "lan",
  "intranet",
  "corp",
  "home",
  "private",
  "test",
  "invalid",
];

/** The URL's host without IPv6 brackets or trailing dots: what is resolved and checked. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "");
}

/** `localhost`, `*.localhost`, or a loopback IP literal (127.0.0.0/8, ::1, ::ffff:127.x). */
export function isLoopbackHost(host: string): boolean {
  if (isIP(host) !== 0) return isLoopbackAddress(host);
  return host === "localhost" || host.endsWith(".localhost");
}

function hostProblem(host: string, allowLoopback: boolean): string | null {
  if (isIP(host) !== 0) return addressProblem(host, allowLoopback);
  if (isLoopbackHost(host)) return allowLoopback ? null : `${host} is a loopback name`;
  if (!host.includes(".")) {
    return `${host} is a single-label name (resolved through the server's own network)`;
  }
  const suffix = PRIVATE_SUFFIXES.find((s) => host.endsWith(`.${s}`));
  if (suffix !== undefined) return `${host} is a private name (.${suffix})`;
  return null;
}

/**
 * Why `raw` cannot be a webhook endpoint's URL, checked when it is saved (and again before every
 * delivery); null when it can. Hosts are judged as the WHATWG URL parser reads them, so every
 * notation of an address (`2130706433`, `0x7f.1`, `0177.0.0.1`, `[::ffff:7f00:1]`…) is judged as
 * the address it is. Names are resolved again before every delivery (webhooks/safe-send.ts):
 * this check alone cannot stop a name that later points at a private address.
 */
export function endpointUrlProblem(raw: string, policy: UrlPolicy): string | null {
  if (raw.length > 2000) return "The webhook URL is longer than 2000 characters.";
  // Characters parsers disagree on (the WHATWG parser trims or rewrites them; others do not).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  if (/[\s\\\u0000-\u001f\u007f]/.test(raw)) {
    return "The webhook URL must not contain spaces, backslashes or control characters.";
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The webhook URL is not a valid absolute URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return "The webhook URL must start with https://.";
  }
  if (url.username !== "" || url.password !== "") {
    return "The webhook URL must not carry a user name or password.";
  }
  const host = bareHost(url);
  const loopbackAllowed = policy.allowHttpLoopback && isLoopbackHost(host);
  if (url.protocol === "http:" && !loopbackAllowed) {
    return policy.allowHttpLoopback
      ? "The webhook URL must start with https:// (http:// only to localhost or a loopback address)."
      : "The webhook URL must start with https://.";
  }
  const problem = hostProblem(host, loopbackAllowed);
  if (problem !== null) {
    return `The webhook URL must not point at a private, loopback, link-local or metadata address: ${problem}.`;
  }
  if (url.port !== "" && BAD_PORTS.has(Number(url.port))) {
    return `The webhook URL must not use port ${url.port} (a port browsers refuse too).`;
  }
  if (url.hash !== "" || raw.includes("#")) {
    return "The webhook URL must not have a #fragment.";
  }
  return null;
}
