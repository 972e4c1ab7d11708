// Soak phase 2: `command: snapshot, site: all` over N sites by the bundled action (action/dist/index.js run
// as the runner does: INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), under the faults.
// Checked afterwards: each site holds exactly the one snapshot the action reported, completed.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SiteOps } from "../../src/index.js";
import { mapPool } from "../../src/pool.js";
import { actionDefaults, ACTION, GITHUB_CONTEXT, inputEnv, parseOutputs } from "../../test/action/run-action.js";
import type { PhaseResult } from "./report.js";
import { peakSampler, rssOf, treeRss, type FaultedService } from "./service.js";

export async function actionPhase(service: FaultedService, count: number): Promise<PhaseResult> {
  const result: PhaseResult = { phase: `action: snapshot all, ${count} sites`, operations: 1, succeeded: 0, failed: 0, duplicates: 0, lost: 0, stale: 0, wallMs: 0, emulatorPeakRss: 0, clientPeakRss: 0, notes: [] };
  // The sites, made without faults (setup, not under test).
  await service.faultsOff();
  const so = new SiteOps({ baseUrl: service.url, apiToken: service.token });
  const dir = mkdtempSync(path.join(tmpdir(), "siteops-soak-action-"));
  try {
    const sites = await mapPool(Array.from({ length: count }, (_, i) => `soak-action-${i}`), 8, (name) => so.sites.create({ name, url: `https://${name}.soak.test` }));
    const files = { output: path.join(dir, "output"), summary: path.join(dir, "summary"), event: path.join(dir, "event.json") };
    writeFileSync(files.output, "");
    writeFileSync(files.summary, "");
    writeFileSync(files.event, JSON.stringify({ ref: GITHUB_CONTEXT.GITHUB_REF, after: GITHUB_CONTEXT.GITHUB_SHA }));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      RUNNER_TEMP: dir,
      GITHUB_WORKSPACE: dir,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_EVENT_PATH: files.event,
      ...GITHUB_CONTEXT,
      ...inputEnv({ ...actionDefaults(), command: "snapshot", site: "all", "api-token": service.token, "base-url": service.url }),
    };
    await service.faultsOn();
    const emulatorRss = peakSampler(() => rssOf(service.pid));
    const started = performance.now();
    const child = spawn(process.execPath, [ACTION], { env, stdio: ["ignore", "pipe", "pipe"] });
    const clientRss = peakSampler(() => treeRss(child.pid!));
    let log = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (log += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (log += c));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    result.wallMs = performance.now() - started;
    result.clientPeakRss = clientRss.stop();
    result.emulatorPeakRss = emulatorRss.stop();
    const outputs = parseOutputs(readFileSync(files.output, "utf8"));
    if (code === 0 && outputs.status === "completed") result.succeeded = 1;
    else {
      result.failed = 1;
      const errors = log.split("\n").filter((l) => l.startsWith("::error")).slice(0, 3);
      result.notes.push(`exit ${code}, status ${outputs.status}: ${errors.join(" / ") || log.slice(-400)}`);
    }
    const reported = JSON.parse(outputs["snapshot-ids"] ?? "{}") as Record<string, string>;
    result.notes.push(`${Object.keys(reported).length} of ${count} snapshots reported`);
    // The service's state, read without faults.
    await service.faultsOff();
    await mapPool(sites, 8, async (site) => {
      const snaps = await so.snapshots.list(site.id).toArray();
      result.duplicates += Math.max(0, snaps.length - 1);
      const mine = snaps.find((s) => s.id === reported[site.id]);
      if (result.succeeded && (!mine || mine.status !== "completed")) result.lost++;
    });
    // Clean up for the next phase (which counts every site of the account).
    await mapPool(sites, 8, (site) => so.sites.delete(site.id));
  } finally {
    await so.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}
