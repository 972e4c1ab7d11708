// `command: approve`: approves a pipeline that awaits approval and waits until it ends; a pipeline that
// fails or is rolled back fails the step.

import { NotFoundError, type SiteOps, type UpgradePipeline } from "../../../src/index.js";
import { selectSite } from "../../../src/fleet.js";
import { errorLine, pipelineNote } from "../format.js";
import type { ApproveInputs } from "../inputs.js";
import { defaultComment } from "../run-info.js";
import { log } from "../log.js";
import { pipelineSummary } from "../summary.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";
import { pipelineOutputs, resourceOf } from "./pipeline-outputs.js";
import { pipelineTracker } from "./progress.js";

export async function approveCommand(client: SiteOps, inputs: ApproveInputs, { run, secrets, signal }: CommandContext): Promise<CommandOutcome> {
  const site = await selectSite(client, inputs.site, { signal });
  const comment = inputs.comment ?? defaultComment(run);
  log.info(`Approving pipeline ${inputs.pipelineId} of ${site.name} (${site.id}): ${comment}`);
  const tracker = pipelineTracker(site.name);
  const started = Date.now();
  let pipeline: UpgradePipeline | undefined;
  let failure: string | undefined;
  try {
    pipeline = await client.operations.approveUpgrade(site.id, inputs.pipelineId, {
      comment,
      wait: inputs.wait,
      waitTimeout: inputs.timeoutMs,
      pollInterval: inputs.pollIntervalMs,
      onProgress: tracker.onProgress,
      signal,
    });
  } catch (err) {
    pipeline = resourceOf(err) ?? tracker.latest();
    if (err instanceof NotFoundError && !pipeline) {
      throw new Error(`${errorLine(err, secrets)} Site ${site.name} has no pipeline ${inputs.pipelineId}: check 'pipeline-id' and 'site'.`);
    }
    if (!pipeline) throw err;
    failure = errorLine(err, secrets);
  }
  const durationMs = Date.now() - started;
  const note = failure ?? pipelineNote(pipeline, durationMs);
  if (!failure) log.info(`${site.name}: ${note}`);
  pipelineSummary("approval", site, pipeline, durationMs, run, note);
  return { outputs: pipelineOutputs("approve", pipeline, failure), failure };
}
