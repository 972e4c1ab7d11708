// The requests the rollout's HTTP gate makes to a site (rollout-gates.ts, checkHttp), which are not the service's:
// no token, no retries, node:http(s) rather than the API client's undici Pool (which the bundles reduce to what
// the client needs). A site's URL is set by any member and its server answers with redirects of its choosing, so
// a request here never reaches a link-local address or a cloud metadata service (common/addresses.ts, the rule the
// emulator's webhooks keep): the caller checks each hop's host, and each address a name resolves to is checked
// by the socket's own `lookup` before it connects. No credential is ever sent: a URL with a user name or password
// is refused, not turned into an Authorization header. And a check path stays on the site (checkPathProblem).

import type { IncomingMessage } from "node:http";
import type { LookupFunction } from "node:net";
import { classifyAddress } from "../../common/addresses.js";
import { builtin } from "../internal/builtins.js";

/** A resolver as the HTTP gate uses it: node:dns's `lookup` with `all: true` (its default). */
export type HttpGateLookup = (
  hostname: string,
  options: { all: true; family?: number | undefined; hints?: number | undefined },
  callback: (err: NodeJS.ErrnoException | null, addresses: { address: string; family: number }[]) => void,
) => void;

/** The code of a connection refused because its name resolved to a refused address. */
export const REFUSED_ADDRESS = "ESITEOPS_ADDRESS_REFUSED";

const dnsLookup: HttpGateLookup = (hostname, options, callback) => builtin("node:dns").lookup(hostname, options, callback);

/** `lookup` as a socket's `lookup` option: every address checked before the socket connects to one; a name with
 * any refused address is refused whole (no site has one, so such a name is no site's). */
export function guardedLookup(lookup: HttpGateLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
    lookup(hostname, { family, hints: options.hints, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => classifyAddress(a.address) === "refused");
      if (refused || addresses.length === 0) {
        const why = refused
          ? `${hostname} resolves to ${refused.address}, a link-local, metadata, unspecified or reserved address`
          : `${hostname} has no address`;
        return callback(Object.assign(new Error(why), { code: REFUSED_ADDRESS }), []);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Why `path` cannot be a check path of the HTTP gate, or undefined when it can: it must start with `/`, hold no
 * whitespace or control character, no backslash (`/\\evil.example/` is read as `//evil.example/`, another host)
 * and no dot segment (`/../`, `/%2e%2e/`, which climb above the site's path), percent-encoded or not. The CLI's
 * `--check-path` and the action's `check-paths` refuse it at once, naming themselves.
 */
export function checkPathProblem(path: string): string | undefined {
  if (!path.startsWith("/") || /[\s\u0000-\u001f\u007f]/.test(path)) return "must be a path starting with /";
  if (/\\|%5c/i.test(path)) return "must not contain a backslash";
  const segments = path.split(/[?#]/)[0]!.split("/");
  if (segments.some((s) => /^(?:\.|%2e){1,2}$/i.test(s))) return "must not contain . or .. segments";
  return undefined;
}

/** A site's answer: its status, where it redirects, and its body to read (or drop). */
export interface SiteAnswer {
  status: number;
  location: string | undefined;
  /** At most `limit` bytes of the body (decompressed), as text; the rest is not read. */
  text(limit: number): Promise<string>;
  drop(): void;
}

/** GET `url` (http or https, no user name or password: the caller checks) through `lookup`, one connection of its
 * own; rejects with the connection's error (`REFUSED_ADDRESS` for a refused name) or the signal's abort. */
export function getSite(url: URL, lookup: LookupFunction, signal: AbortSignal): Promise<SiteAnswer> {
  const http = builtin(url.protocol === "https:" ? "node:https" : "node:http");
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "GET", headers: { "user-agent": "siteops-rollout", "accept-encoding": "gzip, deflate, br" }, lookup, signal, agent: false },
      (res) =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          text: (limit) => readBody(res, limit),
          drop: () => res.destroy(),
        }),
    );
    req.on("error", reject);
    req.end();
  });
}

/** The body as text, decompressed as its Content-Encoding says, at most `limit` bytes (a bomb stops there). */
async function readBody(res: IncomingMessage, limit: number): Promise<string> {
  const zlib = builtin("node:zlib");
  const encoding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  const stream = decoder ? res.pipe(decoder) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } finally {
    res.destroy();
    decoder?.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}
