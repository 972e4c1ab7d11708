// `command: rollout` through the bundled action against the emulator: one job per wave ('wave: K') upgrades the
// waves of one plan in turn, each job's summary a table of its wave; a canary that rolls back stops the rollout
// (the step fails, the later waves untouched); bad inputs are refused at once, naming the input.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { planWaves, parseWaves, writeShardFiles } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { runAction } from "./run-action.js";

const TOKEN = "sot_actionRolloutTestToken0001";
const SITES = 6;

let emu: RunningEmulator;
let client: SiteOps;
let fleet: Site[];
/** The fleet as listed before any rollout (a plan job's `siteops sites matrix --shards 1 --out`). */
let sitesFile: string;

beforeAll(async () => {
  emu = await startSeededEmulator({
    accounts: [
      {
        name: "Rollout",
        users: [{ email: "owner@rollout.test", password: "owner-password-1", name: "Owner", role: "owner" }],
        api_tokens: [{ token: TOKEN, user_email: "owner@rollout.test" }],
        sites: Array.from({ length: SITES }, (_, i) => ({
          name: `Fleet ${i + 1}`,
          url: `https://fleet-${i + 1}.example.com`,
          wp_version: "6.7",
          php_version: "8.2",
        })),
      },
    ],
  });
  client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  fleet = await client.sites.list({ per_page: 100 }).toArray();
  const dir = mkdtempSync(path.join(tmpdir(), "siteops-action-rollout-"));
  writeShardFiles(dir, fleet, 1);
  sitesFile = path.join(dir, "shard-1-of-1.json");
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
  if (sitesFile) rmSync(path.dirname(sitesFile), { recursive: true, force: true });
});

const run = (inputs: Record<string, string>) =>
  runAction(
    { "api-token": TOKEN, "base-url": emu.url, command: "rollout", site: "all", gates: "pipeline,health", ...inputs },
    { SITEOPS_POLL_INTERVAL_MS: "20" },
  );

interface Result {
  status: string;
  waves: { wave: number; verdict: string }[];
  results: { site: { id: string }; wave: number | null; outcome: string; pipeline: { status: string } | null }[];
}

describe("command: rollout", () => {
  it("one job per wave: each upgrades its wave of the plan, judged on its pipeline and health check", async () => {
    const plan = planWaves(fleet, parseWaves("1,50%,100%"), { wp: "6.8" });
    expect(plan.map((w) => w.length)).toEqual([1, 2, 3]);
    // Listed afresh, the sites the canary's job upgraded would have left the plan: a wave's job needs the listing.
    const fresh = await run({ "wp-version": "6.8", waves: "1,50%,100%", wave: "2" });
    expect(fresh.errors[0]).toContain("'wave' needs 'sites-file'");
    for (const [i, members] of plan.entries()) {
      const job = await run({ site: "", "sites-file": sitesFile, "wp-version": "6.8", waves: "1,50%,100%", wave: String(i + 1) });
      expect([job.code, job.errors]).toEqual([0, []]);
      const result = JSON.parse(job.outputs.result!) as Result;
      expect([job.outputs.status, result.waves.map((w) => [w.wave, w.verdict])]).toEqual(["done", [[i + 1, "passed"]]]);
      // This job's wave is the plan's, the same canaries in every job.
      expect(result.results.map((s) => s.site.id).sort()).toEqual(members.map((s) => s.id).sort());
      expect(result.results.every((s) => s.outcome === "passed" && s.pipeline?.status === "succeeded")).toBe(true);
      expect(job.summary).toContain(
        `wave ${i + 1}/3: ${members.length} site${members.length === 1 ? "" : "s"}, ${members.length} passed, 0 failed (at most 0 allowed): passed`,
      );
      expect(job.stdout).toContain(
        `wave ${i + 1}/3: ${members.length} site${members.length === 1 ? "" : "s"} (${members.map((s) => s.name).join(", ")}), at most 0 may fail`,
      );
      // The later waves' sites are untouched until their job.
      const later = plan.slice(i + 1).flat();
      for (const site of later) expect((await client.sites.get(site.id)).wp_version).toBe("6.7");
    }
    for (const site of fleet) expect((await client.sites.get(site.id)).wp_version).toBe("6.8");
    // A wave past the plan's last is a failure naming the input.
    const past = await run({ site: "", "sites-file": sitesFile, "wp-version": "6.8", waves: "1,50%,100%", wave: "4" });
    // (`%` is written `%25` in a workflow command; the runner shows `%`.)
    expect(past.errors.map((e) => e.replace(/%25/g, "%"))).toEqual([
      `'wave': there is no wave 4: the rollout has 3 waves over the ${SITES} sites that need the upgrade ('waves' 1,50%,100%).`,
    ]);
  });

  it("dry-run shows the plan's waves, the same as every wave's job takes, and opens nothing", async () => {
    const plan = planWaves(fleet, parseWaves("2,100%"), { php: "8.4" });
    const r = await run({ "php-version": "8.4", waves: "2,100%", "dry-run": "true" });
    expect([r.code, r.errors, r.outputs.status]).toEqual([0, [], "planned"]);
    const result = JSON.parse(r.outputs.result!) as { results: { wave: number | null; site: { id: string } }[] };
    expect(plan.map((_, i) => result.results.filter((x) => x.wave === i + 1).map((x) => x.site.id))).toEqual(plan.map((w) => w.map((s) => s.id)));
    expect(r.summary).toContain("(dry run: nothing opened)");
    const second = await run({ site: "", "sites-file": sitesFile, "php-version": "8.4", waves: "2,100%", "dry-run": "true", wave: "2" });
    expect([...new Set((JSON.parse(second.outputs.result!) as { results: { wave: number }[] }).results.map((x) => x.wave))]).toEqual([2]);
    for (const site of fleet) expect((await client.upgradePipelines.list(site.id).toArray()).filter((p) => p.to_php_version === "8.4")).toEqual([]);
  });

  it("stops when the canary rolls back: the step fails and the later waves are not touched", async () => {
    const plan = planWaves(fleet, parseWaves("1,100%"), { php: "8.3" });
    const canary = plan[0]![0]!;
    await fetch(`${emu.url}/__emulator/pipeline-outcomes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ site_id: canary.id, outcome: "roll_back" }] }),
    });
    const r = await run({ "php-version": "8.3", waves: "1,100%" });
    expect(r.code).toBe(1);
    expect(r.outputs.status).toBe("stopped");
    const result = JSON.parse(r.outputs.result!) as Result;
    expect(result.waves.map((w) => w.verdict)).toEqual(["stopped", "not_started"]);
    expect(result.results.filter((s) => s.wave === 2).every((s) => s.outcome === "untouched")).toBe(true);
    expect(r.errors.at(-1)).toMatch(
      /^The rollout to PHP 8\.3 stopped at wave 1: 1 failed of 1, at most 0 allowed: 6 sites: 1 failed, 5 untouched; 1 pipeline opened, 0 adopted\. 1 site failed: pipeline rolled back: .+ \(Fleet \d\)\.$/,
    );
    expect(r.summary).toContain("wave 2/2: 5 sites, 0 passed, 0 failed (at most 0 allowed), 5 not started: not started");
    for (const site of plan[1]!) expect((await client.upgradePipelines.list(site.id).toArray()).filter((p) => p.to_php_version === "8.3")).toEqual([]);
  });

  it("refuses bad inputs at once, naming each, before any request", async () => {
    const r = await run({ waves: "1,10%", gates: "pipeline,smoke", "max-failures": "lots", wave: "0" });
    expect(r.errors).toHaveLength(1);
    for (const part of [
      "give the target: 'wp-version' X.Y and/or 'php-version' X.Y",
      "'waves': the last wave must be 100%",
      `'gates' must name pipeline, health, http, visual (got "smoke")`,
      `'max-failures': failure budget "lots"`,
      "'wave' must be a wave's number, from 1 to 20",
    ])
      expect(r.errors[0]).toContain(part);
    const paths = await run({ "wp-version": "6.9", gates: "health", "check-paths": "/shop" });
    expect(paths.errors[0]).toContain("'check-paths' is for the http and visual gates: add http or visual to 'gates'");
  });
});
