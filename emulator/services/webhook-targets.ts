// Where webhook deliveries may go (issue 17, item 1: a tenant must not reach the emulator's control API or a
// cloud metadata service through a webhook). Every address is one of:
//   - refused always: unspecified (0.0.0.0/8, ::), link-local (169.254/16, fe80::/10) with the metadata
//     services in it or next to it (169.254.169.254, fd00:ec2::254, 100.100.100.200, 168.63.129.16),
//     multicast, broadcast and reserved ranges;
//   - private: loopback (127/8, ::1), RFC 1918, carrier-grade NAT (100.64/10), unique-local (fc00::/7),
//     benchmarking (198.18/15): only when the emulator runs with allowPrivateWebhookTargets;
//   - public: everything else.
// And never the emulator's own listener (a loopback or local address on its port), with or without the flag.
// The URL is checked when an endpoint is created or changed (IP literals and localhost: the host is not
// resolved then), and the resolved address again at each delivery, which then connects to that very address.
import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import type { EmulatorContext } from "../context.js";

type AddressClass = "refused" | "private" | "public";

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

/** Names that are this machine or a metadata service whatever DNS says. */
const LOOPBACK_NAME = /^(localhost|.+\.localhost)\.?$/i;
const METADATA_NAME = /^(metadata\.google\.internal|metadata\.goog|metadata|instance-data(\.ec2\.internal)?)\.?$/i;

/** `::ffff:a.b.c.d` and NAT64 `64:ff9b::a.b.c.d` carry an IPv4 address: classify that one. */
function embeddedIpv4(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** `[::1]` -> `::1`: URL hostnames keep the brackets of an IPv6 literal. */
function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

function classifyAddress(address: string): AddressClass {
  const v4 = embeddedIpv4(address);
  if (v4) return classifyAddress(v4);
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (REFUSED.check(address, family) || address === "255.255.255.255") return "refused";
  if (PRIVATE.check(address, family)) return "private";
  return "public";
}

function isLoopbackOrUnspecified(address: string): boolean {
  const v4 = embeddedIpv4(address) ?? address;
  return /^(127\.|0\.)/.test(v4) || v4 === "::1" || v4 === "::";
}

/** True when address:port is this emulator's listener (loopback, unspecified or one of this host's addresses). */
function isSelf(ctx: EmulatorContext, address: string, port: number): boolean {
  if (ctx.listener.port === null || port !== ctx.listener.port) return false;
  if (isLoopbackOrUnspecified(address)) return true;
  const plain = embeddedIpv4(address) ?? address;
  return Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === plain));
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** Why `address` may not be a webhook target under this emulator's settings, or null when it may. */
function refusalOf(ctx: EmulatorContext, address: string, port: number): string | null {
  if (isSelf(ctx, address, port)) return "is the emulator itself";
  const cls = classifyAddress(address);
  if (cls === "refused") return `is a link-local, metadata, unspecified or reserved address (${address})`;
  if (cls === "private" && !ctx.options.allowPrivateWebhookTargets) {
    return `is a private or loopback address (${address}); start the emulator with --allow-private-webhooks to allow it`;
  }
  return null;
}

/**
 * Create/update time: the URL's host when it is an IP literal or a name that is this machine or a metadata
 * service (other names are checked on their resolved address at delivery). Returns the field message or null.
 */
export function checkTargetUrl(ctx: EmulatorContext, url: URL): string | null {
  const host = bareHost(url.hostname);
  const port = defaultPort(url);
  if (METADATA_NAME.test(host)) return "must not point at a metadata service";
  const literal = isIP(host) ? host : LOOPBACK_NAME.test(host) ? "127.0.0.1" : undefined;
  if (literal === undefined) return url.protocol === "https:" ? null : "must use https";
  const refusal = refusalOf(ctx, literal, port);
  if (refusal === "is the emulator itself") return "must not point at the emulator itself";
  if (refusal)
    return classifyAddress(literal) === "refused"
      ? "must not be a link-local, metadata or unspecified address"
      : "must not be a private or loopback address (the emulator allows them with --allow-private-webhooks)";
  // Plain http only inside this machine or network (a local receiver, with the flag).
  if (url.protocol === "http:" && classifyAddress(literal) === "public") return "must use https";
  return null;
}

/** A delivery target refused at delivery time: recorded as the attempt's error. */
class RefusedTarget extends Error {
  readonly code = "ERR_WEBHOOK_TARGET_REFUSED";
}

/**
 * Delivery time: resolves the host (IP literals as they are) and returns the first address that may be
 * reached, or throws RefusedTarget naming why none may. The caller connects to exactly this address.
 */
export async function resolveTarget(ctx: EmulatorContext, hostname: string, port: number): Promise<{ address: string; family: number }> {
  const host = bareHost(hostname);
  if (METADATA_NAME.test(host)) throw new RefusedTarget(`webhook target refused: ${host} is a metadata service`);
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  let first: string | null = null;
  for (const a of addresses) {
    const refusal = refusalOf(ctx, a.address, port);
    if (!refusal) return a;
    first ??= refusal;
  }
  throw new RefusedTarget(`webhook target refused: ${host}:${port} ${first ?? "has no address"}`);
}
