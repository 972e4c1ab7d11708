// The steps of an upgrade pipeline, one per stepSeconds of emulator clock, each at the clock time it
// was due (so a clock jump replays them in order with the times they would have had):
//
//   pending -> running: the snapshot step takes a pre_upgrade snapshot (or is skipped for a given one)
//   running: snapshot passes when the capture completes; preflight checks the site is reachable
//   -> awaiting_approval (stops until approved) or, without approval, -> applying
//   applying: apply, then verify -> succeeded (the site takes its new versions, records are fixed,
//   the site is checked again) | failed -> one step later rolled_back
//
// A rule of the control API (control/pipeline-outcomes.ts) that matches a pipeline when it starts decides how
// it ends instead: a failure at the step it names (a rollback after apply or verify), or a success whatever
// the catalogue says, and the status of the health check at the end.
import type { EmulatorContext } from "../context.js";
import { upgradeBreaks } from "../catalogue/upgrades.js";
import type { PipelineStatus, Step, StepName } from "../../wire/upgrade-pipelines.js";
import type { PipelineDecision } from "../control/pipeline-outcomes.js";
import { parseJson } from "../store/db.js";
import { findSite } from "../store/sites.js";
import { targetVersions } from "../versions.js";
import { duePipelines, findPipeline, nextPipelineDueMs, updatePipelineRow, type PipelineRow } from "../store/upgrade-pipelines.js";
import { recordActivity } from "./activity-logs.js";
import { refreshSiteStatus, runHealthCheck } from "./health-checks.js";
import { applyUpgrade } from "./sites.js";
import { catchUpSnapshot, createSnapshot } from "./snapshots.js";
import { setStep, shownPipeline } from "./upgrade-pipelines.js";

interface Transition {
  status?: PipelineStatus;
  steps: Step[];
  nextMs: number | null;
  error?: string;
  snapshotId?: string;
  completed?: boolean;
  /** Event (and system activity entry) for this transition. */
  event?: "awaiting_approval" | "succeeded" | "failed" | "rolled_back";
}

/** What a step handler sees: the row, its parsed steps, and the due time. */
interface StepInput {
  row: PipelineRow;
  steps: Step[];
  dueMs: number;
  at: string;
  stepMs: number;
}

function apply(ctx: EmulatorContext, row: PipelineRow, t: Transition, atMs: number): void {
  updatePipelineRow(ctx.db, row.id, {
    status: t.status ?? row.status,
    steps: t.steps,
    nextStepMs: t.nextMs,
    error: t.error ?? null,
    snapshotId: t.snapshotId ?? null,
    completed: Boolean(t.completed),
    at: ctx.clock.iso(atMs),
  });
  if (t.event) {
    recordActivity(ctx, {
      accountId: row.account_id,
      siteId: row.site_id,
      action: `upgrade_pipeline.${t.event}`,
      subjectType: "UpgradePipeline",
      subjectId: row.id,
    });
    ctx.events.emit(row.account_id, `upgrade_pipeline.${t.event}`, shownPipeline(ctx, findPipeline(ctx.db, row.id)!));
  }
}

/** The error of a failure a control rule forced at a step. */
const FORCED: Record<StepName, string> = {
  snapshot: "Pre-upgrade snapshot failed (set through /__emulator/pipeline-outcomes)",
  preflight: "Preflight failed: the site is not reachable (set through /__emulator/pipeline-outcomes)",
  apply: "Apply failed: the update could not be installed (set through /__emulator/pipeline-outcomes)",
  verify: "Verification failed: the site answered HTTP 500 after the upgrade (set through /__emulator/pipeline-outcomes)",
};

/** The control rule's decision for this pipeline, when it forces a failure at this step. */
function forcedAt(ctx: EmulatorContext, s: StepInput, name: StepName): PipelineDecision | undefined {
  const d = ctx.pipelineOutcomes.decision(s.row.id);
  return d && (d.outcome === "fail" || d.outcome === "roll_back") && d.atStep === name ? d : undefined;
}

/** A control rule holds this pipeline at the step running now: it stays there, never due again. */
function hangs(ctx: EmulatorContext, s: StepInput, name: StepName | undefined): boolean {
  const d = ctx.pipelineOutcomes.decision(s.row.id);
  return d?.outcome === "hang" && d.atStep === name;
}

function fail(s: StepInput, name: StepName, error: string, rollback: boolean): Transition {
  return {
    status: "failed",
    steps: setStep(s.steps, name, "failed", s.at),
    nextMs: rollback ? s.dueMs + s.stepMs : null,
    error,
    completed: !rollback,
    event: "failed",
  };
}

function startPipeline(ctx: EmulatorContext, s: StepInput): Transition {
  const { row, steps, at, dueMs, stepMs } = s;
  const site = findSite(ctx.db, row.site_id)!;
  ctx.pipelineOutcomes.start(row.id, site);
  if (forcedAt(ctx, s, "snapshot")) return fail(s, "snapshot", FORCED.snapshot, false);
  if (row.snapshot_id) {
    return { status: "running", steps: setStep(setStep(steps, "snapshot", "skipped", at), "preflight", "running", at), nextMs: dueMs + stepMs };
  }
  const description = `Before upgrading to WordPress ${row.to_wp_version} / PHP ${row.to_php_version} (${row.id})`;
  const snap = createSnapshot(ctx, site, { trigger: "pre_upgrade", description }, undefined, dueMs);
  return { status: "running", steps: setStep(steps, "snapshot", "running", at), nextMs: dueMs + 2 * stepMs, snapshotId: snap.id };
}

function snapshotStep(ctx: EmulatorContext, s: StepInput): Transition {
  const snap = s.row.snapshot_id ? catchUpSnapshot(ctx, s.row.snapshot_id, s.dueMs) : undefined;
  if (!snap || snap.status === "failed") return fail(s, "snapshot", `Pre-upgrade snapshot failed: ${snap?.error ?? "the snapshot was deleted"}`, false);
  if (snap.status === "completed") {
    return { steps: setStep(setStep(s.steps, "snapshot", "passed", s.at), "preflight", "running", s.at), nextMs: s.dueMs + s.stepMs };
  }
  if (snap.next_step_ms === null) return fail(s, "snapshot", "Pre-upgrade snapshot failed: the capture stopped", false);
  return { steps: s.steps, nextMs: snap.next_step_ms }; // later than dueMs: catchUpSnapshot ran every step due by then
}

function preflightStep(ctx: EmulatorContext, s: StepInput): Transition {
  if (forcedAt(ctx, s, "preflight")) return fail(s, "preflight", FORCED.preflight, false);
  if (findSite(ctx.db, s.row.site_id)?.status === "down") return fail(s, "preflight", "Preflight failed: the site is not reachable", false);
  const steps = setStep(s.steps, "preflight", "passed", s.at);
  return s.row.requires_approval
    ? { status: "awaiting_approval", steps, nextMs: null, event: "awaiting_approval" }
    : { status: "applying", steps: setStep(steps, "apply", "running", s.at), nextMs: s.dueMs + s.stepMs };
}

/** Verify: succeeded (the site takes its versions and is checked again), or failed with a rollback to come. */
function verifyStep(ctx: EmulatorContext, s: StepInput): Transition | null {
  const decision = ctx.pipelineOutcomes.decision(s.row.id);
  if (forcedAt(ctx, s, "verify")) return fail(s, "verify", FORCED.verify, true);
  const broken = decision?.outcome === "succeed" ? null : upgradeBreaks(s.row.to_wp_version, s.row.to_php_version);
  if (broken) return fail(s, "verify", broken, true);
  const steps = setStep(s.steps, "verify", "passed", s.at);
  apply(ctx, s.row, { status: "succeeded", steps, nextMs: null, completed: true }, s.dueMs);
  applyUpgrade(ctx, s.row.site_id, targetVersions(s.row));
  ctx.pipelineOutcomes.finish(s.row.id);
  runHealthCheck(ctx, s.row.site_id, decision?.health ?? undefined);
  apply(ctx, findPipeline(ctx.db, s.row.id)!, { steps, nextMs: null, event: "succeeded" }, s.dueMs);
  return null;
}

/** The transition of the step due now, or null when the handler applied it itself. */
function nextTransition(ctx: EmulatorContext, s: StepInput): Transition | null {
  const running = s.steps.find((step) => step.status === "running")?.name;
  const { row } = s;
  if (hangs(ctx, s, running)) return { steps: s.steps, nextMs: null };
  if (row.status === "pending") return startPipeline(ctx, s);
  if (row.status === "running" && running === "snapshot") return snapshotStep(ctx, s);
  if (row.status === "running" && running === "preflight") return preflightStep(ctx, s);
  if (row.status === "applying" && running === "apply") {
    if (forcedAt(ctx, s, "apply")) return fail(s, "apply", FORCED.apply, true);
    return { steps: setStep(setStep(s.steps, "apply", "passed", s.at), "verify", "running", s.at), nextMs: s.dueMs + s.stepMs };
  }
  if (row.status === "applying" && running === "verify") return verifyStep(ctx, s);
  if (row.status === "failed") {
    const health = ctx.pipelineOutcomes.decision(row.id)?.health ?? undefined;
    ctx.pipelineOutcomes.finish(row.id);
    apply(ctx, row, { status: "rolled_back", steps: s.steps, nextMs: null, completed: true, event: "rolled_back" }, s.dueMs);
    runHealthCheck(ctx, row.site_id, health);
    return null;
  }
  return { steps: s.steps, nextMs: null }; // nothing left to do
}

/** One step of a pipeline, due at row.next_step_ms. */
function stepPipeline(ctx: EmulatorContext, row: PipelineRow): void {
  const dueMs = row.next_step_ms!;
  const s: StepInput = { row, steps: parseJson<Step[]>(row.steps, []), dueMs, at: ctx.clock.iso(dueMs), stepMs: ctx.options.stepSeconds * 1000 };
  const t = nextTransition(ctx, s);
  if (!t) return;
  const wasApplying = row.status === "applying";
  if (t.completed) ctx.pipelineOutcomes.finish(row.id); // a failure before anything was applied
  apply(ctx, row, t, dueMs);
  if (wasApplying !== (t.status === "applying") && t.status !== undefined) refreshSiteStatus(ctx, row.site_id);
}

/** Every pipeline step due by nowMs, in due order. */
export function runDuePipelines(ctx: EmulatorContext, nowMs: number): void {
  for (;;) {
    const rows = duePipelines(ctx.db, nowMs);
    if (rows.length === 0) return;
    for (const row of rows) ctx.db.transaction(() => stepPipeline(ctx, row))();
  }
}

export function pipelinesDueMs(ctx: EmulatorContext): number | null {
  return nextPipelineDueMs(ctx.db);
}
