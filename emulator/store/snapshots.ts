// The snapshots table: rows, their state changes (capture steps, upload progress, completion) and the
// due steps of service captures.
import type { SnapshotJson, SnapshotStatus, SnapshotTrigger } from "../../wire/snapshots.js";
import { isId } from "../ids.js";
import { stmt, type Database, type PageSource } from "./db.js";

export interface SnapshotRow {
  seq: number;
  id: string;
  site_id: string;
  account_id: string;
  status: SnapshotStatus;
  source: "service" | "upload";
  trigger: SnapshotTrigger;
  description: string | null;
  wp_version: string;
  php_version: string;
  size_bytes: number | null;
  checksum_sha256: string | null;
  data_path: string | null;
  upload_received: number;
  upload_total: number | null;
  error: string | null;
  next_step_ms: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export function snapshotToJson(row: SnapshotRow): SnapshotJson {
  return {
    id: row.id,
    site_id: row.site_id,
    status: row.status,
    source: row.source,
    trigger: row.trigger,
    description: row.description,
    wp_version: row.wp_version,
    php_version: row.php_version,
    size_bytes: row.size_bytes,
    checksum_sha256: row.checksum_sha256,
    error: row.error,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

export function findSnapshot(db: Database, id: string): SnapshotRow | undefined {
  return stmt(db, "SELECT * FROM snapshots WHERE id = ?").get(id) as SnapshotRow | undefined;
}

export function findSnapshotOf(db: Database, siteId: string, id: string): SnapshotRow | undefined {
  if (!isId("snap", id)) return undefined;
  return stmt(db, "SELECT * FROM snapshots WHERE id = ? AND site_id = ?").get(id, siteId) as SnapshotRow | undefined;
}

/** The site's snapshots, newest first. */
export function snapshotsPage(db: Database, siteId: string): PageSource<SnapshotJson> {
  return {
    count: () => (stmt(db, "SELECT COUNT(*) AS n FROM snapshots WHERE site_id = ?").get(siteId) as { n: number }).n,
    rows: (limit, offset) =>
      (stmt(db, "SELECT * FROM snapshots WHERE site_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?").all(siteId, limit, offset) as SnapshotRow[]).map(
        snapshotToJson,
      ),
  };
}

export type NewSnapshot = Pick<
  SnapshotRow,
  "id" | "site_id" | "account_id" | "source" | "trigger" | "description" | "wp_version" | "php_version" | "next_step_ms" | "created_at"
>;

export function insertSnapshot(db: Database, s: NewSnapshot): void {
  stmt(
    db,
    `INSERT INTO snapshots (id, site_id, account_id, status, source, trigger, description, wp_version, php_version, next_step_ms, created_at, updated_at)
     VALUES (?, ?, ?, 'requested', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(s.id, s.site_id, s.account_id, s.source, s.trigger, s.description, s.wp_version, s.php_version, s.next_step_ms, s.created_at, s.created_at);
}

export function markSnapshotInProgress(db: Database, id: string, nextStepMs: number, at: string): void {
  stmt(db, "UPDATE snapshots SET status = 'in_progress', next_step_ms = ?, updated_at = ? WHERE id = ?").run(nextStepMs, at, id);
}

export function markSnapshotCompleted(db: Database, id: string, size: number, checksum: string, at: string): void {
  stmt(
    db,
    `UPDATE snapshots SET status = 'completed', size_bytes = ?, checksum_sha256 = ?, upload_received = CASE WHEN source = 'upload' THEN ? ELSE 0 END,
       upload_total = CASE WHEN source = 'upload' THEN ? ELSE NULL END, error = NULL, next_step_ms = NULL, updated_at = ?, completed_at = ? WHERE id = ?`,
  ).run(size, checksum, size, size, at, at, id);
}

export function markSnapshotFailed(db: Database, id: string, error: string, at: string): void {
  stmt(db, "UPDATE snapshots SET status = 'failed', error = ?, next_step_ms = NULL, updated_at = ? WHERE id = ?").run(error, at, id);
}

export function clearSnapshotStep(db: Database, id: string): void {
  stmt(db, "UPDATE snapshots SET next_step_ms = NULL WHERE id = ?").run(id);
}

/** Bytes received of an upload (a snapshot with data is `in_progress`, without `requested`). */
export function setUploadProgress(db: Database, id: string, received: number, total: number | null, file: string, at: string): void {
  stmt(
    db,
    `UPDATE snapshots SET upload_received = ?, upload_total = ?, data_path = ?,
       status = CASE WHEN status IN ('requested','in_progress') THEN (CASE WHEN ? > 0 THEN 'in_progress' ELSE 'requested' END) ELSE status END,
       updated_at = ? WHERE id = ?`,
  ).run(received, total, file, received, at, id);
}

export function setSnapshotDataPath(db: Database, id: string, file: string): void {
  stmt(db, "UPDATE snapshots SET data_path = ? WHERE id = ?").run(file, id);
}

export function deleteSnapshotRow(db: Database, id: string): void {
  stmt(db, "DELETE FROM snapshots WHERE id = ?").run(id);
}

/** Upload snapshots of the account still waiting for their data (`requested` or `in_progress`). */
export function countOpenUploads(db: Database, accountId: string): number {
  return (
    stmt(db, "SELECT COUNT(*) AS n FROM snapshots WHERE account_id = ? AND source = 'upload' AND status IN ('requested','in_progress')").get(accountId) as {
      n: number;
    }
  ).n;
}

/** Up to 100 snapshots with a capture step (or an upload's deadline) due by nowMs, in due order. */
export function dueSnapshots(db: Database, nowMs: number): SnapshotRow[] {
  return stmt(db, "SELECT * FROM snapshots WHERE next_step_ms <= ? ORDER BY next_step_ms, seq LIMIT 100").all(nowMs) as SnapshotRow[];
}

export function nextSnapshotDueMs(db: Database): number | null {
  return (stmt(db, "SELECT MIN(next_step_ms) AS m FROM snapshots").get() as { m: number | null }).m;
}
