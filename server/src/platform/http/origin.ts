/** `http://host[:port]` for a Host header, normalised as a browser's Origin is; null if unusable. */
export function originAt(protocol: string, host: string | undefined): URL | null {
  if (host === undefined || host === "" || /[/?#@\\\s]/.test(host)) return null;
  try {
    return new URL(`${protocol}://${host}`);
  } catch {
    return null;
  }
}
