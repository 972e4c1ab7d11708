// A re-run of a rollout wave's job through the bundled action (issue 40's lesson, issue 42): attempt 2 of the same
// workflow run adopts every site's pipeline from attempt 1, the rolled-back one included (judged again: the step
// fails again), and opens none, also past the service's 24 h idempotency window (GitHub allows re-runs for 30 days,
// issue 47); another workflow run (a new GITHUB_RUN_ID) opens a new pipeline for the failed site only. The sites
// come from a shard file written before the rollout, as the example workflow's plan job does.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { parseWaves, planWaves, writeShardFiles } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";
import { runAction } from "./run-action.js";

const TOKEN = "sot_actionRolloutRerunToken001";
const WAVES = "1,100%";

let emu: RunningEmulator;
let client: SiteOps;
let fleet: Site[];
let dir: string;

beforeAll(async () => {
  const seed = ownerSeed("Rerun", TOKEN, 5);
  for (const site of seed.accounts![0]!.sites!) Object.assign(site, { wp_version: "6.5" });
  emu = await startSeededEmulator(seed);
  client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  fleet = await client.sites.list({ per_page: 100 }).toArray();
  dir = mkdtempSync(path.join(tmpdir(), "siteops-action-rollout-rerun-"));
  writeShardFiles(dir, fleet, 1);
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Result {
  results: { site: { id: string }; outcome: string; adopted: boolean; pipeline: { id: string; status: string } | null }[];
}

/** The wave-2 job of workflow run `runId`, attempt `attempt`: the same step (GITHUB_ACTION) every time. */
const waveTwo = (runId: string, attempt: number, sitesDir = dir) =>
  runAction(
    {
      "api-token": TOKEN,
      "base-url": emu.url,
      command: "rollout",
      "sites-file": path.join(sitesDir, "shard-1-of-1.json"),
      "wp-version": "6.9",
      waves: WAVES,
      wave: "2",
      gates: "pipeline,health",
    },
    { SITEOPS_POLL_INTERVAL_MS: "20", GITHUB_RUN_ID: runId, GITHUB_RUN_ATTEMPT: String(attempt), GITHUB_JOB: "wave-2", GITHUB_ACTION: "__siteops_siteops" },
  );
const pipelines = async (site: Site) => (await client.upgradePipelines.list(site.id).toArray()).filter((p) => p.to_wp_version === "6.9");

it("attempt 2 of the same run adopts every pipeline of attempt 1, the rolled-back one too; another run opens one for it", async () => {
  const wave = planWaves(fleet, parseWaves(WAVES), { wp: "6.9" })[1]!;
  const victim = wave[0]!;
  await fetch(`${emu.url}/__emulator/pipeline-outcomes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules: [{ site_id: victim.id, outcome: "roll_back", count: 1 }] }),
  });

  const first = await waveTwo("7001", 1);
  expect([first.code, first.outputs.status]).toEqual([1, "stopped"]);
  const opened = new Map<string, string[]>();
  for (const site of wave)
    opened.set(
      site.id,
      (await pipelines(site)).map((p) => p.id),
    );
  expect([...opened.values()].map((ids) => ids.length)).toEqual(wave.map(() => 1));

  // "Re-run failed jobs": a fresh runner, the same run id, job and step, the next attempt.
  const second = await waveTwo("7001", 2);
  expect([second.code, second.outputs.status]).toEqual([1, "stopped"]);
  const result = JSON.parse(second.outputs.result!) as Result;
  const sites = result.results;
  expect(sites.every((s) => s.adopted)).toBe(true);
  expect(sites.map((s) => [s.site.id, s.pipeline?.id]).sort()).toEqual(wave.map((s) => [s.id, opened.get(s.id)![0]]).sort());
  const again = sites.find((s) => s.site.id === victim.id)!;
  expect([again.outcome, again.pipeline?.status]).toEqual(["failed", "rolled_back"]);
  expect(second.stdout).toContain(`pipeline ${opened.get(victim.id)![0]} adopted (rolled_back), not opened again`);
  for (const site of wave) expect((await pipelines(site)).map((p) => p.id)).toEqual(opened.get(site.id));

  // Attempt 3, 25 hours later: the service has forgotten the requests' keys. Every site that passed passes again (not
  // `422 ... is already the site's version`), the rolled-back one fails again, and no site gets a second pipeline.
  await fetch(`${emu.url}/__emulator/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"advance_seconds":90000}' });
  const third = await waveTwo("7001", 3);
  expect([third.code, third.outputs.status]).toEqual([1, "stopped"]);
  const late = (JSON.parse(third.outputs.result!) as Result).results;
  expect(late.map((s) => [s.site.id, s.outcome, s.adopted]).sort()).toEqual(wave.map((s) => [s.id, s.id === victim.id ? "failed" : "passed", true]).sort());
  for (const site of wave) expect((await pipelines(site)).map((p) => p.id)).toEqual(opened.get(site.id));

  // The next workflow run (its plan job lists the sites afresh) asks afresh: the rolled-back site gets a new
  // pipeline, which succeeds; the others are at the target already.
  const nextDir = path.join(dir, "next");
  writeShardFiles(nextDir, await client.sites.list({ per_page: 100 }).toArray(), 1);
  const next = await waveTwo("7002", 1, nextDir);
  expect([next.code, next.errors]).toEqual([0, []]);
  for (const site of wave) expect((await pipelines(site)).length).toBe(site.id === victim.id ? 2 : 1);
});
