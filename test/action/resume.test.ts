// Issue 40 item 7: a re-run of a workflow run resumes. Attempt 1 of `site: all` is killed (SIGKILL, as a lost
// runner) partway, with one site's capture failing; attempt 2 of the same run, on a "fresh runner" (nothing kept
// between the runs but the service), adopts what attempt 1 requested and takes the rest: every site ends with
// exactly one live snapshot of the run. Attempt 3 takes nothing; another run takes a snapshot of every site.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { SiteOps, type Site, type Snapshot } from "../../src/index.js";
import { fleetEmulator, setFaults } from "./fleet-emulator.js";
import { runAction, RUN_URL } from "./run-action.js";

const TOKEN = "sot_actionResumeTestToken00001";
const SITES = 12;
const DESCRIPTION = `GitHub Actions: acme/website@9f86d08 (Deploy), run ${RUN_URL}`;

let emu: RunningEmulator;
let fleet: Site[];
let client: SiteOps;

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
  client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

const attempt = (n: number, env: Record<string, string> = {}, interrupt?: { when: RegExp; signal: NodeJS.Signals }) =>
  runAction(
    { "api-token": TOKEN, "base-url": emu.url, command: "snapshot", site: "all", concurrency: "2" },
    // One step of the workflow: each attempt runs it again.
    { SITEOPS_POLL_INTERVAL_MS: "20", GITHUB_ACTION: "snapshot-fleet", GITHUB_RUN_ATTEMPT: String(n), ...env },
    { interrupt },
  );

async function snapshotsBySite(): Promise<Map<string, Snapshot[]>> {
  const all = new Map<string, Snapshot[]>();
  for (const site of fleet) {
    const list: Snapshot[] = [];
    for await (const s of client.snapshots.list(site.id, { per_page: 100 })) list.push(s);
    all.set(site.id, list);
  }
  return all;
}

const health = (siteId: string, status: "failed" | "passed") =>
  fetch(`${emu.url}/__emulator/health_checks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ site_id: siteId, status }),
  });

it("adopts on a re-run what the killed attempt requested, retakes its failed snapshot, and takes the rest", async () => {
  const victim = fleet[0]!;
  await health(victim.id, "failed");
  // Every create is committed, then answered 300 ms late: the kill also catches requests whose answer attempt 1
  // never saw.
  await setFaults(emu, [{ method: "POST", path: "/api/v1/sites/*/snapshots", phase: "after", delay_ms: 300 }]);
  const first = await attempt(1, {}, { when: /(snapshot snap_\w+ created[\s\S]*){3}/, signal: "SIGKILL" });
  expect(first.code).not.toBe(0);
  expect(first.outputs).toEqual({});
  await setFaults(emu);
  await health(victim.id, "passed");

  const afterFirst = await snapshotsBySite();
  const requested = fleet.filter((s) => afterFirst.get(s.id)!.length > 0);
  expect(requested.length).toBeGreaterThanOrEqual(3);
  expect(requested.length).toBeLessThan(SITES);
  expect(afterFirst.get(victim.id)!.map((s) => s.status)).toEqual(["failed"]);

  const second = await attempt(2);
  expect([second.code, second.errors]).toEqual([0, []]);
  const adopted = requested.length - 1;
  expect(second.outputs.adopted).toBe(String(adopted));
  expect(second.summary).toContain(`${SITES} of ${SITES} snapshots completed, ${adopted} adopted from an earlier attempt.`);
  expect(second.stdout).toContain(`${adopted} of ${SITES} sites adopted their snapshot from an earlier attempt of this run.`);

  const afterSecond = await snapshotsBySite();
  const ids = JSON.parse(second.outputs["snapshot-ids"]!) as Record<string, string>;
  const result = JSON.parse(second.outputs.result!) as { adopted: number; snapshots: { site: { id: string }; adopted: boolean }[] };
  expect(result.adopted).toBe(adopted);
  for (const site of fleet) {
    const live = afterSecond.get(site.id)!.filter((s) => s.status !== "failed");
    // Exactly one live snapshot per site, the one the outputs name, described by the run (not its attempt).
    expect([site.name, live.map((s) => s.id)]).toEqual([site.name, [ids[site.id]]]);
    expect(live[0]!.description).toBe(DESCRIPTION);
    const wasAdopted = site.id !== victim.id && requested.includes(site);
    if (wasAdopted) expect(afterFirst.get(site.id)!.map((s) => s.id)).toEqual([ids[site.id]]);
    expect([site.name, result.snapshots.find((r) => r.site.id === site.id)!.adopted]).toEqual([site.name, wasAdopted]);
  }
  expect(
    afterSecond
      .get(victim.id)!
      .map((s) => s.status)
      .sort(),
  ).toEqual(["completed", "failed"]);

  // Attempt 3 of the same run finds every site's snapshot, the victim's retake included: nothing new.
  const third = await attempt(3);
  expect([third.code, third.outputs.adopted]).toEqual([0, String(SITES)]);
  expect(JSON.parse(third.outputs["snapshot-ids"]!)).toEqual(ids);
  const afterThird = await snapshotsBySite();
  for (const site of fleet) expect(afterThird.get(site.id)!.length).toBe(afterSecond.get(site.id)!.length);

  // Another run (a new GITHUB_RUN_ID) never adopts: a new snapshot of every site.
  const other = await attempt(1, { GITHUB_RUN_ID: "4243" });
  expect([other.code, other.outputs.adopted]).toEqual([0, "0"]);
  expect(other.summary).not.toContain("adopted");
  const afterOther = await snapshotsBySite();
  for (const site of fleet) expect(afterOther.get(site.id)!.length).toBe(afterThird.get(site.id)!.length + 1);
});
