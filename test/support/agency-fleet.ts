// The fleet issue 49 was tried on: an agency's 300 sites, "Client 001" to "Client 300", 40 of them on WordPress 6.7
// (every 15th site and the one after it), the other 260 current (6.9). For the tests of what a person reads at 300
// sites (test/cli/rollout-300.test.ts, test/action/rollout-summary.test.ts).
import type { SeedFile } from "../../emulator/index.js";
import { ownerSeed } from "./emulator.js";

export function agencySeed(token: string): SeedFile {
  const seed = ownerSeed("Agency", token, 300);
  seed.accounts[0]!.sites!.forEach((site, i) =>
    Object.assign(site, { name: `Client ${String(i + 1).padStart(3, "0")}`, wp_version: i % 15 < 2 ? "6.7" : "6.9" }),
  );
  return seed;
}
