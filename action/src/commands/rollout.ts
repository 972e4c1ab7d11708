// `command: rollout`: an upgrade over the selected sites in waves gated on evidence, as `siteops upgrade rollout`
// runs it (the core's planWaves and rolloutUpgrade: the waves, the stable order, the gates, the budget). Every wave
// in this step, or with 'wave: K' only the K-th wave of the plan, for a workflow with one job per wave behind an
// environment's approval. Log lines per site, a job summary table per wave, and the step fails unless every wave
// it ran passed (failures within 'max-failures' are error annotations, and the next wave's job still runs). A re-run
// of the job adopts each site's pipeline from the earlier attempt (request-keys.ts) rather than opening another.

import { formatDuration } from "../../../common/format.js";
import { clean, safeJson } from "../../../common/sanitize.js";
import { planWaves, rolloutUpgrade, type RolloutResult, type SiteRolloutResult, type WaveResult, type WaveSpec } from "../../../src/fleet.js";
import type { Site, SiteOps } from "../../../src/index.js";
import { errorLine } from "../format.js";
import type { RolloutInputs } from "../inputs.js";
import { log } from "../log.js";
import type { RunInfo } from "../run-info.js";
import { rolloutPlanSummary, rolloutSummary } from "../summary.js";
import { selectedSites } from "./fleet-sites.js";
import { pipelineRequestKey } from "./request-keys.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";

export async function rolloutCommand(client: SiteOps, inputs: RolloutInputs, { run, secrets, signal }: CommandContext): Promise<CommandOutcome> {
  const selected = await selectedSites(client, inputs, signal);
  const target = [inputs.target.wp ? `WordPress ${inputs.target.wp}` : "", inputs.target.php ? `PHP ${inputs.target.php}` : ""].filter(Boolean).join(", ");
  const plan = planWaves(selected.sites, inputs.waves, inputs.target);
  if (plan.length === 0) {
    log.notice(selected.notice ?? "No site selected.");
    rolloutSummary(target, [], run);
    return { outputs: { status: "done", result: safeJson({ command: "rollout", status: "done", waves: [] }) } };
  }
  if (inputs.wave !== undefined && inputs.wave > plan.length) {
    const failure = `'wave' ${inputs.wave}: the rollout has ${plan.length} wave${plan.length === 1 ? "" : "s"} over these ${selected.sites.length} sites ('waves' ${inputs.wavesText}).`;
    return { outputs: {}, failure };
  }
  // One wave alone: its sites, as one wave of every one of them; the plan's numbering is kept for what is shown.
  const first = inputs.wave ?? 1;
  const sites: Site[] = inputs.wave !== undefined ? plan[inputs.wave - 1]! : plan.flat();
  const waves: WaveSpec[] = inputs.wave !== undefined ? [{ percent: 100 }] : inputs.waves;
  if (inputs.dryRun) return dryRun(plan, inputs.wave, target, run);
  log.info(
    `Rollout to ${target} of ${sites.length} site${sites.length === 1 ? "" : "s"}${inputs.wave !== undefined ? `: wave ${inputs.wave} of ${plan.length}` : ` in ${plan.length} wave${plan.length === 1 ? "" : "s"} (${plan.map((w) => w.length).join(", ")})`}`,
  );

  const result = await rolloutUpgrade(client, sites, {
    target: inputs.target,
    waves,
    gates: inputs.gates,
    checkPaths: inputs.checkPaths,
    checkBudget: inputs.checkBudgetMs,
    maxFailures: inputs.maxFailures,
    pause: inputs.pauseMs,
    requireApproval: inputs.requireApproval,
    concurrency: inputs.concurrency,
    waveTimeout: inputs.timeoutMs,
    healthWait: inputs.healthWaitMs,
    pollInterval: inputs.pollIntervalMs,
    requestKey: pipelineRequestKey(run),
    signal,
    onProgress: (event) => {
      const wave = event.type === "wave.finished" ? event.result.wave : event.wave;
      const n = wave + first - 1;
      if (event.type === "wave.started") log.info(`Wave ${n} of ${plan.length}: ${event.sites.length} site${event.sites.length === 1 ? "" : "s"}`);
      else if (event.type === "wave.paused") log.info(`Pausing ${formatDuration(event.ms)} before wave ${n}`);
      else if (event.type === "site.adopted")
        log.info(`${event.site.name}: pipeline ${event.pipeline.id} (${event.pipeline.status}) adopted, not opened again`);
      else if (event.type === "site.pipeline" && event.opened) log.info(`${event.site.name}: pipeline ${event.pipeline.id} opened (${event.pipeline.status})`);
      else if (event.type === "site.finished") siteLine(event.result, secrets);
      else if (event.type === "wave.finished") {
        const r = event.result;
        log.info(`Wave ${n}: ${r.verdict}, ${r.failed} failed of ${r.sites.length} (${r.allowed} allowed)`);
      }
    },
  });

  const rows = result.waves.map((w): WaveResult => ({ ...w, wave: w.wave + first - 1 }));
  rolloutSummary(target, rows, run, plan.length);
  const failed = result.sites.filter((r) => r.outcome === "failed");
  let failure: string | undefined;
  if (result.outcome !== "done") {
    const at = rows.find((w) => w.verdict !== "passed");
    const why = at
      ? `wave ${at.wave} ${at.verdict === "stopped" ? `stopped: ${at.failed} failed, ${at.allowed} allowed` : at.verdict.replace("_", " ")}`
      : result.outcome;
    const named = failed.slice(0, 5).map((r) => `${clean(r.site.name)} (${clean(r.reason ?? "failed")})`);
    failure = `The rollout to ${target} did not finish: ${why}.${named.length ? ` ${named.join("; ")}.` : ""} Later waves were not touched.`;
  }
  return { outputs: outputs(result, rows, first), failure };
}

/** 'dry-run': the plan's waves (or wave K alone) and their sites in the log, the summary and `result`. */
function dryRun(plan: Site[][], only: number | undefined, target: string, run: RunInfo): CommandOutcome {
  const waves = plan.map((sites, i) => ({ wave: i + 1, sites })).filter((w) => only === undefined || w.wave === only);
  for (const w of waves) log.info(`Wave ${w.wave} of ${plan.length}: ${w.sites.map((s) => clean(s.name)).join(", ")}`);
  log.info("Dry run: no pipeline opened.");
  rolloutPlanSummary(target, waves, plan.length, run);
  const result = {
    command: "rollout",
    status: "planned",
    waves: waves.map((w) => ({ wave: w.wave, sites: w.sites.map((s) => ({ id: s.id, name: s.name, url: s.url })) })),
  };
  return { outputs: { status: "planned", result: safeJson(result) } };
}

function siteLine(r: SiteRolloutResult, secrets: readonly string[]): void {
  const pipeline = r.pipeline ? `pipeline ${r.pipeline.id} ${r.pipeline.status}` : "";
  if (r.outcome === "passed" || r.outcome === "already_upgraded") {
    const checks = r.checks.map((c) => c.detail).join("; ");
    log.info(
      `${r.site.name}: ${r.outcome.replace("_", " ")}${pipeline ? `, ${pipeline}` : ""}${checks ? ` (${checks})` : ""} in ${formatDuration(r.durationMs)}`,
    );
  } else {
    // An error thrown (a refusal, a timeout) in the action's one-line form; a gate's verdict as the core says it.
    const reason = r.error !== null && !r.checks.some((c) => !c.ok) ? errorLine(r.error, secrets) : clean(r.reason ?? r.outcome);
    log.error(`${r.site.name}: ${r.outcome.replace("_", " ")}: ${reason}`, { title: `Rollout of ${r.site.name}: ${r.outcome.replace("_", " ")}` });
  }
}

function outputs(result: RolloutResult, rows: WaveResult[], first: number): Record<string, string> {
  return {
    status: result.outcome,
    result: safeJson({
      command: "rollout",
      status: result.outcome,
      waves: rows.map((w) => ({
        wave: w.wave,
        verdict: w.verdict,
        failed: w.failed,
        allowed: w.allowed,
        sites: w.sites.map((r) => ({
          site: { id: r.site.id, name: r.site.name, url: r.site.url },
          wave: r.wave + first - 1,
          outcome: r.outcome,
          adopted: r.adopted,
          pipeline: r.pipeline ? { id: r.pipeline.id, status: r.pipeline.status } : null,
          checks: r.checks,
          reason: r.reason,
          duration_ms: Math.round(r.durationMs),
        })),
      })),
    }),
  };
}
