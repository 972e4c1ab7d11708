// Site URLs: which strings are one (absolute http/https with a host), and the key that two spellings of one
// URL share. The sites table keeps that key in an indexed column (url_key), so the per-account uniqueness
// check is one index lookup, not a scan of the account's URLs. Also the normalized form the `minimal` profile
// stores (normalizedUrl). And the rule site and webhook endpoint URLs share: no user name or password
// (hasUserinfo).

/** The URL if `value` is an absolute http(s) URL with a host. */
function httpUrl(value: string): URL | undefined {
  if (/\s/.test(value)) return undefined;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return undefined;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "" ? u : undefined;
}

/** The field error of a URL with userinfo (docs/design.md section 2, Resources). */
export const USERINFO = "must not contain a user name or password";

/**
 * Whether an http(s) URL carries userinfo: a user name, a password, or an empty one (`https://@host/`), which
 * the WHATWG parser drops from what it shows but the emulator would store as typed. A credential in a URL is
 * printed wherever the URL is (lists, logs, activity), and `https://user@host/blog` would be a second site
 * beside `https://host/blog`. The authority is read as the parser reads it for http(s): after any run of
 * `/` or `\`, up to the first `/`, `\`, `?` or `#`.
 */
export function hasUserinfo(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*[^/\\?#]*@/.test(value);
}

/** A path with its percent-encoded unreserved characters decoded (RFC 3986 6.2.2.2); other escapes uppercased
 * when `upper` (6.2.2.1), else kept as they are. */
function decodeUnreserved(path: string, upper: boolean): string {
  if (!path.includes("%")) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (m: string, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(ch) ? ch : upper ? m.toUpperCase() : m;
  });
}

/**
 * The form two site URLs are compared in: scheme and host lowercased (and IDNs in punycode, by URL),
 * default port dropped, a trailing slash of the path dropped, no fragment. `HTTPS://Blog.Acme.TEST:443/` and
 * `https://blog.acme.test` are the same site; the path's case and the query still count. Spellings of one
 * URL are one URL: a host's trailing dot (`uniq.example.`) is dropped, and a percent-encoded unreserved
 * character of the path (`%62log`) is decoded, other escapes uppercased (RFC 3986 section 6.2.2). null for
 * anything but an absolute http(s) URL with a host (a stored null matches nothing).
 */
export function siteUrlKeyOf(value: string): string | null {
  const u = httpUrl(value);
  if (!u) return null;
  const path = decodeUnreserved(u.pathname, true).replace(/\/+$/, "");
  const host = u.host.replace(/\.(?=:\d+$|$)/, "");
  return `${u.protocol}//${u.username}${u.password ? `:${u.password}` : ""}${u.username ? "@" : ""}${host}${path}${u.search}`;
}

/**
 * A URL as a service that normalizes what it stores would keep it (the `minimal` profile, profile.ts): the
 * WHATWG serialization (`new URL(value).href`: scheme and host lowercased, default port dropped, `/` as the path
 * of a bare host) with the path's percent-encoded unreserved characters decoded. `value` must be valid.
 */
export function normalizedUrl(value: string): string {
  const u = new URL(value);
  const path = decodeUnreserved(u.pathname, false);
  if (path !== u.pathname) u.pathname = path;
  return u.href;
}
