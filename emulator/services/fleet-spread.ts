// The spread of a generated fleet (the seed's `generate.spread`): which sites run which WordPress and PHP, which
// are degraded or down, which of their records a person dismissed. Pure, and drawn from the spread's seed value
// alone, so a seed line makes the same fleet on every machine and every start (tests and docs rely on it). The
// shares are exact (rounded to whole sites), and the sites that get each are a seeded shuffle, so a 300-site fleet
// always has its 6 sites above the newest WordPress rather than "about 6".
import type { SeedSpread } from "../options.js";
import { CURRENT_WP_VERSION, WP_VERSIONS } from "../versions.js";

/** The version a site "above the newest" runs: the next WordPress after the newest, as a pre-release. */
export const SPREAD_PRE_RELEASE_WP = "7.0";

/** The defaults of SeedSpread, declared once (the README lists them). */
export const SPREAD_DEFAULTS: Required<SeedSpread> = { seed: 1, below: 0.25, above: 0.02, degraded: 0.03, down: 0.02, dismissed: 0.1 };

/** The share fields of SeedSpread, and the pairs whose sum may not pass 1 (a site has one version and one status). */
export const SPREAD_SHARES = ["below", "above", "degraded", "down", "dismissed"] as const;
export const SPREAD_EXCLUSIVE = [
  ["below", "above"],
  ["degraded", "down"],
] as const;

/** A dismissal reason the service takes, with the comment a person would leave. */
const DISMISSALS = [
  { reason: "not_used", comment: "Plugin installed but deactivated on this site." },
  { reason: "tolerable_risk", comment: "Behind the WAF; upgrade booked with the client." },
  { reason: "fix_started", comment: "Upgrade scheduled for the next maintenance window." },
  { reason: "no_bandwidth", comment: "Client has not approved the work yet." },
] as const;

/** What the spread gives one site. */
export interface SpreadSite {
  wp_version: string;
  php_version: string;
  /** The check status that sticks to the site (sites.forced_health), or null: its checks follow from the site. */
  health: "warning" | "failed" | null;
}

export interface Dismissal {
  reason: string;
  comment: string;
}

/** mulberry32: a small, fast 32-bit generator; good enough to pick fixtures, and the same in every Node.js. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` slots holding `shares.length + 1` kinds: exactly round(count * share) of kind k + 1 each, the rest kind 0, shuffled. */
function kinds(count: number, shares: readonly number[], random: () => number): Uint8Array {
  const out = new Uint8Array(count);
  let at = 0;
  shares.forEach((share, k) => {
    const n = Math.min(Math.round(count * share), count - at);
    out.fill(k + 1, at, at + n);
    at += n;
  });
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}

/** One of `choices`, the k-th with weight weights[k]. */
function weighted<T>(choices: readonly T[], weights: readonly number[], random: () => number): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (let k = 0; k < choices.length; k++) {
    r -= weights[k]!;
    if (r < 0) return choices[k]!;
  }
  return choices.at(-1)!;
}

const OLDER_WP = WP_VERSIONS.filter((v) => v !== CURRENT_WP_VERSION);
/** Recent minors are likelier: an agency's stragglers are mostly one or two releases behind. */
const OLDER_WP_WEIGHTS = OLDER_WP.map((_, k) => (k + 1) ** 2);

/** PHP on a site of this WordPress: older cores sit on older PHP (7.4 and 8.0 are past end of life). */
function phpFor(wp: string, random: () => number): string {
  if (wp === SPREAD_PRE_RELEASE_WP) return weighted(["8.3", "8.4"], [2, 1], random);
  if (wp === CURRENT_WP_VERSION) return weighted(["8.1", "8.2", "8.3", "8.4"], [1, 3, 5, 1], random);
  if (OLDER_WP.indexOf(wp as (typeof OLDER_WP)[number]) < OLDER_WP.indexOf("6.3")) return weighted(["7.4", "8.0", "8.1"], [2, 2, 1], random);
  return weighted(["8.0", "8.1", "8.2", "8.3"], [1, 2, 3, 2], random);
}

/**
 * The spread of a fleet of `count` sites: `site(i)` for the i-th (1-based), and `dismissal()` called once per
 * open record in insertion order. Every call draws from streams of the seed alone.
 */
export function planSpread(count: number, spread: SeedSpread): { site(i: number): SpreadSite; dismissal(): Dismissal | null } {
  const s = { ...SPREAD_DEFAULTS, ...spread };
  const versionKinds = kinds(count, [s.below, s.above], generator(s.seed));
  const statusKinds = kinds(count, [s.degraded, s.down], generator(s.seed ^ 0x5bd1e995));
  const versions = generator(s.seed ^ 0x27d4eb2f);
  const records = generator(s.seed ^ 0x165667b1);
  return {
    site(i) {
      const kind = versionKinds[i - 1]!;
      const wp = kind === 1 ? weighted(OLDER_WP, OLDER_WP_WEIGHTS, versions) : kind === 2 ? SPREAD_PRE_RELEASE_WP : CURRENT_WP_VERSION;
      const status = statusKinds[i - 1]!;
      return { wp_version: wp, php_version: phpFor(wp, versions), health: status === 1 ? "warning" : status === 2 ? "failed" : null };
    },
    dismissal() {
      const dismissed = records() < s.dismissed;
      const pick = DISMISSALS[Math.floor(records() * DISMISSALS.length)]!;
      return dismissed ? { ...pick } : null;
    },
  };
}
