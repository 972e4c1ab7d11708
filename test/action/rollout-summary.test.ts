// The job summary of `command: rollout` as a person reads it at 300 sites (issue 49 item 6): 40 sites on an older
// WordPress, 260 current, a wave stopped by two rollbacks. The totals line first, then each wave's verdict, the
// failed sites under their reason said once, before the passed sites, which are folded with the sites already at
// the target; the count of untouched sites and how to continue. A few kilobytes, not a 300-row table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { parseWaves, planWaves, writeShardFiles } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { agencySeed } from "../support/agency-fleet.js";
import { startSeededEmulator } from "../support/emulator.js";
import { runAction } from "./run-action.js";

const TOKEN = "sot_actionRolloutSummary00001";
let emu: RunningEmulator;
let fleet: Site[];
let dir: string;

beforeAll(async () => {
  emu = await startSeededEmulator(agencySeed(TOKEN));
  const client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  fleet = await client.sites.list({ per_page: 100 }).toArray();
  await client.close();
  dir = mkdtempSync(path.join(tmpdir(), "siteops-action-rollout-summary-"));
  writeShardFiles(dir, fleet, 1);
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("at 300 sites: the totals first, failures by reason before the folded passes, the untouched counted, how to continue", async () => {
  const below = fleet.filter((s) => s.wp_version === "6.7");
  const [, wave2] = planWaves(below, parseWaves("1,10%,100%"), { wp: "6.9" });
  const failing = wave2!.slice(0, 2);
  await fetch(`${emu.url}/__emulator/pipeline-outcomes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules: failing.map((s) => ({ site_id: s.id, outcome: "roll_back" })) }),
  });
  const r = await runAction(
    {
      "api-token": TOKEN,
      "base-url": emu.url,
      command: "rollout",
      "sites-file": path.join(dir, "shard-1-of-1.json"),
      "wp-version": "6.9",
      gates: "pipeline,health",
      concurrency: "1",
    },
    { SITEOPS_POLL_INTERVAL_MS: "20" },
  );
  expect([r.code, r.outputs.status]).toEqual([1, "stopped"]);
  const summary = r.summary;
  const paragraphs = summary.split("\n").filter(Boolean);
  expect(paragraphs[0]).toBe("<h3>Site Operations: rollout to WordPress 6.9</h3>");
  expect(paragraphs[1]).toBe(
    "<p><b>Stopped</b>: 300 sites: 1 passed, 1 failed, 260 already at WordPress 6.9 or newer, 38 untouched; 2 pipelines opened, 0 adopted.</p>",
  );
  expect(paragraphs[2]).toBe(
    [
      "<p>wave 1/3: 1 site, 1 passed, 0 failed (at most 0 allowed): passed",
      "<br>wave 2/3: 3 sites, 0 passed, 1 failed (at most 0 allowed), 2 not started: STOPPED: failures over the budget",
      "<br>wave 3/3: 36 sites, 0 passed, 0 failed (at most 0 allowed), 36 not started: not started</p>",
    ].join(""),
  );
  // The failure's reason once, its sites below it; then the passed sites and the current ones, folded.
  const reason = summary.match(/pipeline rolled back: Verification failed/g) ?? [];
  expect(reason).toHaveLength(1);
  expect(summary.indexOf("<h4>1 failed: pipeline rolled back")).toBeLessThan(summary.indexOf("<details><summary>1 passed</summary>"));
  expect(summary).toContain("<details><summary>260 already at WordPress 6.9 or newer</summary>");
  expect(summary).toContain("<p>38 untouched (waves 2, 3): nothing was asked of the service for them.</p>");
  expect(summary).toContain("re-run the failed jobs of this workflow run (<code>gh run rerun 4242 --failed</code>)");
  expect(Buffer.byteLength(summary)).toBeLessThan(24 * 1024);
});
