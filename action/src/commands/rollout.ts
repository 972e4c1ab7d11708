// `command: rollout`: the core's rolloutUpgrade over the selected sites, as `siteops upgrade rollout` runs it. Glue
// only: the inputs are the core's declared options (input-rollout.ts), the plan, judging, counts and records are the
// core's (src/operations/rollout*.ts); here the log lines, the job summary (summary.ts), the outputs and the line the
// step fails with. Every wave in this step, or with 'wave: K' only the plan's K-th (one job per wave behind an
// environment's approval). A re-run of the job adopts each site's pipeline from the earlier attempt (request-keys.ts,
// and the core's `earlierRun` past the service's idempotency window) rather than opening another.

import { formatDuration } from "../../../common/format.js";
import { clean, safeJson } from "../../../common/sanitize.js";
import {
  formatTarget,
  formatWave,
  mergedWaveNote,
  planRollout,
  rolloutPlanRows,
  rolloutReport,
  rolloutUpgrade,
  RolloutSpecError,
  visualGateLine,
  type RolloutEvent,
  type RolloutResult,
} from "../../../src/fleet.js";
import type { SiteOps } from "../../../src/index.js";
import { errorLine } from "../format.js";
import type { RolloutInputs } from "../inputs.js";
import { log } from "../log.js";
import { rolloutPlanSummary, rolloutSummary } from "../summary.js";
import { noSitesReason, selectedSites } from "./fleet-sites.js";
import { pipelineRequestKey } from "./request-keys.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";
import { type ActionVisual, startActionVisual } from "./rollout-visual.js";

export async function rolloutCommand(client: SiteOps, inputs: RolloutInputs, { run, secrets, signal }: CommandContext): Promise<CommandOutcome> {
  const selected = await selectedSites(client, inputs, signal);
  const { settings } = inputs;
  const target = formatTarget(settings.target);
  if (inputs.dryRun) {
    const plan = planRollout(selected.sites, settings.waves, settings.target);
    const shown = plan.waves.map((sites, i) => ({ wave: i + 1, sites })).filter((w) => inputs.wave === undefined || w.wave === inputs.wave);
    for (const m of plan.merged) log.notice(`Note: ${mergedWaveNote(m)}.`);
    for (const w of shown) log.info(`Wave ${w.wave} of ${plan.waves.length}: ${w.sites.map((s) => clean(s.name)).join(", ")}`);
    if (plan.current.length) log.info(`${plan.current.length} site${plan.current.length === 1 ? "" : "s"} already at ${target} or newer: in no wave`);
    log.info("Dry run: no pipeline opened.");
    rolloutPlanSummary(target, shown, plan, run);
    const rows = rolloutPlanRows(plan).filter((r) => inputs.wave === undefined || r.wave === inputs.wave || r.wave === null);
    return { outputs: { status: "planned", result: safeJson({ command: "rollout", status: "planned", target: settings.target, results: rows }) } };
  }
  if (selected.sites.length === 0) {
    log.warning(`${noSitesReason(selected)} There is nothing to upgrade.`);
    rolloutSummary(undefined, run);
    return { outputs: { status: "done", result: safeJson({ command: "rollout", status: "done", results: [] }) } };
  }
  // The visual gate's browser before the first pipeline: missing, the step fails having opened nothing.
  const visual = await startActionVisual(settings, process.env);
  if (typeof visual === "string") return { outputs: {}, failure: visual };
  try {
    return await rollout(client, selected.sites, inputs, { run, secrets, signal }, visual);
  } finally {
    await visual?.close();
  }
}

/** The rollout itself, its summary and outputs (and the visual gate's report, when it ran). */
async function rollout(
  client: SiteOps,
  sites: Parameters<typeof rolloutUpgrade>[1],
  inputs: RolloutInputs,
  { run, secrets, signal }: CommandContext,
  visual: ActionVisual | undefined,
): Promise<CommandOutcome> {
  const { settings } = inputs;
  const target = formatTarget(settings.target);
  let result: RolloutResult;
  try {
    result = await rolloutUpgrade(client, sites, {
      ...settings,
      onlyWave: inputs.wave,
      requestKey: pipelineRequestKey(run),
      // A re-run's runner has nothing of the earlier attempt: the service's pipelines since the sites were listed are.
      earlierRun: run.attempt > 1 ? { since: inputs.fromFile?.listedAt } : undefined,
      pollInterval: inputs.pollIntervalMs,
      signal,
      onProgress: logEvent,
      visual: visual?.evidence,
    });
  } catch (err) {
    if (!(err instanceof RolloutSpecError)) throw err;
    return { outputs: {}, failure: `'wave': ${err.message} ('waves' ${settings.waves.map(formatWave).join(",")}).` };
  }
  for (const m of result.merged) log.notice(`Note: ${mergedWaveNote(m)}.`);
  const pictures = visual?.finish();
  if (pictures?.report) log.info(`Visual report: ${pictures.report} (${visualGateLine(pictures)})`);
  rolloutSummary(result, run, pictures);
  const report = { command: "rollout", status: result.outcome, ...rolloutReport(result), ...(pictures ? { visual: pictures } : {}) };
  const outputs = { status: result.outcome, result: safeJson(report), ...(pictures?.report ? { "visual-report": pictures.report } : {}) };
  return { outputs, failure: failureLine(result, target, secrets) };
}

/** The log: a line per wave and per site, an error annotation per site that failed. */
function logEvent(event: RolloutEvent): void {
  if (event.type === "wave.started")
    log.info(`Wave ${event.wave} of ${event.waves}: ${event.sites.length} site${event.sites.length === 1 ? "" : "s"}, at most ${event.allowed} may fail`);
  else if (event.type === "wave.paused") log.info(`Pausing ${formatDuration(event.ms)} before wave ${event.wave}`);
  else if (event.type === "site.adopted") log.info(`${event.site.name}: pipeline ${event.pipeline.id} (${event.pipeline.status}) adopted, not opened again`);
  else if (event.type === "site.pipeline" && event.opened) log.info(`${event.site.name}: pipeline ${event.pipeline.id} opened (${event.pipeline.status})`);
  else if (event.type === "site.finished") {
    const r = event.result;
    const pipeline = r.pipeline ? `, pipeline ${r.pipeline.id} ${r.pipeline.status}` : "";
    if (!r.failure) log.info(`${r.site.name}: ${r.outcome.replace("_", " ")}${pipeline} in ${formatDuration(r.durationMs)}`);
    else
      log.error(`${r.site.name}: ${r.outcome.replace("_", " ")}: ${r.failure.message}`, { title: `Rollout of ${r.site.name}: ${r.outcome.replace("_", " ")}` });
  } else if (event.type === "wave.finished") {
    const w = event.result;
    log.info(`Wave ${w.wave}: ${w.verdict.replace("_", " ")}, ${w.counts.failed} failed of ${w.size} (${w.allowed} allowed)`);
  }
}

/** The line the step fails with, from the result (never from error text): the service refused the run, or a wave
 * did not pass. */
function failureLine(result: RolloutResult, target: string, secrets: readonly string[]): string | undefined {
  if (result.refusal?.reason === "target")
    return `The rollout to ${target} did not start: ${result.refusal.failure.message}. Give a version the service offers; no pipeline was opened.`;
  if (result.refusal) return `The rollout to ${target} stopped: ${errorLine(result.refusal.error, secrets)}`;
  if (result.outcome === "done") return undefined;
  const at = result.waves.find((w) => w.verdict !== "passed" && w.verdict !== "not_started");
  const why = at
    ? `wave ${at.wave} ${at.verdict === "stopped" ? `stopped: ${at.counts.failed} failed of ${at.size}, ${at.allowed} allowed` : at.verdict.replace("_", " ")}`
    : result.outcome;
  const failed = result.sites.filter((r) => r.outcome === "failed");
  const named = failed.slice(0, 5).map((r) => `${clean(r.site.name)} (${clean(r.failure?.reason ?? "failed")})`);
  return `The rollout to ${target} did not finish: ${why}.${named.length ? ` ${named.join("; ")}${failed.length > 5 ? `; and ${failed.length - 5} more` : ""}.` : ""} Later waves were not touched.`;
}
