/** `http://host[:port]` for a Host header, normalised as a browser's Origin is; null if unusable. */
export function originAt(protocol: string, host: string | undefined): URL | null {
  if (host === undefined || host === "" || /[/?#@\\\s]/.test(host)) return null;
  try {
    return new URL(`${protocol}://${host}`);
  } catch {
    return null;
  }
}

/**
 * This server's public origin for a request: `PUBLIC_URL`'s when it is set, else the address
 * the request came to (its Host), else `http://localhost`.
 */
export function publicOriginOf(
  req: { readonly protocol: string; get(name: "host"): string | undefined },
  publicOrigin: string | undefined,
): string {
  return publicOrigin ?? originAt(req.protocol, req.get("host"))?.origin ?? "http://localhost";
}
