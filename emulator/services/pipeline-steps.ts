// The steps of an upgrade pipeline, one per stepSeconds of emulator clock, each at the clock time it
// was due (so a clock jump replays them in order with the times they would have had):
//
//   pending -> running: the snapshot step takes a pre_upgrade snapshot (or is skipped for a given one)
//   running: snapshot passes when the capture completes; preflight checks the site is reachable
//   -> awaiting_approval (stops until approved) or, without approval, -> applying
//   applying: apply, then verify -> succeeded (the site takes its new versions, records are fixed,
//   the site is checked again) | failed -> one step later rolled_back
import type { EmulatorContext } from "../context.js";
import { SYSTEM_ACTOR } from "../auth/auth-context.js";
import { recordActivity } from "../activity.js";
import { parseJson, stmt } from "../store/db.js";
import { upgradeBreaks } from "../catalogue/upgrades.js";
import { catchUpSnapshot, createSnapshot } from "./snapshots.js";
import { refreshSiteStatus, runHealthCheck } from "./health-checks.js";
import { serializeSite, setSiteColumns, type SiteRow } from "./sites.js";
import { fixVulnerabilities } from "./vulnerabilities.js";
import {
  getPipeline,
  serializePipeline,
  setStep,
  type PipelineRow,
  type PipelineStatus,
  type Step,
  type StepName,
} from "./upgrade-pipelines.js";

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

function apply(ctx: EmulatorContext, row: PipelineRow, t: Transition, atMs: number): void {
  const at = ctx.clock.iso(atMs);
  stmt(
    ctx.db,
    `UPDATE upgrade_pipelines SET status = ?, steps = ?, next_step_ms = ?, error = COALESCE(?, error), snapshot_id = COALESCE(?, snapshot_id),
       completed_at = CASE WHEN ? THEN ? ELSE completed_at END, updated_at = ? WHERE id = ?`,
  ).run(t.status ?? row.status, JSON.stringify(t.steps), t.nextMs, t.error ?? null, t.snapshotId ?? null, t.completed ? 1 : 0, at, at, row.id);
  if (t.event) {
    recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: `upgrade_pipeline.${t.event}`, subjectType: "UpgradePipeline", subjectId: row.id });
    ctx.events.emit(row.account_id, `upgrade_pipeline.${t.event}`, serializePipeline(getPipeline(ctx, row.id)!));
  }
}

/** The site takes its new versions: logged, announced, its records fixed, and checked again. */
function upgradeSite(ctx: EmulatorContext, row: PipelineRow): void {
  const site = stmt(ctx.db, "SELECT * FROM sites WHERE id = ?").get(row.site_id) as SiteRow | undefined;
  if (!site) return;
  const changes: Record<string, [string, string]> = {};
  if (site.wp_version !== row.to_wp_version) changes.wp_version = [site.wp_version, row.to_wp_version];
  if (site.php_version !== row.to_php_version) changes.php_version = [site.php_version, row.to_php_version];
  const now = ctx.clock.iso();
  setSiteColumns(ctx, site.id, { wp_version: row.to_wp_version, php_version: row.to_php_version, updated_at: now });
  recordActivity(ctx, { accountId: site.account_id, siteId: site.id, action: "site.updated", subjectType: "Site", subjectId: site.id, changes });
  const updated = stmt(ctx.db, "SELECT * FROM sites WHERE id = ?").get(site.id) as SiteRow;
  ctx.events.emit(site.account_id, "site.updated", { ...serializeSite(updated), changes });
  fixVulnerabilities(ctx, site.id);
}

/** One step of a pipeline, due at row.next_step_ms. */
function stepPipeline(ctx: EmulatorContext, row: PipelineRow): void {
  const dueMs = row.next_step_ms!;
  const at = ctx.clock.iso(dueMs);
  const stepMs = ctx.options.stepSeconds * 1000;
  let steps = parseJson<Step[]>(row.steps, []);
  const running = steps.find((s) => s.status === "running")?.name;
  const fail = (name: StepName, error: string, rollback: boolean): Transition => ({
    status: "failed",
    steps: setStep(steps, name, "failed", at),
    nextMs: rollback ? dueMs + stepMs : null,
    error,
    completed: !rollback,
    event: "failed",
  });
  const afterPreflight = (s: Step[]): Transition =>
    row.requires_approval
      ? { status: "awaiting_approval", steps: s, nextMs: null, event: "awaiting_approval" }
      : { status: "applying", steps: setStep(s, "apply", "running", at), nextMs: dueMs + stepMs };

  let t: Transition;
  if (row.status === "pending") {
    if (row.snapshot_id) {
      t = { status: "running", steps: setStep(setStep(steps, "snapshot", "skipped", at), "preflight", "running", at), nextMs: dueMs + stepMs };
    } else {
      const site = stmt(ctx.db, "SELECT * FROM sites WHERE id = ?").get(row.site_id) as SiteRow;
      const snap = createSnapshot(ctx, site, {
        trigger: "pre_upgrade",
        description: `Before upgrading to WordPress ${row.to_wp_version} / PHP ${row.to_php_version} (${row.id})`,
      }, { actor: SYSTEM_ACTOR }, dueMs);
      t = { status: "running", steps: setStep(steps, "snapshot", "running", at), nextMs: dueMs + 2 * stepMs, snapshotId: snap.id };
    }
  } else if (row.status === "running" && running === "snapshot") {
    const snap = row.snapshot_id ? catchUpSnapshot(ctx, row.snapshot_id, dueMs) : undefined;
    if (!snap || snap.status === "failed") {
      t = fail("snapshot", `Pre-upgrade snapshot failed: ${snap?.error ?? "the snapshot was deleted"}`, false);
    } else if (snap.status === "completed") {
      t = { steps: setStep(setStep(steps, "snapshot", "passed", at), "preflight", "running", at), nextMs: dueMs + stepMs };
    } else if (snap.next_step_ms === null) {
      t = fail("snapshot", "Pre-upgrade snapshot failed: the capture stopped", false);
    } else {
      t = { steps, nextMs: snap.next_step_ms }; // later than dueMs: catchUpSnapshot ran every step due by then
    }
  } else if (row.status === "running" && running === "preflight") {
    const site = stmt(ctx.db, "SELECT status FROM sites WHERE id = ?").get(row.site_id) as { status: string } | undefined;
    if (site?.status === "down") t = fail("preflight", "Preflight failed: the site is not reachable", false);
    else t = afterPreflight(setStep(steps, "preflight", "passed", at));
  } else if (row.status === "applying" && running === "apply") {
    t = { steps: setStep(setStep(steps, "apply", "passed", at), "verify", "running", at), nextMs: dueMs + stepMs };
  } else if (row.status === "applying" && running === "verify") {
    const broken = upgradeBreaks(row.to_wp_version, row.to_php_version);
    if (broken) {
      t = fail("verify", broken, true);
    } else {
      steps = setStep(steps, "verify", "passed", at);
      apply(ctx, row, { status: "succeeded", steps, nextMs: null, completed: true }, dueMs);
      upgradeSite(ctx, row);
      runHealthCheck(ctx, row.site_id);
      apply(ctx, getPipeline(ctx, row.id)!, { steps, nextMs: null, event: "succeeded" }, dueMs);
      return;
    }
  } else if (row.status === "failed") {
    apply(ctx, row, { status: "rolled_back", steps, nextMs: null, completed: true, event: "rolled_back" }, dueMs);
    runHealthCheck(ctx, row.site_id);
    return;
  } else {
    t = { steps, nextMs: null }; // nothing left to do
  }
  const wasApplying = row.status === "applying";
  apply(ctx, row, t, dueMs);
  if (wasApplying !== (t.status === "applying") && t.status !== undefined) refreshSiteStatus(ctx, row.site_id);
}

/** Every pipeline step due by nowMs, in due order. */
export function runDuePipelines(ctx: EmulatorContext, nowMs: number): void {
  for (;;) {
    const rows = stmt(ctx.db, "SELECT * FROM upgrade_pipelines WHERE next_step_ms <= ? ORDER BY next_step_ms, seq LIMIT 100").all(nowMs) as PipelineRow[];
    if (rows.length === 0) return;
    for (const row of rows) ctx.db.transaction(() => stepPipeline(ctx, row))();
  }
}

export function nextPipelineDueMs(ctx: EmulatorContext): number | null {
  return (stmt(ctx.db, "SELECT MIN(next_step_ms) AS m FROM upgrade_pipelines").get() as { m: number | null }).m;
}
