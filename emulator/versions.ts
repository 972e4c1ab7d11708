// The emulator's notion of "current" software versions: defaults for new sites, the ceiling of the
// vulnerability catalogue, and what an upgrade pipeline may target.
export const CURRENT_WP_VERSION = "6.9";
export const CURRENT_PHP_VERSION = "8.3";
/** A new site's versions when its create names none. */
export const CURRENT_VERSIONS = { wp_version: CURRENT_WP_VERSION, php_version: CURRENT_PHP_VERSION } as const;
/** WordPress minors the emulator knows about, oldest first. */
export const WP_VERSIONS = ["5.9", "6.0", "6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "6.7", "6.8", "6.9"] as const;
export const PHP_VERSIONS = ["7.4", "8.0", "8.1", "8.2", "8.3", "8.4"] as const;

export const VERSION_PATTERN = "^[0-9]{1,3}\\.[0-9]{1,3}$";

/** Compare "major.minor" strings numerically. */
export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am! - bm! || an! - bn!;
}
