// The CLI and the GitHub Action give the same record per site for the same rollout (issue 52): both are glue over
// the core's rolloutUpgrade and rolloutRows. The same fleet twice: an emulator's database copied before either runs,
// so both see the same sites with the same ids (the waves follow the ids), the same site at the target already and the
// same canary rolled back; `siteops upgrade rollout --report` on one copy, `command: rollout` on the other. What
// differs by nature (pipeline and request ids, durations, response times) is left out of the comparison.
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { parseWaves, planWaves, type RolloutRow } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";
import { removeDir, tempDir } from "../support/temp.js";
import { runAction } from "../action/run-action.js";
import { runCli, sandbox, type Sandbox } from "./helpers.js";

const TOKEN = "sot_rolloutSurfacesToken00001";
const dir = tempDir("rollout-surfaces");
let cliSide: RunningEmulator;
let actionSide: RunningEmulator;
let box: Sandbox;
let fleet: Site[];

beforeAll(async () => {
  const seed = ownerSeed("Surfaces", TOKEN, 6);
  seed.accounts[0]!.sites!.forEach((site, i) => Object.assign(site, { wp_version: i === 5 ? "6.8" : "6.5" }));
  const first = await startSeededEmulator(seed, { db: path.join(dir, "cli.db") });
  const client = new SiteOps({ baseUrl: first.url, apiToken: TOKEN });
  fleet = await client.sites.list({ per_page: 100 }).toArray();
  await client.close();
  await first.close();
  copyFileSync(path.join(dir, "cli.db"), path.join(dir, "action.db"));
  cliSide = await startSeededEmulator(seed, { db: path.join(dir, "cli.db") });
  actionSide = await startSeededEmulator(seed, { db: path.join(dir, "action.db") });
  box = sandbox();
});
afterAll(async () => {
  await cliSide?.close();
  await actionSide?.close();
  box?.cleanup();
  removeDir(dir);
});

/** A record without what differs from one run to another by nature. */
const comparable = (r: RolloutRow) => ({
  ...r,
  pipeline: r.pipeline && { status: r.pipeline.status, error: r.pipeline.error },
  checks: r.checks.map((c) => ({ gate: c.gate, ok: c.ok, reason: c.reason })),
  error: r.error && { code: r.error.code, status: r.error.status, reason: r.error.reason },
  duration_ms: 0,
});

it("siteops upgrade rollout and command: rollout give the same record per site", async () => {
  const below = fleet.filter((s) => s.wp_version === "6.5");
  const canary = planWaves(below, parseWaves("1,100%"), { wp: "6.8" })[0]![0]!;
  for (const emu of [cliSide, actionSide])
    await fetch(`${emu.url}/__emulator/pipeline-outcomes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ site_id: canary.id, outcome: "roll_back" }] }),
    });

  const file = path.join(box.dir, "report.json");
  const env = { ...box.env, SITEOPS_BASE_URL: cliSide.url, SITEOPS_API_TOKEN: TOKEN, SITEOPS_POLL_INTERVAL_MS: "20" };
  const cli = await runCli(
    ["upgrade", "rollout", "--all", "--to-wp", "6.8", "--waves", "1,100%", "--max-failures", "1", "--gate", "pipeline,health", "--report", file],
    {
      env,
    },
  );
  const action = await runAction(
    {
      "api-token": TOKEN,
      "base-url": actionSide.url,
      command: "rollout",
      site: "all",
      "wp-version": "6.8",
      waves: "1,100%",
      "max-failures": "1",
      gates: "pipeline,health",
    },
    { SITEOPS_POLL_INTERVAL_MS: "20" },
  );
  expect(cli.code, cli.stderr).toBe(1); // done, with a failure within the budget
  expect(action.code, action.stdout).toBe(0);

  const fromCli = (JSON.parse(readFileSync(file, "utf8")) as { results: RolloutRow[] }).results;
  const fromAction = (JSON.parse(action.outputs.result!) as { results: RolloutRow[] }).results;
  expect(fromCli.map((r) => [r.site.name, r.wave, r.outcome])).toEqual(
    expect.arrayContaining([
      [canary.name, 1, "failed"],
      [fleet[5]!.name, null, "already_upgraded"],
    ]),
  );
  expect(fromAction.map(comparable)).toEqual(fromCli.map(comparable));
});
