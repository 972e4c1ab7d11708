// The snapshots table: rows, their state changes (capture steps, upload progress, completion) and the
// due steps of service captures.
import { snapshotFields } from "../../wire/generated/fields.js";
import type { SnapshotJson } from "../../wire/snapshots.js";
import { isId } from "../ids.js";
import { stmt, type Database, type PageSource } from "./db.js";
import { insertRow, rowToJson, shownFields } from "./wire-columns.js";

/** A snapshot's row: its wire fields (each in a column of its name), and what only the emulator keeps. */
export interface SnapshotRow extends SnapshotJson {
  seq: number;
  account_id: string;
  data_path: string | null;
  upload_received: number;
  upload_total: number | null;
  next_step_ms: number | null;
  updated_at: string;
}

const SHOWN = shownFields(snapshotFields);

export function snapshotToJson(row: SnapshotRow): SnapshotJson {
  return rowToJson(row, SHOWN);
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

/** A new snapshot (`requested`): all but what its capture or upload fills in later. */
export type NewSnapshot = Omit<
  SnapshotRow,
  "seq" | "status" | "size_bytes" | "checksum_sha256" | "error" | "completed_at" | "data_path" | "upload_received" | "upload_total" | "updated_at"
>;

export function insertSnapshot(db: Database, s: NewSnapshot): void {
  insertRow(db, "snapshots", { ...s, status: "requested", updated_at: s.created_at });
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
