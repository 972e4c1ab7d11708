// Service snapshot captures: requested -> in_progress -> completed (or failed), one step per
// stepSeconds of emulator clock; a clock jump catches up every step in order.
import type { EmulatorContext } from "../context.js";
import type { Job } from "./scheduler.js";
import { runDueSnapshots, snapshotsDueMs } from "../services/snapshots.js";

export function snapshotsJob(ctx: EmulatorContext): Job {
  return {
    name: "snapshots",
    runDue: (nowMs) => runDueSnapshots(ctx, nowMs),
    nextDueMs: () => snapshotsDueMs(ctx),
  };
}
