// Upgrade pipelines: the resource, creation and approval. The steps that advance a pipeline on the
// emulator clock are in pipeline-steps.ts.
//
//   pending -> running (steps: snapshot, preflight) -> awaiting_approval --approve--> applying
//   (steps: apply, verify) -> succeeded | failed -> rolled_back
//
// Without approval `running -> applying`. A failure before anything was applied (the pre-upgrade
// snapshot failed, or the preflight found the site down) ends in `failed`; a failure at verify rolls
// back: `failed` is followed one step later by `rolled_back`. The site is `maintenance` while applying.
// Deterministic failures: catalogue/upgrades.ts (target PHP 8.4 with WordPress below 6.7 fails verify),
// and a site forced `failed` through the control API fails the preflight.
import { Type, type Static } from "typebox";
import type { EmulatorContext } from "../context.js";
import { recordActivity } from "../activity.js";
import { FieldErrorCollector, notFound, unprocessable } from "../errors.js";
import { isId, newId } from "../ids.js";
import { parseJson, stmt } from "../store/db.js";
import { PHP_VERSIONS, WP_VERSIONS, compareVersions } from "../versions.js";
import { PIPELINE_ACTIVE_SQL, getSnapshotRow, type Origin } from "./snapshots.js";
import { refreshSiteStatus } from "./health-checks.js";
import type { SiteRow } from "./sites.js";

export const PIPELINE_STATUSES = ["pending", "running", "awaiting_approval", "applying", "succeeded", "failed", "rolled_back"] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];
const STEP_NAMES = ["snapshot", "preflight", "apply", "verify"] as const;
export type StepName = (typeof STEP_NAMES)[number];
export type StepStatus = "pending" | "running" | "passed" | "failed" | "skipped";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const PipelineStepSchema = Type.Object({
  name: Type.Union([Type.Literal("snapshot"), Type.Literal("preflight"), Type.Literal("apply"), Type.Literal("verify")]),
  status: Type.Union([Type.Literal("pending"), Type.Literal("running"), Type.Literal("passed"), Type.Literal("failed"), Type.Literal("skipped")]),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
});

export const UpgradePipelineSchema = Type.Object({
  id: Type.String(),
  site_id: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("running"), Type.Literal("awaiting_approval"), Type.Literal("applying"), Type.Literal("succeeded"), Type.Literal("failed"), Type.Literal("rolled_back")]),
  from_wp_version: Type.String(),
  to_wp_version: Type.String(),
  from_php_version: Type.String(),
  to_php_version: Type.String(),
  snapshot_id: Nullable(Type.String()),
  requires_approval: Type.Boolean(),
  approved_at: Nullable(Type.String()),
  approved_by: Nullable(Type.String({ description: "Id of the user who approved" })),
  comment: Nullable(Type.String()),
  error: Nullable(Type.String()),
  steps: Type.Array(PipelineStepSchema),
  created_at: Type.String(),
  updated_at: Type.String(),
  completed_at: Nullable(Type.String()),
});
export type UpgradePipelineJson = Static<typeof UpgradePipelineSchema>;
export type Step = { name: StepName; status: StepStatus; started_at: string | null; finished_at: string | null };

export interface PipelineRow {
  seq: number;
  id: string;
  site_id: string;
  account_id: string;
  status: PipelineStatus;
  from_wp_version: string;
  to_wp_version: string;
  from_php_version: string;
  to_php_version: string;
  snapshot_id: string | null;
  requires_approval: number;
  approved_at: string | null;
  approved_by: string | null;
  comment: string | null;
  error: string | null;
  steps: string;
  next_step_ms: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}


export function serializePipeline(row: PipelineRow): UpgradePipelineJson {
  return {
    id: row.id,
    site_id: row.site_id,
    status: row.status,
    from_wp_version: row.from_wp_version,
    to_wp_version: row.to_wp_version,
    from_php_version: row.from_php_version,
    to_php_version: row.to_php_version,
    snapshot_id: row.snapshot_id,
    requires_approval: row.requires_approval === 1,
    approved_at: row.approved_at,
    approved_by: row.approved_by,
    comment: row.comment,
    error: row.error,
    steps: parseJson<Step[]>(row.steps, []),
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}

export function getPipeline(ctx: EmulatorContext, id: string): PipelineRow | undefined {
  return stmt(ctx.db, "SELECT * FROM upgrade_pipelines WHERE id = ?").get(id) as PipelineRow | undefined;
}

export function loadPipeline(ctx: EmulatorContext, siteId: string, id: string): PipelineRow {
  if (!isId("upg", id)) throw notFound();
  const row = stmt(ctx.db, "SELECT * FROM upgrade_pipelines WHERE id = ? AND site_id = ?").get(id, siteId) as PipelineRow | undefined;
  if (!row) throw notFound();
  return row;
}

export interface PipelineInput {
  to_wp_version?: string;
  to_php_version?: string;
  requires_approval?: boolean;
  snapshot_id?: string | null;
}

function checkVersion(errors: FieldErrorCollector, field: string, value: string | undefined, known: readonly string[], current: string): void {
  if (value === undefined) return;
  if (!known.includes(value)) errors.add(field, "is not included in the list");
  else if (compareVersions(value, current) < 0) errors.add(field, `can't be lower than the current version (${current})`);
}

export function createPipeline(ctx: EmulatorContext, site: SiteRow, input: PipelineInput, origin: Origin): UpgradePipelineJson {
  const errors = new FieldErrorCollector();
  if (input.to_wp_version === undefined && input.to_php_version === undefined) {
    errors.add("to_wp_version", "can't be blank when to_php_version is not given");
  }
  checkVersion(errors, "to_wp_version", input.to_wp_version, WP_VERSIONS, site.wp_version);
  checkVersion(errors, "to_php_version", input.to_php_version, PHP_VERSIONS, site.php_version);
  const toWp = input.to_wp_version ?? site.wp_version;
  const toPhp = input.to_php_version ?? site.php_version;
  if (errors.empty && toWp === site.wp_version && toPhp === site.php_version) {
    for (const f of ["to_wp_version", "to_php_version"] as const) if (input[f] !== undefined) errors.add(f, "is already the site's version");
  }
  if (input.snapshot_id != null) {
    const snap = isId("snap", input.snapshot_id) ? getSnapshotRow(ctx, input.snapshot_id) : undefined;
    if (!snap || snap.site_id !== site.id || snap.status !== "completed") errors.add("snapshot_id", "must be a completed snapshot of this site");
  }
  errors.throwIfAny();
  if (stmt(ctx.db, `SELECT 1 FROM upgrade_pipelines WHERE site_id = ? AND ${PIPELINE_ACTIVE_SQL} LIMIT 1`).get(site.id)) {
    throw unprocessable("Site already has an active upgrade pipeline");
  }

  const nowMs = ctx.clock.nowMs();
  const now = ctx.clock.iso(nowMs);
  const nextMs = nowMs + ctx.options.stepSeconds * 1000;
  const id = newId("upg");
  const steps: Step[] = STEP_NAMES.map((name) => ({ name, status: "pending", started_at: null, finished_at: null }));
  ctx.db.transaction(() => {
    stmt(
      ctx.db,
      `INSERT INTO upgrade_pipelines (id, site_id, account_id, status, from_wp_version, to_wp_version, from_php_version, to_php_version,
         snapshot_id, requires_approval, steps, next_step_ms, created_at, updated_at)
       VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, site.id, site.account_id, site.wp_version, toWp, site.php_version, toPhp, input.snapshot_id ?? null,
      input.requires_approval === false ? 0 : 1, JSON.stringify(steps), nextMs, now, now);
    recordActivity(ctx, { accountId: site.account_id, siteId: site.id, action: "upgrade_pipeline.created", subjectType: "UpgradePipeline", subjectId: id }, origin);
  })();
  const json = serializePipeline(getPipeline(ctx, id)!);
  ctx.events.emit(site.account_id, "upgrade_pipeline.created", json);
  ctx.scheduler.poke(nextMs);
  return json;
}

export function approvePipeline(ctx: EmulatorContext, row: PipelineRow, userId: string, comment: string | null, origin: Origin): UpgradePipelineJson {
  if (row.status !== "awaiting_approval") throw unprocessable("Pipeline is not awaiting approval");
  const nowMs = ctx.clock.nowMs();
  const now = ctx.clock.iso(nowMs);
  const steps = setStep(parseJson<Step[]>(row.steps, []), "apply", "running", now);
  const nextMs = nowMs + ctx.options.stepSeconds * 1000;
  ctx.db.transaction(() => {
    stmt(
      ctx.db,
      `UPDATE upgrade_pipelines SET status = 'applying', approved_at = ?, approved_by = ?, comment = ?, steps = ?, next_step_ms = ?, updated_at = ?
        WHERE id = ?`,
    ).run(now, userId, comment, JSON.stringify(steps), nextMs, now, row.id);
    recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: "upgrade_pipeline.approved", subjectType: "UpgradePipeline", subjectId: row.id,
      changes: { status: ["awaiting_approval", "applying"] } }, origin);
  })();
  const json = serializePipeline(getPipeline(ctx, row.id)!);
  ctx.events.emit(row.account_id, "upgrade_pipeline.approved", json);
  refreshSiteStatus(ctx, row.site_id);
  ctx.scheduler.poke(nextMs);
  return json;
}

export function setStep(steps: Step[], name: StepName, status: StepStatus, at: string): Step[] {
  return steps.map((s) => {
    if (s.name !== name) return s;
    if (status === "running") return { ...s, status, started_at: at };
    return { ...s, status, started_at: s.started_at ?? (status === "skipped" ? null : at), finished_at: at };
  });
}
