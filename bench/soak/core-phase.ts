// Soak phase 1: site creates, then updates, then deletes through the core (default settings), 8 at a time,
// each checked against the service's state afterwards (read with the faults off).
import { SiteOps } from "../../src/index.js";
import { mapPool } from "../../src/pool.js";
import type { PhaseResult } from "./report.js";
import { peakSampler, rssOf, type FaultedService } from "./service.js";

const CONCURRENCY = 8;

/** All sites of the account, read without faults. */
export async function allSites(service: FaultedService): Promise<{ id: string; name: string }[]> {
  await service.faultsOff();
  const observer = new SiteOps({ baseUrl: service.url, apiToken: service.token });
  try {
    return await observer.sites.list({ per_page: 100 }).toArray();
  } finally {
    await observer.close();
  }
}

export async function corePhase(service: FaultedService, count: number): Promise<PhaseResult> {
  const result: PhaseResult = { phase: `core: ${count} sites create + update + delete`, operations: 0, succeeded: 0, failed: 0, duplicates: 0, lost: 0, stale: 0, wallMs: 0, emulatorPeakRss: 0, clientPeakRss: 0, notes: [] };
  const emulatorRss = peakSampler(() => rssOf(service.pid));
  const clientRss = peakSampler(() => process.memoryUsage.rss());
  const started = performance.now();
  const so = new SiteOps({ baseUrl: service.url, apiToken: service.token });
  const errors: string[] = [];
  const attempt = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    result.operations++;
    try {
      const value = await fn();
      result.succeeded++;
      return value;
    } catch (err) {
      result.failed++;
      errors.push(`${(err as Error).name}: ${(err as Error).message}`);
      return undefined;
    }
  };
  const names = Array.from({ length: count }, (_, i) => `soak-core-${i}`);
  try {
    // creates
    await service.faultsOn();
    const created = new Map<string, string>();
    await mapPool(names, CONCURRENCY, async (name) => {
      const site = await attempt(() => so.sites.create({ name, url: `https://${name}.soak.test` }));
      if (site) created.set(name, site.id);
    });
    let sites = (await allSites(service)).filter((s) => s.name.startsWith("soak-core-"));
    for (const name of names) {
      const held = sites.filter((s) => s.name === name);
      result.duplicates += Math.max(0, held.length - 1);
      if (created.has(name) && !held.some((s) => s.id === created.get(name))) result.lost++;
    }
    // updates
    await service.faultsOn();
    const updated = new Set<string>();
    await mapPool([...created.values()], CONCURRENCY, async (id) => {
      if (await attempt(() => so.sites.update(id, { name: `soak-core-updated-${id}` }))) updated.add(id);
    });
    sites = await allSites(service);
    const names2 = new Map(sites.map((s) => [s.id, s.name]));
    for (const id of updated) if (names2.get(id) !== `soak-core-updated-${id}`) result.lost++;
    // deletes: every soak-core site the service holds, duplicates included
    await service.faultsOn();
    const deleted = new Set<string>();
    const toDelete = sites.filter((s) => s.name.startsWith("soak-core-")).map((s) => s.id);
    await mapPool(toDelete, CONCURRENCY, async (id) => {
      if (await attempt(() => so.sites.delete(id).then(() => true))) deleted.add(id);
    });
    const left = new Set((await allSites(service)).map((s) => s.id));
    result.stale = [...deleted].filter((id) => left.has(id)).length;
    const misreported = toDelete.filter((id) => !deleted.has(id) && !left.has(id)).length;
    if (misreported) result.notes.push(`${misreported} deletes reported as failed although the site is gone`);
  } finally {
    await so.close();
    result.wallMs = performance.now() - started;
    result.emulatorPeakRss = emulatorRss.stop();
    result.clientPeakRss = clientRss.stop();
  }
  if (errors.length) result.notes.push(`first errors: ${[...new Set(errors)].slice(0, 3).join(" / ")}`);
  return result;
}
