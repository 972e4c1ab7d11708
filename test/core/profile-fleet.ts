// The fleet the issue-36 journeys run against, under each emulator profile (test/support/emulator.ts PROFILES):
// one account of 23 sites ("Site 1" ... at https://site-N.example.com), more than four pages of the minimal
// profile's 5, two of them renamed so a name can pass for an id: "site_lookalike" (no site has that id) and
// Site 22, renamed to Site 5's id (the id must win). Shared by test/core, test/cli and test/action.
import type { ProfileName, RunningEmulator } from "../../emulator/index.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";
import { SiteOps, type Site } from "../../src/index.js";

export const FLEET_TOKEN = "sot_profileFleetOwnerToken01";
export const FLEET_EMAIL = "owner@acme.test";
export const FLEET_PASSWORD = "owner-password-1";
export const FLEET_SIZE = 23;
/** A name shaped like a site id that no site has as its id. */
export const LOOKALIKE = "site_lookalike";

export interface ProfileFleet {
  profile: ProfileName;
  emu: RunningEmulator;
  url: string;
  /** A client with the owner's token. */
  so: SiteOps;
  /** The 23 sites as listed after the renames, oldest first. */
  sites: Site[];
  /** Site 5, whose id Site 22 carries as its name. */
  idOwner: Site;
  /** Site 22, named after Site 5's id. */
  idNamed: Site;
  /** Site 23, named LOOKALIKE. */
  lookalike: Site;
  close(): Promise<void>;
}

/** Starts the emulator under `profile` with the fleet; snapshots complete at once (stepSeconds 0). */
export async function startProfileFleet(profile: ProfileName): Promise<ProfileFleet> {
  const emu = await startSeededEmulator(ownerSeed("Acme", FLEET_TOKEN, FLEET_SIZE), { profile });
  const so = new SiteOps({ baseUrl: emu.url, apiToken: FLEET_TOKEN });
  // Listed here page by page with explicit page numbers, apart from the client's own pagination under test.
  const seeded: Site[] = [];
  for (let page = 1; seeded.length < FLEET_SIZE; page++) {
    const rows = (await so.sites.list({ page, per_page: 100 })).data;
    if (rows.length === 0) throw new Error(`the emulator listed ${seeded.length} of ${FLEET_SIZE} sites`);
    seeded.push(...rows);
  }
  const byName = (name: string) => seeded.find((s) => s.name === name)!;
  const idOwner = byName("Site 5");
  const idNamed = await so.sites.update(byName("Site 22").id, { name: idOwner.id });
  const lookalike = await so.sites.update(byName("Site 23").id, { name: LOOKALIKE });
  const sites = seeded.map((s) => (s.id === idNamed.id ? idNamed : s.id === lookalike.id ? lookalike : s));
  return {
    profile,
    emu,
    url: emu.url,
    so,
    sites,
    idOwner,
    idNamed,
    lookalike,
    async close() {
      await so.close();
      await emu.close();
    },
  };
}
