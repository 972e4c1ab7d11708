// The progress events that the core's operations (snapshot, upload, upgrade, approve) report to their caller.
import type { Snapshot } from "../resources/snapshots.js";
import type { UpgradePipeline } from "../resources/upgrade-pipelines.js";

/** Progress of an operation, reported through its `onProgress` callback. */
export type OperationEvent =
  | { type: "snapshot.created"; snapshot: Snapshot }
  | { type: "upload.progress"; sent: number; total: number }
  | { type: "snapshot.uploaded"; snapshot: Snapshot }
  /** The snapshot's status changed. */
  | { type: "snapshot.status"; snapshot: Snapshot }
  | { type: "pipeline.created"; pipeline: UpgradePipeline }
  | { type: "pipeline.approved"; pipeline: UpgradePipeline }
  /** The pipeline's status or one of its steps changed. */
  | { type: "pipeline.status"; pipeline: UpgradePipeline };
