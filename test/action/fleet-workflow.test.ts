// examples/workflows/nightly-fleet.yml end to end, as far as it runs off GitHub: its shard jobs are the bundled
// action with `shard` and `result-file` (one site's snapshot fails by an injected fault), its artifacts are
// the result files in results/<artifact>/, and its summary job's script (read from the YAML) runs in bash with
// jq: one table of failures in the job summary, every shard counted, the run failed.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunningEmulator } from "../../emulator/index.js";
import { updateSiteRow } from "../../emulator/store/sites.js";
import { shardMatrix, shardOf, type Site } from "../../src/index.js";
import { fleetEmulator, setFaults } from "./fleet-emulator.js";
import { runAction } from "./run-action.js";
import { removeDir, tempDir } from "../support/temp.js";

const WORKFLOW = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/workflows/nightly-fleet.yml");
const TOKEN = "sot_actionFleetWorkflowToken01";
const SITES = 30;
const SHARDS = 3;

let emu: RunningEmulator;
let dir: string;
let fleet: Site[];

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
  dir = tempDir("fleet-workflow");
});
afterAll(async () => {
  await emu?.close();
  if (dir) removeDir(dir);
});

function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("bash", ["-e", "-c", script], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it("runs a shard per matrix entry and merges their results into one table of failures", async () => {
  const workflow = parse(readFileSync(WORKFLOW, "utf8")) as {
    jobs: Record<string, { strategy?: { "max-parallel"?: number }; steps: { name?: string; uses?: string; run?: string; with?: Record<string, unknown> }[] }>;
  };
  const shardStep = workflow.jobs.snapshots!.steps.find((s) => s.uses?.includes("siteops"))!;
  expect(shardStep.with).toMatchObject({ command: "snapshot", site: "all", shard: "${{ matrix.shard }}", "result-file": "result.json" });
  expect(workflow.jobs.snapshots!.strategy?.["max-parallel"]).toBeGreaterThan(0);
  const merge = workflow.jobs.summary!.steps.find((s) => s.run)!.run!;

  // One site of shard 2 fails, and it has a name that would break out of an HTML cell.
  const victim = fleet.find((s) => shardOf(s.id, SHARDS) === 2)!;
  updateSiteRow(emu.context.db, victim.id, { name: "Broken <b>site</b>\n\n# not a heading" });
  await setFaults(emu, [{ method: "POST", path: `/api/v1/sites/${victim.id}/snapshots`, status: 422 }]);
  const runs = await Promise.all(
    shardMatrix(SHARDS).include.map(async ({ shard }, jobIndex) => {
      const artifact = path.join(dir, "results", `snapshot-result-${jobIndex}`);
      mkdirSync(artifact, { recursive: true });
      const r = await runAction(
        { ...shardStep.with, shard, "api-token": TOKEN, "result-file": path.join(artifact, "result.json"), concurrency: "8" } as Record<string, string>,
        { SITEOPS_BASE_URL: emu.url, SITEOPS_POLL_INTERVAL_MS: "20" },
      );
      return { shard, r };
    }),
  );
  await setFaults(emu);
  for (const { shard, r } of runs) expect(r.code, shard).toBe(shard === `2/${SHARDS}` ? 1 : 0);

  const summary = path.join(dir, "summary.md");
  writeFileSync(summary, "");
  const r = await bash(merge, { SHARDS: String(SHARDS), GITHUB_STEP_SUMMARY: summary }, dir);
  expect(r.code).toBe(1);
  expect(r.stdout.trim()).toBe(`::error::1 of ${SITES} snapshots failed: see the job summary.`);
  const table = readFileSync(summary, "utf8");
  expect(table).toContain(`${SITES - 1} of ${SITES} snapshots completed in ${SHARDS} of ${SHARDS} shards, 1 failed.`);
  const rows = table.match(/<tr><td>.*<\/td><\/tr>/g)!;
  expect(rows).toHaveLength(1);
  expect(rows[0]).toContain(`<td>2/${SHARDS}</td><td>Broken &lt;b&gt;site&lt;/b&gt;  # not a heading</td>`);
  expect(rows[0]).toMatch(/Site Operations API 422: Injected fault/);
  expect(table).not.toContain("\n\n#");

  // A shard that reported nothing fails the run too.
  rmSync(path.join(dir, "results", "snapshot-result-0"), { recursive: true });
  writeFileSync(summary, "");
  const missing = await bash(merge, { SHARDS: String(SHARDS), GITHUB_STEP_SUMMARY: summary }, dir);
  expect(missing.code).toBe(1);
  expect(missing.stdout).toContain(`::error::Only 2 of ${SHARDS} shards reported a result.`);
});
