// The Chromium the browser tests drive (test/console, test/visual, the package's visual check): $CHROMIUM_PATH,
// else Debian's. Without one the tests skip and say why, except in CI, where .ci/run installs it and a missing
// browser fails the file instead of skipping it.
import { existsSync } from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const inCi = Boolean(process.env.CI) && process.env.CI !== "false";

/** True when the browser tests can run; in CI a missing Chromium throws (the file fails), elsewhere they skip with
 * `who` and the reason printed. */
export function haveChromium(who: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (inCi) throw new Error(`${who}: Chromium not found at ${CHROMIUM}; .ci/run installs Debian's chromium package (CI must not skip the browser tests)`);
  console.warn(`${who}: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return false;
}
