// Upgrades the emulator knows to break, so that failure and rollback can be produced on demand.
// Modelled on what happens in practice: switching an older WordPress (and the plugins that ship with
// it) to a new PHP branch passes the preflight checks but fatals once live, and the pipeline's verify
// step catches it and rolls back. Target PHP 8.4 with a target WordPress below 6.7 is the trigger.
import { compareVersions } from "../versions.js";

interface BrokenUpgrade {
  to_php_version: string;
  /** Broken while the WordPress version after the upgrade is below this one. */
  wp_below: string;
  error: string;
}

const BROKEN_UPGRADES: readonly BrokenUpgrade[] = [
  {
    to_php_version: "8.4",
    wp_below: "6.7",
    error:
      "Verification failed: the site answered HTTP 500 after switching to PHP 8.4 (PHP Fatal error: Uncaught TypeError in wp-includes/class-wp-hook.php); WordPress below 6.7 does not support PHP 8.4",
  },
];

/** The error a pipeline to these versions fails with at its verify step, or null when it works. */
export function upgradeBreaks(toWp: string, toPhp: string): string | null {
  const hit = BROKEN_UPGRADES.find((b) => b.to_php_version === toPhp && compareVersions(toWp, b.wp_below) < 0);
  return hit?.error ?? null;
}
