// Log lines and outputs shared by the upgrade and approve commands.

import * as core from "@actions/core";
import type { OperationEvent, UpgradePipeline } from "../../../src/index.js";

/** Logs each change of a pipeline and remembers the latest one seen (for the outputs after a timeout). */
export function pipelineTracker(siteName: string): { onProgress: (event: OperationEvent) => void; latest: () => UpgradePipeline | undefined } {
  let latest: UpgradePipeline | undefined;
  const onProgress = (event: OperationEvent): void => {
    if (!("pipeline" in event)) return;
    latest = event.pipeline;
    const p = event.pipeline;
    const verb = event.type === "pipeline.created" ? "opened" : event.type === "pipeline.approved" ? "approved" : "is";
    const steps = (p.steps ?? []).filter((s) => s.status !== "pending").map((s) => `${s.name} ${s.status}`);
    core.info(`${siteName}: pipeline ${p.id} ${verb}${verb === "is" ? ` ${p.status}` : ` (${p.status})`}${steps.length ? `; ${steps.join(", ")}` : ""}`);
  };
  return { onProgress, latest: () => latest };
}

export function pipelineOutputs(command: string, pipeline: UpgradePipeline | undefined, error?: string): Record<string, string> {
  const status = pipeline?.status ?? "";
  return {
    "pipeline-id": pipeline?.id ?? "",
    status,
    result: JSON.stringify({ command, status, pipeline: pipeline ?? null, error: error ?? null }),
  };
}
