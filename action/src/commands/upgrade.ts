// `command: upgrade`: opens an upgrade pipeline on one site and waits until it awaits approval or ends.

import { type SiteOps, type UpgradePipeline } from "../../../src/index.js";
import { selectSite } from "../../../src/fleet.js";
import { errorLine, pipelineNote } from "../format.js";
import type { UpgradeInputs } from "../inputs.js";
import { log } from "../log.js";
import { pipelineSummary } from "../summary.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";
import { pipelineOutputs, resourceOf } from "./pipeline-outputs.js";
import { pipelineTracker } from "./progress.js";

export async function upgradeCommand(client: SiteOps, inputs: UpgradeInputs, { run, secrets, signal }: CommandContext): Promise<CommandOutcome> {
  const site = await selectSite(client, inputs.site, { signal });
  const target = [inputs.wpVersion && `WordPress ${inputs.wpVersion}`, inputs.phpVersion && `PHP ${inputs.phpVersion}`].filter(Boolean).join(" and ");
  log.info(`Upgrade of ${site.name} (${site.id}) to ${target}${inputs.requireApproval ? ", with approval" : ", without approval"}`);
  const tracker = pipelineTracker(site.name);
  const started = Date.now();
  let pipeline: UpgradePipeline | undefined;
  let failure: string | undefined;
  try {
    pipeline = await client.operations.openUpgrade(
      site.id,
      {
        ...(inputs.wpVersion ? { to_wp_version: inputs.wpVersion } : {}),
        ...(inputs.phpVersion ? { to_php_version: inputs.phpVersion } : {}),
        requires_approval: inputs.requireApproval,
      },
      { wait: inputs.wait, waitTimeout: inputs.timeoutMs, pollInterval: inputs.pollIntervalMs, onProgress: tracker.onProgress, signal },
    );
  } catch (err) {
    pipeline = resourceOf(err) ?? tracker.latest();
    if (!pipeline) throw err; // nothing was opened: main reports the one line
    failure = errorLine(err, secrets);
  }
  const durationMs = Date.now() - started;
  let note: string;
  if (failure) note = failure;
  else if (pipeline.status === "awaiting_approval") {
    note = `Pipeline ${pipeline.id} awaits approval: run this action with command: approve, site: ${site.id}, pipeline-id: ${pipeline.id}.`;
    log.notice(note, { title: `Upgrade of ${site.name} awaits approval` });
  } else {
    note = pipelineNote(pipeline, durationMs);
    log.info(`${site.name}: ${note}`);
  }
  pipelineSummary("upgrade", site, pipeline, durationMs, run, note);
  return { outputs: pipelineOutputs("upgrade", pipeline, failure), failure };
}
