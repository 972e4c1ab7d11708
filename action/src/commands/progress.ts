// Log lines from the core's operation events (snapshots and upgrade pipelines), and the latest resource each
// tracker saw: after a timeout or failure that is what the outputs and the summary report.

import type { OperationEvent, Snapshot, UpgradePipeline } from "../../../src/index.js";
import { formatBytes } from "../../../common/format.js";
import { log } from "../log.js";
import { pipelineState } from "../format.js";

/** Upload progress is logged at most once per this share of the file. */
const PROGRESS_STEP = 0.1;

export interface Tracker<T> {
  onProgress: (event: OperationEvent) => void;
  latest: () => T | undefined;
}

/** One site's snapshot: created, upload progress (every 10%), uploaded, and each status before the end (the
 * final status gets its own line from the command, with size and duration). */
export function snapshotTracker(siteName: string): Tracker<Snapshot> {
  let latest: Snapshot | undefined;
  let nextProgress = 0;
  const onProgress = (event: OperationEvent): void => {
    switch (event.type) {
      case "snapshot.created":
        latest = event.snapshot;
        log.info(`${siteName}: snapshot ${event.snapshot.id} created (${event.snapshot.status})`);
        break;
      case "upload.progress":
        if (event.total > 0 && event.sent / event.total >= nextProgress) {
          const share = event.sent / event.total;
          nextProgress = Math.min(1, Math.floor(share / PROGRESS_STEP) * PROGRESS_STEP + PROGRESS_STEP);
          log.info(`${siteName}: uploaded ${Math.floor(share * 100)}% (${formatBytes(event.sent)} of ${formatBytes(event.total)})`);
        }
        break;
      case "snapshot.uploaded":
        latest = event.snapshot;
        log.info(`${siteName}: upload complete, snapshot ${event.snapshot.id} is ${event.snapshot.status}`);
        break;
      case "snapshot.status":
        latest = event.snapshot;
        if (event.snapshot.status === "requested" || event.snapshot.status === "in_progress")
          log.info(`${siteName}: snapshot ${event.snapshot.id} is ${event.snapshot.status}`);
        break;
    }
  };
  return { onProgress, latest: () => latest };
}

/** One pipeline: each change, with the steps that have started. */
export function pipelineTracker(siteName: string): Tracker<UpgradePipeline> {
  let latest: UpgradePipeline | undefined;
  const onProgress = (event: OperationEvent): void => {
    if (!("pipeline" in event)) return;
    latest = event.pipeline;
    const p = event.pipeline;
    const what =
      event.type === "pipeline.created" ? `opened (${p.status})` : event.type === "pipeline.approved" ? `approved (${p.status})` : pipelineState(p.status);
    const steps = (p.steps ?? []).filter((s) => s.status !== "pending").map((s) => `${s.name} ${s.status}`);
    log.info(`${siteName}: pipeline ${p.id} ${what}${steps.length ? `; ${steps.join(", ")}` : ""}`);
  };
  return { onProgress, latest: () => latest };
}
