// When two spellings of a value the service returns mean the same thing: a server may normalise what it stores
// (lower-case a URL's host, give a bare host a trailing `/`, write `6.5` as `6.5.0`), so the toolkit compares such
// values by meaning, with this one rule, wherever it matches or keeps them: site lookup by URL, Terraform's
// semantic equality and import, the data sources and `siteops export` (docs/design.md, "What the toolkit assumes").

/**
 * The form two URLs are compared in: scheme and host lower-cased (IDNs in punycode), a host's trailing dot and
 * the scheme's default port dropped, percent-encoded unreserved characters of the path decoded and other escapes
 * upper-cased (RFC 3986 section 6.2.2), trailing slashes of the path dropped (so a bare host and the host with
 * `/` are one), the fragment dropped. The path's case, user info and the query still count. A string that is not
 * an absolute URL is compared as written, less trailing slashes.
 */
export function urlKey(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return value.replace(/\/+$/, "");
  }
  if (!u.host) return u.href.replace(/#.*$/, "").replace(/\/+$/, "");
  const path = u.pathname
    .replace(/%([0-9A-Fa-f]{2})/g, (m: string, hex: string) => {
      const ch = String.fromCharCode(Number.parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(ch) ? ch : m.toUpperCase();
    })
    .replace(/\/+$/, "");
  const host = u.host.replace(/\.(?=:\d+$|$)/, "");
  const auth = u.username ? `${u.username}${u.password ? `:${u.password}` : ""}@` : "";
  return `${u.protocol}//${auth}${host}${path}${u.search}`;
}

/** Whether two URLs name the same place (see {@link urlKey}): `https://Blog.Example.org` and `https://blog.example.org/` do. */
export function sameUrl(a: string, b: string): boolean {
  return a === b || urlKey(a) === urlKey(b);
}

/**
 * Whether two version strings are the same version: dotted numbers compared number by number, missing parts
 * counting as 0, so `6.5`, `6.5.0` and `06.5` are one version and `6.5.1` another. Anything else (`6.5-beta`)
 * only equals itself.
 */
export function sameVersion(a: string, b: string): boolean {
  return a === b || compareVersions(a, b) === 0;
}

/**
 * How version `a` stands to `b`: -1 below, 0 the same version, 1 above, comparing dotted numbers number by number
 * with missing parts as 0 (`6.10` is above `6.9`; `6.5` and `6.5.0` are one version); undefined when either is not
 * dotted numbers (`6.5-beta`, `""`): such a version is neither below nor above another. The one version
 * comparison of the toolkit (a rollout's target reached, a pipeline's versions).
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 | undefined {
  const pa = versionParts(a);
  const pb = versionParts(b);
  if (!pa || !pb) return undefined;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0) ? -1 : 1;
  return 0;
}

function versionParts(v: string): number[] | undefined {
  const t = v.trim();
  if (!/^\d+(\.\d+)*$/.test(t)) return undefined;
  return t.split(".").map(Number);
}
