// `siteops upgrade rollout` as a person reads it at 300 sites (issue 49 item 6): 40 sites on an older WordPress, 260
// current. While a wave runs, its progress with counts and the time so far; at the end the totals, the failed sites
// grouped by reason (each reason once), the sites the run touched and a count of those it did not (not 299 rows of
// `untouched`), and the command that continues. The help says each default once.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { parseWaves, planWaves } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { agencySeed } from "../support/agency-fleet.js";
import { startSeededEmulator } from "../support/emulator.js";
import { runCli, runInTerminal, sandbox, type Sandbox } from "./helpers.js";

const TOKEN = "sot_rollout300Token0000000001";
let emu: RunningEmulator;
let box: Sandbox;
let env: NodeJS.ProcessEnv;
let below: Site[];

beforeEach(async () => {
  emu = await startSeededEmulator(agencySeed(TOKEN));
  const client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  below = (await client.sites.list({ per_page: 100 }).toArray()).filter((s) => s.wp_version === "6.7");
  await client.close();
  box = sandbox();
  env = { ...box.env, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: TOKEN, SITEOPS_POLL_INTERVAL_MS: "20" };
});
afterEach(async () => {
  box?.cleanup();
  await emu?.close();
});

const outcomes = (rules: unknown[]) =>
  fetch(`${emu.url}/__emulator/pipeline-outcomes`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rules }) });

it("a stopped rollout of 300 sites: the totals, the failure once, the touched sites listed, the untouched counted, the command", async () => {
  expect(below).toHaveLength(40);
  const canary = planWaves(below, parseWaves("1,10%,100%"), { wp: "6.9" })[0]![0]!;
  await outcomes([{ site_id: canary.id, outcome: "roll_back" }]);
  const r = await runCli(["upgrade", "rollout", "--all", "--to-wp", "6.9", "--gate", "pipeline,health"], { env, timeoutMs: 120_000 });
  expect(r.code, r.stderr).toBe(5);
  const lines = r.stderr.replace(/^\S+Z /gm, "").split("\n");
  const end = lines.slice(lines.findIndex((l) => l.startsWith("error: stopped at wave 1")));
  expect(end[0]).toMatch(
    /^error: stopped at wave 1: 1 failed of 1, at most 0 allowed: 300 sites: 1 failed, 260 already at WordPress 6\.9 or newer, 39 untouched; 1 pipeline opened, 0 adopted, in /,
  );
  expect(end[1]).toMatch(new RegExp(`^error: {3}1 site failed: pipeline rolled back: Verification failed: .* \\(${canary.name}\\)$`));
  expect(end[2]).toBe("error: left untouched: 39 sites (waves 2, 3); nothing was asked of the service for them");
  expect(end[3]).toBe(
    "error: to continue (once the failed sites are dealt with, or with a larger --max-failures), run the same command again; it adopts this run's pipelines and opens none twice:",
  );
  expect(end[4]).toBe("error:   siteops upgrade rollout --all --to-wp 6.9 --gate pipeline,health");
  expect(end.at(-2)).toBe("not listed: 39 sites untouched; 260 sites already at the target, in no wave (--json lists every site)");
  // stdout: the one site the run touched, not 300 rows.
  expect(r.stdout.trim().split("\n")).toEqual([
    expect.stringMatching(new RegExp(`^1\\t${canary.id}\\t${canary.name}\\tupg_\\w+\\tfailed\\tpipeline upg_\\w+ was rolled back`)),
  ]);
});

it("a wave of 40 upgrades shows its progress with counts and the time so far; a done rollout ends with its totals", async () => {
  const [first, second] = planWaves(below, parseWaves("100%"), { wp: "6.9" })[0]!.slice(-2);
  await outcomes([
    { site_id: first!.id, outcome: "roll_back" },
    { site_id: second!.id, outcome: "succeed", health: "failed" },
  ]);
  const file = path.join(box.dir, "report.json");
  const r = await runCli(
    ["upgrade", "rollout", "--all", "--to-wp", "6.9", "--waves", "100%", "--max-failures", "10%", "--gate", "pipeline,health", "--report", file],
    {
      env,
      timeoutMs: 120_000,
    },
  );
  expect(r.code, r.stderr).toBe(1);
  const progress = r.stderr.match(/wave 1\/1: \d+\/40 done(, \d+ failed)?, \d+ running, [\d.]+ (ms|s)$/gm) ?? [];
  // At every 10 % of the wave (or 30 s) in a log; on a terminal, the live header.
  expect(progress.length).toBeGreaterThanOrEqual(5);
  expect(progress.map((l) => Number(/(\d+)\/40/.exec(l)![1]))).toEqual([...progress.map((l) => Number(/(\d+)\/40/.exec(l)![1]))].sort((a, b) => a - b));
  expect(r.stderr).toMatch(/wave 1\/1: 40 sites, 38 passed, 2 failed \(at most 4 allowed\): passed/);
  expect(r.stderr).toMatch(/done: 300 sites: 38 passed, 2 failed, 260 already at WordPress 6\.9 or newer; 40 pipelines opened, 0 adopted, in /);
  expect(r.stderr).toMatch(/error: {3}1 site failed: health check after the upgrade: failed \(Client \d+\)/);
  expect(r.stderr).not.toMatch(/left untouched|no site was left untouched|to continue/);
  const doc = JSON.parse(readFileSync(file, "utf8")) as { summary: Record<string, number>; results: unknown[] };
  expect(doc.summary).toMatchObject({ sites: 300, passed: 38, failed: 2, already_upgraded: 260, opened: 40 });
  expect(doc.results).toHaveLength(300);
});

it("on a terminal, the wave's live header counts the sites done and running and the time so far", async () => {
  const r = await runInTerminal(["upgrade", "rollout", "--all", "--to-wp", "6.9", "--waves", "100%", "--gate", "pipeline"], env, { timeoutMs: 120_000 });
  expect(r.code, r.stdout).toBe(0);
  expect(r.stdout).toMatch(/wave 1\/1: \d+\/40 done, \d+ running, [\d.]+ (ms|s)/);
  expect(r.stdout).toMatch(/done: 300 sites: 40 passed, 260 already at WordPress 6\.9 or newer; 40 pipelines opened, 0 adopted/);
});

it("the help says each default once and names this job's default name", async () => {
  const r = await runCli(["upgrade", "rollout", "--help"], { env });
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/--check-path PATH +the paths of each site's URL the http gate asks for and the visual gate shoots \(default \/\) \(repeatable\)\n/);
  expect(r.stdout).not.toMatch(/repeatable.*repeatable/);
  expect(r.stdout).toMatch(/--job-name NAME +the job's name in metrics \(job_name label\), pings and notifications \(default upgrade-rollout\)/);
  expect(r.stdout).toMatch(/--timeout DURATION +the time for each wave, its pipelines then its checks; no pipeline is opened after it \(default 1h\)/);
});
