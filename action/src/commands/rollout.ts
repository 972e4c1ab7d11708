// `command: rollout`: the core's rolloutUpgrade over the selected sites, as `siteops upgrade rollout` runs it. Glue
// only: the inputs are the core's declared options (input-rollout.ts), the plan, judging, counts, records and their
// words are the core's (src/operations/rollout*.ts, rollout-text.ts); here the log, the job summary (summary.ts), the
// outputs and the line the step fails with. Every wave in this step, or with 'wave: K' only the plan's K-th (one job
// per wave behind an environment's approval). A re-run of the job adopts each site's pipeline from the earlier attempt
// (request-keys.ts, and the core's `earlierRun` past the service's idempotency window) rather than opening another.

import { safeJson } from "../../../common/sanitize.js";
import {
  formatTarget,
  formatWave,
  planRollout,
  RolloutProgress,
  rolloutPlanRows,
  rolloutFailureLine,
  rolloutReport,
  rolloutUpgrade,
  RolloutSpecError,
  eventLines,
  planLines,
  visualGateLine,
  type RolloutEvent,
  type RolloutResult,
} from "../../../src/fleet.js";
import type { SiteOps } from "../../../src/index.js";
import { errorLine } from "../format.js";
import type { RolloutInputs } from "../inputs.js";
import { log } from "../log.js";
import { rolloutPlanSummary, rolloutSummary } from "../summary.js";
import { selectedSites } from "./fleet-sites.js";
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
    for (const line of planLines(plan, settings.target)) log.info(line);
    log.info("Dry run: no pipeline opened.");
    rolloutPlanSummary(target, shown, plan, run);
    const rows = rolloutPlanRows(plan).filter((r) => inputs.wave === undefined || r.wave === inputs.wave || r.wave === null);
    return { outputs: { status: "planned", result: safeJson({ command: "rollout", status: "planned", target: settings.target, results: rows }) } };
  }
  if (selected.sites.length === 0) {
    log.notice(selected.notice ?? "No site selected.");
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
      onProgress: logEvents(),
      visual: visual?.evidence,
    });
  } catch (err) {
    if (!(err instanceof RolloutSpecError)) throw err;
    return { outputs: {}, failure: `'wave': ${err.message} ('waves' ${settings.waves.map(formatWave).join(",")}).` };
  }
  const pictures = visual?.finish();
  if (pictures?.report) log.info(`Visual report: ${pictures.report} (${visualGateLine(pictures)})`);
  rolloutSummary(result, run, pictures);
  const report = { command: "rollout", status: result.outcome, ...rolloutReport(result), ...(pictures ? { visual: pictures } : {}) };
  const outputs = { status: result.outcome, result: safeJson(report), ...(pictures?.report ? { "visual-report": pictures.report } : {}) };
  // The line the step fails with (the core's, from the result, never from error text): the service refused the run,
  // or a wave did not pass.
  return { outputs, failure: rolloutFailureLine(result, (err) => errorLine(err, secrets)) };
}

/** The log (the core's words): each event's line, an error annotation per site that failed, the wave's progress at
 * every 10 % or 30 s. */
function logEvents(): (event: RolloutEvent) => void {
  const progress = new RolloutProgress();
  return (event) => {
    progress.onEvent(event);
    for (const said of eventLines(event)) {
      if (said.level === "error" && event.type === "site.finished")
        log.error(said.text, { title: `Rollout of ${event.result.site.name}: ${event.result.outcome.replace("_", " ")}` });
      else (said.level === "warn" ? log.warning : log.info)(said.text);
    }
    if (event.type === "site.finished" && progress.due()) log.info(progress.line());
  };
}
