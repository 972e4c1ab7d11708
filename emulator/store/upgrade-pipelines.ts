// The upgrade_pipelines table: rows, their transitions, and which pipelines are still active.
import { upgradePipelineFields } from "../../wire/generated/fields.js";
import type { PipelineStatus, Step, UpgradePipelineJson } from "../../wire/upgrade-pipelines.js";
import { isId } from "../ids.js";
import { parseJson, stmt, type Database, type PageSource } from "./db.js";
import { insertRow, rowToJson, shownFields } from "./wire-columns.js";

/** A pipeline's row: its wire fields (requires_approval as 0/1, the steps as JSON text), and what only the
 * emulator keeps. */
export interface PipelineRow extends Omit<UpgradePipelineJson, "requires_approval" | "steps"> {
  seq: number;
  account_id: string;
  requires_approval: number;
  steps: string;
  next_step_ms: number | null;
}

const SHOWN = shownFields(upgradePipelineFields);
const DECODE = { requires_approval: (v: unknown) => v === 1, steps: (text: unknown) => parseJson<Step[]>(text as string, []) };

export function pipelineToJson(row: PipelineRow): UpgradePipelineJson {
  return rowToJson(row, SHOWN, DECODE);
}

/** Statuses of a pipeline that still needs its snapshot (a failed one may still roll back). */
const ACTIVE_SQL = "(status IN ('pending','running','awaiting_approval','applying') OR (status = 'failed' AND next_step_ms IS NOT NULL))";

export function findPipeline(db: Database, id: string): PipelineRow | undefined {
  return stmt(db, "SELECT * FROM upgrade_pipelines WHERE id = ?").get(id) as PipelineRow | undefined;
}

export function findPipelineOf(db: Database, siteId: string, id: string): PipelineRow | undefined {
  if (!isId("upg", id)) return undefined;
  return stmt(db, "SELECT * FROM upgrade_pipelines WHERE id = ? AND site_id = ?").get(id, siteId) as PipelineRow | undefined;
}

/** The site's pipelines, newest first. */
export function pipelinesPage(db: Database, siteId: string): PageSource<UpgradePipelineJson> {
  return {
    count: () => (stmt(db, "SELECT COUNT(*) AS n FROM upgrade_pipelines WHERE site_id = ?").get(siteId) as { n: number }).n,
    rows: (limit, offset) =>
      (stmt(db, "SELECT * FROM upgrade_pipelines WHERE site_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?").all(siteId, limit, offset) as PipelineRow[]).map(
        pipelineToJson,
      ),
  };
}

export function hasActivePipeline(db: Database, siteId: string): boolean {
  return activePipelineId(db, siteId) !== undefined;
}

/** The id of the site's active pipeline (at most one), if any. */
export function activePipelineId(db: Database, siteId: string): string | undefined {
  return (stmt(db, `SELECT id FROM upgrade_pipelines WHERE site_id = ? AND ${ACTIVE_SQL} LIMIT 1`).get(siteId) as { id: string } | undefined)?.id;
}

export function snapshotInUse(db: Database, snapshotId: string): boolean {
  return Boolean(stmt(db, `SELECT 1 FROM upgrade_pipelines WHERE snapshot_id = ? AND ${ACTIVE_SQL} LIMIT 1`).get(snapshotId));
}

export function isApplying(db: Database, siteId: string): boolean {
  return Boolean(stmt(db, "SELECT 1 FROM upgrade_pipelines WHERE site_id = ? AND status = 'applying' LIMIT 1").get(siteId));
}

/** A new pipeline (`pending`): all but what its steps and approval fill in later. */
export type NewPipeline = Omit<
  PipelineRow,
  "seq" | "status" | "approved_at" | "approved_by" | "comment" | "error" | "steps" | "updated_at" | "completed_at"
> & {
  steps: Step[];
};

export function insertPipeline(db: Database, p: NewPipeline): void {
  insertRow(db, "upgrade_pipelines", { ...p, status: "pending", updated_at: p.created_at });
}

export function markPipelineApproved(
  db: Database,
  id: string,
  a: { at: string; userId: string; comment: string | null; steps: Step[]; nextStepMs: number },
): void {
  stmt(
    db,
    `UPDATE upgrade_pipelines SET status = 'applying', approved_at = ?, approved_by = ?, comment = ?, steps = ?, next_step_ms = ?, updated_at = ?
      WHERE id = ?`,
  ).run(a.at, a.userId, a.comment, JSON.stringify(a.steps), a.nextStepMs, a.at, id);
}

export interface PipelineUpdate {
  status: PipelineStatus;
  steps: Step[];
  nextStepMs: number | null;
  /** Kept when null. */
  error: string | null;
  /** Kept when null. */
  snapshotId: string | null;
  completed: boolean;
  at: string;
}

export function updatePipelineRow(db: Database, id: string, u: PipelineUpdate): void {
  stmt(
    db,
    `UPDATE upgrade_pipelines SET status = ?, steps = ?, next_step_ms = ?, error = COALESCE(?, error), snapshot_id = COALESCE(?, snapshot_id),
       completed_at = CASE WHEN ? THEN ? ELSE completed_at END, updated_at = ? WHERE id = ?`,
  ).run(u.status, JSON.stringify(u.steps), u.nextStepMs, u.error, u.snapshotId, u.completed ? 1 : 0, u.at, u.at, id);
}

/** Up to 100 pipelines with a step due by nowMs, in due order. */
export function duePipelines(db: Database, nowMs: number): PipelineRow[] {
  return stmt(db, "SELECT * FROM upgrade_pipelines WHERE next_step_ms <= ? ORDER BY next_step_ms, seq LIMIT 100").all(nowMs) as PipelineRow[];
}

export function nextPipelineDueMs(db: Database): number | null {
  return (stmt(db, "SELECT MIN(next_step_ms) AS m FROM upgrade_pipelines").get() as { m: number | null }).m;
}
