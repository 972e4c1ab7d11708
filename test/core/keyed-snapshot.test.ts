// snapshotFleet's `requestKey` against the emulator (what the action's re-runs stand on): a rerun with the same
// keys adopts the snapshots the first run's requests made, as they are now; a snapshot that failed or was deleted
// since is taken again under the next generation's key, which a third run then finds; other keys take new ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Site } from "../../src/index.js";
import { snapshotFleet, type SnapshotRequestName } from "../../src/fleet.js";
import { startTestEmulator, type TestEmulator } from "./helpers.js";

let env: TestEmulator;
let sites: Site[];

beforeAll(async () => {
  env = await startTestEmulator();
  sites = ((await env.so.sites.list()).data as Site[]).slice(0, 2);
});
afterAll(async () => env.close());

const keys = (run: string) => {
  const asked: SnapshotRequestName[] = [];
  const requestKey = (name: SnapshotRequestName) => {
    asked.push(name);
    return `test-${run}-${name.site.id}-${name.generation}`;
  };
  return { asked, requestKey };
};

const snapshotIds = async (site: Site) => (await env.so.snapshots.list(site.id).toArray()).map((s) => s.id).sort();

describe("snapshotFleet with requestKey", () => {
  it("adopts on a rerun, takes a deleted one again under the next generation, and a third run finds that one", async () => {
    const [a, b] = sites as [Site, Site];
    const first = await snapshotFleet(env.so, sites, { description: "keyed", pollInterval: 10, ...keys("r1") });
    expect(first.map((r) => [r.outcome, r.adopted])).toEqual([
      ["completed", false],
      ["completed", false],
    ]);
    const before = await snapshotIds(b);

    // Site a's snapshot is deleted: the rerun's first-generation key answers with it, gone, so generation 2 asks.
    await env.so.snapshots.delete(a.id, first[0]!.snapshot!.id);
    const second = keys("r1");
    const events: string[] = [];
    const rerun = await snapshotFleet(env.so, sites, {
      description: "keyed",
      pollInterval: 10,
      requestKey: second.requestKey,
      onProgress: (e) => e.type === "site.adopted" && events.push(e.site.id),
    });
    expect(rerun.map((r) => [r.site.id, r.outcome, r.adopted])).toEqual([
      [a.id, "completed", false],
      [b.id, "completed", true],
    ]);
    expect(rerun[1]!.snapshot!.id).toBe(first[1]!.snapshot!.id);
    expect(rerun[0]!.snapshot!.id).not.toBe(first[0]!.snapshot!.id);
    expect(events).toEqual([b.id]);
    expect(second.asked.map((n) => [n.site.id, n.generation])).toEqual(
      expect.arrayContaining([
        [a.id, 1],
        [a.id, 2],
        [b.id, 1],
      ]),
    );
    expect(await snapshotIds(b)).toEqual(before);

    // A third run finds generation 2's snapshot of site a: nothing new anywhere.
    const third = await snapshotFleet(env.so, sites, { description: "keyed", pollInterval: 10, ...keys("r1") });
    expect(third.map((r) => [r.snapshot!.id, r.adopted])).toEqual([
      [rerun[0]!.snapshot!.id, true],
      [first[1]!.snapshot!.id, true],
    ]);

    // Other keys (another run) take new snapshots.
    const other = await snapshotFleet(env.so, sites, { description: "keyed", pollInterval: 10, ...keys("r2") });
    expect(other.every((r) => !r.adopted)).toBe(true);
    expect((await snapshotIds(b)).length).toBe(before.length + 1);
  });
});
