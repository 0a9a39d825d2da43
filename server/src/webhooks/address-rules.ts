import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Which IP addresses a webhook may be sent to (README, "Webhooks" → "SSRF protection"): only
 * globally reachable unicast addresses. Used on the URL's host when an endpoint is saved
 * (endpoint-url.ts) and on every address its name resolves to before each delivery
 * (safe-send.ts). Loopback is allowed only where the caller says so (the development setting).
 */

type Kind =
  | "a cloud metadata address"
  | "a loopback address"
  | "a private address"
  | "a link-local address"
  | "a multicast address"
  | "a reserved or special-purpose address";

// [address, prefix length, kind]; the first list that matches names the reason.
const V4: readonly (readonly [string, number, Kind])[] = [
  ["169.254.169.254", 32, "a cloud metadata address"], // AWS, GCP, Azure, OpenStack…
  ["100.100.100.200", 32, "a cloud metadata address"], // Alibaba Cloud
  ["127.0.0.0", 8, "a loopback address"],
  ["10.0.0.0", 8, "a private address"],
  ["172.16.0.0", 12, "a private address"],
  ["192.168.0.0", 16, "a private address"],
  ["100.64.0.0", 10, "a private address"], // carrier-grade NAT (RFC 6598)
  ["169.254.0.0", 16, "a link-local address"],
  ["224.0.0.0", 4, "a multicast address"],
  ["0.0.0.0", 8, "a reserved or special-purpose address"], // "this network"
  ["192.0.0.0", 24, "a reserved or special-purpose address"], // IETF protocol assignments
  ["192.0.2.0", 24, "a reserved or special-purpose address"], // TEST-NET-1
  ["192.88.99.0", 24, "a reserved or special-purpose address"], // 6to4 relay anycast
  ["198.18.0.0", 15, "a reserved or special-purpose address"], // benchmarking
  ["198.51.100.0", 24, "a reserved or special-purpose address"], // TEST-NET-2
  ["203.0.113.0", 24, "a reserved or special-purpose address"], // TEST-NET-3
  ["240.0.0.0", 4, "a reserved or special-purpose address"], // incl. 255.255.255.255
];

const V6: readonly (readonly [string, number, Kind])[] = [
  ["fd00:ec2::254", 128, "a cloud metadata address"], // AWS IMDS over IPv6
  ["::1", 128, "a loopback address"],
  ["fc00::", 7, "a private address"], // unique local
  ["fe80::", 10, "a link-local address"],
  ["fec0::", 10, "a private address"], // deprecated site-local
  ["ff00::", 8, "a multicast address"],
  ["::", 8, "a reserved or special-purpose address"], // unspecified, IPv4-compatible/-translated
  ["64:ff9b:1::", 48, "a reserved or special-purpose address"], // local-use NAT64 (RFC 8215)
  ["100::", 64, "a reserved or special-purpose address"], // discard
  ["2001::", 23, "a reserved or special-purpose address"], // IETF protocol assignments, Teredo
  ["2001:db8::", 32, "a reserved or special-purpose address"], // documentation
  ["3fff::", 20, "a reserved or special-purpose address"], // documentation (RFC 9637)
  ["5f00::", 16, "a reserved or special-purpose address"], // SRv6 SIDs (RFC 9602)
];

function listsOf(
  rules: readonly (readonly [string, number, Kind])[],
  family: "ipv4" | "ipv6",
): readonly (readonly [BlockList, Kind])[] {
  return rules.map(([address, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, family);
    return [list, kind] as const;
  });
}

const V4_LISTS = listsOf(V4, "ipv4");
const V6_LISTS = listsOf(V6, "ipv6");

/** The eight 16-bit groups of an IPv6 address in any textual form (dotted tail included). */
export function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  // The WHATWG URL parser rewrites a dotted IPv4 tail as hex and drops zone-free forms to one
  // canonical text: "::ffff:127.0.0.1" → "::ffff:7f00:1".
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = "", tail] = canonical.split("::");
  const part = (s: string | undefined) => (s === undefined || s === "" ? [] : s.split(":"));
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(fill).fill("0"), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

function v4From(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** An IPv4 address carried inside an IPv6 one that reaches it: mapped, NAT64, 6to4. */
export function embeddedIPv4(groups: readonly number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeros = (...gs: number[]) => gs.every((g) => g === 0);
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return v4From(g6, g7); // ::ffff:a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return v4From(g6, g7); // NAT64
  if (g0 === 0x2002) return v4From(g1, g2); // 6to4: 2002:AABB:CCDD::/48
  return null;
}

function v4Kind(address: string): Kind | null {
  for (const [list, kind] of V4_LISTS) if (list.check(address, "ipv4")) return kind;
  return null;
}

/** Global unicast (RFC 4291): every IPv6 address outside it is refused. */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");

function v6Kind(address: string): Kind | null {
  for (const [list, kind] of V6_LISTS) if (list.check(address, "ipv6")) return kind;
  if (!GLOBAL_UNICAST.check(address, "ipv6")) return "a reserved or special-purpose address";
  return null;
}

/**
 * Whether `address` (an IP literal) is a loopback address: 127.0.0.0/8, ::1, or 127/8 mapped
 * into IPv6 (`::ffff:127.x.x.x`, which the host itself answers). NAT64 and 6to4 forms that embed
 * 127/8 are not: they are routed off the host.
 */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return v4Kind(address) === "a loopback address";
  const groups = ipv6Groups(address);
  if (groups === null) return false;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  if ([g0, g1, g2, g3, g4].every((g) => g === 0) && g5 === 0xffff) {
    return v4Kind(v4From(g6, g7)) === "a loopback address";
  }
  return v6Kind(address) === "a loopback address";
}

/**
 * Why a webhook must not be sent to the IP address `address`, as a short sentence for the
 * endpoint's owner ("10.0.0.5 is a private address"); null when it may. Loopback addresses pass
 * only with `allowLoopback`. Anything that is not an IP address is refused.
 */
export function addressProblem(address: string, allowLoopback: boolean): string | null {
  if (isIPv4(address)) {
    const kind = v4Kind(address);
    if (kind === null || (kind === "a loopback address" && allowLoopback)) return null;
    return `${address} is ${kind}`;
  }
  const groups = ipv6Groups(address);
  if (groups === null) return `${address.slice(0, 60)} is not an IP address`;
  const v4 = embeddedIPv4(groups);
  if (v4 !== null) {
    const kind = v4Kind(v4);
    if (kind === null || (kind === "a loopback address" && allowLoopback)) return null;
    return `${address} is ${v4}, ${kind}`;
  }
  const kind = v6Kind(address);
  if (kind === null || (kind === "a loopback address" && allowLoopback)) return null;
  return `${address} is ${kind}`;
}
