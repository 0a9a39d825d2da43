/**
 * Host names that always mean this machine: `localhost`, 127.0.0.0/8 and `[::1]`, as the URL
 * parser spells them (so `127.1` and `0x7f.0.0.1` count as `127.0.0.1`). Not `*.localhost`:
 * some browsers pin it to loopback, but other clients resolve it through DNS, which the
 * attacker of a DNS-rebinding page controls; PUBLIC_URL=http://app.localhost:3000 serves it.
 */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}
