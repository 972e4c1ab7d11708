// Where webhook deliveries may go (issue 17, item 1: a tenant must not reach the emulator's control API or a
// cloud metadata service through a webhook). The classes of addresses are common/addresses.ts's (the rollout's
// HTTP gate and site URLs use the same): refused always; private (loopback, RFC 1918, ...) only when the emulator
// runs with allowPrivateWebhookTargets; public. And never the emulator's own listener (a loopback or local address on its port), with or without the flag.
// The URL is checked when an endpoint is created or changed (IP literals and localhost: the host is not
// resolved then), and the resolved address again at each delivery, which then connects to that very address.
import { isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import { bareHost, classifyAddress, embeddedIpv4, isMetadataName } from "../../common/addresses.js";
import type { EmulatorContext } from "../context.js";

/** Names that are this machine whatever DNS says. */
const LOOPBACK_NAME = /^(localhost|.+\.localhost)\.?$/i;

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
  if (isMetadataName(host)) return "must not point at a metadata service";
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
  if (isMetadataName(host)) throw new RefusedTarget(`webhook target refused: ${host} is a metadata service`);
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  let first: string | null = null;
  for (const a of addresses) {
    const refusal = refusalOf(ctx, a.address, port);
    if (!refusal) return a;
    first ??= refusal;
  }
  throw new RefusedTarget(`webhook target refused: ${host}:${port} ${first ?? "has no address"}`);
}
