// Which network addresses a request the toolkit makes on someone else's word may reach: the emulator's webhook
// deliveries (a URL a tenant gives), the rollout's HTTP gate (a site's URL, which any member can set, and the
// redirects its server answers with), the emulator's site URLs. One rule, so that a metadata service refused for one
// is refused for all. Every address is one of:
//   - refused: unspecified (0.0.0.0/8, ::), link-local (169.254/16, fe80::/10) with the cloud metadata services in
//     it or next to it (169.254.169.254, fd00:ec2::254, 100.100.100.200, 168.63.129.16), multicast, broadcast
//     and reserved ranges; and the names that are a metadata service whatever DNS says;
//   - private: loopback (127/8, ::1), RFC 1918, carrier-grade NAT (100.64/10), unique-local (fc00::/7),
//     benchmarking (198.18/15): each user decides (webhooks only with a flag; a site may be on them);
//   - public: everything else.

import { BlockList, isIP } from "node:net";

export type AddressClass = "refused" | "private" | "public";

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["169.254.0.0", 16],
  ["100.100.100.200", 32],
  ["168.63.129.16", 32],
  ["192.0.0.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  REFUSED.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["fe80::", 10],
  ["fd00:ec2::254", 128],
  ["ff00::", 8],
] as const)
  REFUSED.addSubnet(net, prefix, "ipv6");

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["100.64.0.0", 10],
  ["198.18.0.0", 15],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::1", 128],
  ["fc00::", 7],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv6");

const METADATA_NAME = /^(metadata\.google\.internal|metadata\.goog|metadata|instance-data(\.ec2\.internal)?)\.?$/i;

/** True for a name that is a cloud metadata service whatever DNS says (`metadata.google.internal`). */
export function isMetadataName(host: string): boolean {
  return METADATA_NAME.test(host);
}

/** `::ffff:a.b.c.d` and NAT64 `64:ff9b::a.b.c.d` carry an IPv4 address: that one, else undefined. */
export function embeddedIpv4(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** `[::1]` -> `::1`: URL hostnames keep the brackets of an IPv6 literal. */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** The class of an IP address (see the header). */
export function classifyAddress(address: string): AddressClass {
  const v4 = embeddedIpv4(address);
  if (v4) return classifyAddress(v4);
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (REFUSED.check(address, family) || address === "255.255.255.255") return "refused";
  if (PRIVATE.check(address, family)) return "private";
  return "public";
}

/** Why a URL's host may never be reached (a metadata name, or an IP literal of the refused class), or null: other
 * names are judged on the addresses they resolve to, when connecting. */
export function refusedHost(hostname: string): string | null {
  const host = bareHost(hostname);
  if (isMetadataName(host)) return `${host} is a metadata service`;
  if (isIP(host) && classifyAddress(host) === "refused") return `${host} is a link-local, metadata, unspecified or reserved address`;
  return null;
}
