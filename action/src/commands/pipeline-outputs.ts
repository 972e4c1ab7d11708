// The outputs of the upgrade and approve commands, and the pipeline a failed call still returned.

import type { UpgradePipeline } from "../../../src/index.js";
import { safeJson } from "../../../common/sanitize.js";

export function pipelineOutputs(command: string, pipeline: UpgradePipeline | undefined, error?: string): Record<string, string> {
  const status = pipeline?.status ?? "";
  return {
    "pipeline-id": pipeline?.id ?? "",
    status,
    result: safeJson({ command, status, pipeline: pipeline ?? null, error: error ?? null }),
  };
}

/** The pipeline an operation error carries (a failed or timed-out pipeline), if any. */
export function resourceOf(err: unknown): UpgradePipeline | undefined {
  const resource = (err as { resource?: unknown } | null)?.resource;
  return typeof resource === "object" && resource !== null && "steps" in resource ? (resource as UpgradePipeline) : undefined;
}
