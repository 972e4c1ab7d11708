// rolloutUpgrade's `requestKey` against the emulator (what the action's re-runs stand on): a rerun with the same
// keys adopts each site's pipeline from the first run's request, as it is now, a rolled-back one included (judged
// again, failed again), and opens none; other keys (another workflow run) open a new one for the failed site.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type PipelineRequestName, parseWaves, rolloutUpgrade } from "../../src/fleet.js";
import type { Site } from "../../src/index.js";
import { startTestEmulator, type TestEmulator } from "./helpers.js";

let emu: TestEmulator;
let sites: Site[];

beforeAll(async () => {
  emu = await startTestEmulator();
  sites = [];
  for (let i = 1; i <= 2; i++) sites.push(await emu.so.sites.create({ name: `Keyed ${i}`, url: `https://keyed${i}.acme.test`, wp_version: "6.5" }));
});
afterAll(async () => emu?.close());

const keys = (run: string) => {
  const asked: PipelineRequestName[] = [];
  return { asked, requestKey: (name: PipelineRequestName) => (asked.push(name), `test-${run}-${name.site.id}`) };
};
const rollout = (list: readonly Site[], requestKey: (name: PipelineRequestName) => string, adopted: string[] = []) =>
  rolloutUpgrade(emu.so, list, {
    target: { wp: "6.8" },
    waves: parseWaves("100%"),
    gates: [],
    maxFailures: { count: 2 },
    pollInterval: 10,
    requestKey,
    onProgress: (e) => e.type === "site.adopted" && adopted.push(e.site.id),
  });
const pipelines = async (site: Site) => (await emu.so.upgradePipelines.list(site.id).toArray()).map((p) => `${p.id} ${p.status}`);

it("a rerun with the same keys adopts every site's pipeline, the rolled-back one too; another run's keys open one for it", async () => {
  const [good, bad] = sites as [Site, Site];
  await emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: bad.id, outcome: "roll_back" }] });
  const first = keys("run1");
  const one = await rollout(sites, first.requestKey);
  const outcome = (r: Awaited<ReturnType<typeof rollout>>, site: Site) => r.sites.find((x) => x.site.id === site.id)!;
  expect([outcome(one, good).outcome, outcome(one, good).adopted, outcome(one, bad).outcome, outcome(one, bad).adopted]).toEqual([
    "passed",
    false,
    "failed",
    false,
  ]);
  expect(first.asked.map((n) => [n.site.id, n.params])).toEqual(
    expect.arrayContaining([
      [good.id, { to_wp_version: "6.8", requires_approval: false }],
      [bad.id, { to_wp_version: "6.8", requires_approval: false }],
    ]),
  );
  const before = await Promise.all(sites.map(pipelines));
  expect(before.map((p) => p.length)).toEqual([1, 1]);
  expect(before[1]![0]).toMatch(/ rolled_back$/);

  // The same run again (the sites as its job listed them, before the upgrade): nothing opened.
  await emu.control("DELETE", "pipeline-outcomes");
  const adopted: string[] = [];
  const two = await rollout(sites, keys("run1").requestKey, adopted);
  expect([outcome(two, good).outcome, outcome(two, good).adopted]).toEqual(["passed", true]);
  expect([outcome(two, bad).outcome, outcome(two, bad).adopted, outcome(two, bad).pipeline!.status]).toEqual(["failed", true, "rolled_back"]);
  expect(adopted.sort()).toEqual(sites.map((s) => s.id).sort());
  expect(await Promise.all(sites.map(pipelines))).toEqual(before);

  // Another run (its own keys, the sites listed now): the failed site gets a new pipeline, the upgraded one none.
  const now = await Promise.all(sites.map((s) => emu.so.sites.get(s.id)));
  const three = await rollout(now, keys("run2").requestKey);
  expect([outcome(three, good).outcome, outcome(three, bad).outcome]).toEqual(["already_upgraded", "passed"]);
  expect((await pipelines(good)).length).toBe(1);
  expect((await pipelines(bad)).length).toBe(2);
});
