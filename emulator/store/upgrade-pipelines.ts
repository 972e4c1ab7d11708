// The upgrade_pipelines table: rows, their transitions, and which pipelines are still active.
import type { PipelineStatus, Step, UpgradePipelineJson } from "../../wire/upgrade-pipelines.js";
import { isId } from "../ids.js";
import { parseJson, stmt, type Database, type PageSource } from "./db.js";

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

export function pipelineToJson(row: PipelineRow): UpgradePipelineJson {
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
  return Boolean(stmt(db, `SELECT 1 FROM upgrade_pipelines WHERE site_id = ? AND ${ACTIVE_SQL} LIMIT 1`).get(siteId));
}

export function snapshotInUse(db: Database, snapshotId: string): boolean {
  return Boolean(stmt(db, `SELECT 1 FROM upgrade_pipelines WHERE snapshot_id = ? AND ${ACTIVE_SQL} LIMIT 1`).get(snapshotId));
}

export function isApplying(db: Database, siteId: string): boolean {
  return Boolean(stmt(db, "SELECT 1 FROM upgrade_pipelines WHERE site_id = ? AND status = 'applying' LIMIT 1").get(siteId));
}

export type NewPipeline = Pick<
  PipelineRow,
  | "id"
  | "site_id"
  | "account_id"
  | "from_wp_version"
  | "to_wp_version"
  | "from_php_version"
  | "to_php_version"
  | "snapshot_id"
  | "requires_approval"
  | "next_step_ms"
  | "created_at"
> & { steps: Step[] };

export function insertPipeline(db: Database, p: NewPipeline): void {
  stmt(
    db,
    `INSERT INTO upgrade_pipelines (id, site_id, account_id, status, from_wp_version, to_wp_version, from_php_version, to_php_version,
       snapshot_id, requires_approval, steps, next_step_ms, created_at, updated_at)
     VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    p.id,
    p.site_id,
    p.account_id,
    p.from_wp_version,
    p.to_wp_version,
    p.from_php_version,
    p.to_php_version,
    p.snapshot_id,
    p.requires_approval,
    JSON.stringify(p.steps),
    p.next_step_ms,
    p.created_at,
    p.created_at,
  );
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
