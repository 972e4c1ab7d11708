// An emulator on port 0 holding one account with `count` sites ("Site 1".."Site N") and one owner token, for
// the action's fleet tests (shards, the fleet workflow, hostile names), and the sites as the API lists them.
import type { RunningEmulator } from "../../emulator/index.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";
import { SiteOps, type Site } from "../../src/index.js";

export async function fleetEmulator(token: string, count: number): Promise<{ emu: RunningEmulator; fleet: Site[] }> {
  const emu = await startSeededEmulator(ownerSeed("Fleet", token, count));
  const client = new SiteOps({ baseUrl: emu.url, apiToken: token });
  const fleet: Site[] = [];
  try {
    for await (const site of client.sites.list({ per_page: 100 })) fleet.push(site);
  } finally {
    await client.close();
  }
  return { emu, fleet };
}

/** Adds fault rules to the emulator (its control API), or clears them (no rules). */
export async function setFaults(emu: RunningEmulator, rules?: object[]): Promise<void> {
  await fetch(
    `${emu.url}/__emulator/faults`,
    rules ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rules }) } : { method: "DELETE" },
  );
}
