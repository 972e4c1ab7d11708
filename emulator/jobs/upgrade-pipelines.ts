// Upgrade pipelines advance one step per stepSeconds of emulator clock; a clock jump catches up every
// step in order (a pipeline that needs no approval finishes, one that does stops at awaiting_approval).
import type { EmulatorContext } from "../context.js";
import type { Job } from "./scheduler.js";
import { pipelinesDueMs, runDuePipelines } from "../services/pipeline-steps.js";

export function upgradePipelinesJob(ctx: EmulatorContext): Job {
  return {
    name: "upgrade-pipelines",
    runDue: (nowMs) => runDuePipelines(ctx, nowMs),
    nextDueMs: () => pipelinesDueMs(ctx),
  };
}
