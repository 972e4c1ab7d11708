// The emulator's notion of "current" software versions: defaults for new sites, the ceiling of the
// vulnerability catalogue, and what an upgrade pipeline may target.
export const CURRENT_WP_VERSION = "6.9";
export const CURRENT_PHP_VERSION = "8.3";
/** A new site's versions when its create names none. */
export const CURRENT_VERSIONS = { wp_version: CURRENT_WP_VERSION, php_version: CURRENT_PHP_VERSION } as const;
/** WordPress minors the emulator knows about, oldest first. */
export const WP_VERSIONS = ["5.9", "6.0", "6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "6.7", "6.8", "6.9"] as const;
const PHP_VERSIONS = ["7.4", "8.0", "8.1", "8.2", "8.3", "8.4"] as const;

/** The site's versions a pipeline changes: the site's field, the pipeline's from/to fields, what it may target. */
export const UPGRADABLE = [
  { field: "wp_version", from: "from_wp_version", to: "to_wp_version", known: WP_VERSIONS },
  { field: "php_version", from: "from_php_version", to: "to_php_version", known: PHP_VERSIONS },
] as const;

type Upgradable = (typeof UPGRADABLE)[number];

/** A site's WordPress and PHP versions, as its row, its snapshots and its health checks record them. */
export type SiteVersions = Record<Upgradable["field"], string>;

/** The versions of a site (or of anything that records them), and nothing else of it. */
export function versionsOf(site: SiteVersions): SiteVersions {
  return Object.fromEntries(UPGRADABLE.map((v) => [v.field, site[v.field]])) as SiteVersions;
}

/** A site's versions once a pipeline's targets are applied. */
export function targetVersions(pipeline: Record<Upgradable["to"], string>): SiteVersions {
  return Object.fromEntries(UPGRADABLE.map((v) => [v.field, pipeline[v.to]])) as SiteVersions;
}

export const VERSION_PATTERN = "^[0-9]{1,3}\\.[0-9]{1,3}$";

/** Compare "major.minor" strings numerically. */
export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am! - bm! || an! - bn!;
}
