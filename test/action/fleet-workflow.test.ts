// examples/workflows/nightly-fleet.yml end to end, as far as it runs off GitHub: its plan job's script (read from
// the YAML) runs in bash with the built CLI in place of the one npx builds from the tag, listing the fleet once
// into shard files; its shard jobs are the bundled action with `sites-file` (the artifact's file) and
// `result-file` (one site's snapshot fails by an injected fault) and send no listing request (the emulator's
// request log); its artifacts are the result files in results/<artifact>/, and its summary job's script runs
// in bash with jq: one table of failures in the job summary, every shard counted, the run failed.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunningEmulator } from "../../emulator/index.js";
import { updateSiteRow } from "../../emulator/store/sites.js";
import { type Site } from "../../src/index.js";
import { shardOf } from "../../src/fleet.js";
import { fleetEmulator, setFaults } from "./fleet-emulator.js";
import { runAction } from "./run-action.js";
import { removeDir, tempDir } from "../support/temp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WORKFLOW = path.join(ROOT, "examples/workflows/nightly-fleet.yml");
const LISTING = /^GET \/api\/v1\/sites(\?|$)/;
const TOKEN = "sot_actionFleetWorkflowToken01";
const SITES = 30;
const SHARDS = 3;

let emu: RunningEmulator;
let dir: string;
let fleet: Site[];
const requests: string[] = [];

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
  emu.app.server.on("request", (req: { method?: string; url?: string }) => requests.push(`${req.method} ${req.url}`));
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
  type Step = { id?: string; name?: string; uses?: string; run?: string; with?: Record<string, unknown> };
  const workflow = parse(readFileSync(WORKFLOW, "utf8")) as { jobs: Record<string, { strategy?: { "max-parallel"?: number }; steps: Step[] }> };
  const plan = workflow.jobs.plan!.steps;
  const matrixStep = plan.find((s) => s.id === "matrix")!;
  expect(plan.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!.with).toMatchObject({ name: "shards", path: "shards/" });
  const shardSteps = workflow.jobs.snapshots!.steps;
  expect(shardSteps[0]!).toMatchObject({ uses: expect.stringMatching(/^actions\/download-artifact@/), with: { name: "shards", path: "shards" } });
  const shardStep = shardSteps.find((s) => s.uses?.includes("siteops"))!;
  expect(shardStep.with).toMatchObject({ command: "snapshot", "sites-file": "shards/${{ matrix.sites_file }}", "result-file": "result.json" });
  expect(workflow.jobs.snapshots!.strategy?.["max-parallel"]).toBeGreaterThan(0);
  const merge = workflow.jobs.summary!.steps.find((s) => s.run)!.run!;

  // One site of shard 2 fails, and it has a name that would break out of an HTML cell.
  const victim = fleet.find((s) => shardOf(s.id, SHARDS) === 2)!;
  updateSiteRow(emu.context.db, victim.id, { name: "Broken <b>site</b>\n\n# not a heading" });

  // The plan job: the CLI from the repository's tag (npx builds it; here the built one), one listing.
  const cli = `"${process.execPath}" "${path.join(ROOT, "bin/siteops.js")}"`;
  expect(matrixStep.run).toMatch(/npx --yes github:siteops\/siteops#v\d+ sites matrix/);
  const outputFile = path.join(dir, "plan-output");
  writeFileSync(outputFile, "");
  const planned = await bash(
    matrixStep.run!.replace(/npx --yes github:siteops\/siteops#v\d+/, cli),
    {
      SHARDS: String(SHARDS),
      GITHUB_OUTPUT: outputFile,
      SITEOPS_BASE_URL: emu.url,
      SITEOPS_API_TOKEN: TOKEN,
      HOME: dir,
      XDG_RUNTIME_DIR: dir,
    },
    dir,
  );
  expect(planned.code, planned.stderr).toBe(0);
  const matrix = JSON.parse(/^matrix=(.*)$/m.exec(readFileSync(outputFile, "utf8"))![1]!) as { include: { shard: string; sites_file: string }[] };
  expect(matrix.include).toHaveLength(SHARDS);
  expect(requests.filter((q) => LISTING.test(q))).toHaveLength(1);
  requests.length = 0;

  await setFaults(emu, [{ method: "POST", path: `/api/v1/sites/${victim.id}/snapshots`, status: 422 }]);
  const runs = await Promise.all(
    matrix.include.map(async ({ shard, sites_file }, jobIndex) => {
      const artifact = path.join(dir, "results", `snapshot-result-${jobIndex}`);
      mkdirSync(artifact, { recursive: true });
      const sitesFile = path.join(dir, String(shardStep.with!["sites-file"]).replace("${{ matrix.sites_file }}", sites_file));
      const r = await runAction(
        { ...shardStep.with, "sites-file": sitesFile, "api-token": TOKEN, "result-file": path.join(artifact, "result.json"), concurrency: "8" } as Record<
          string,
          string
        >,
        { SITEOPS_BASE_URL: emu.url, SITEOPS_POLL_INTERVAL_MS: "20" },
      );
      return { shard, r };
    }),
  );
  await setFaults(emu);
  for (const { shard, r } of runs) expect(r.code, shard).toBe(shard === `2/${SHARDS}` ? 1 : 0);
  expect(requests.filter((q) => LISTING.test(q))).toEqual([]);

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
