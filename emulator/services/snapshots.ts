// Snapshots: the resource, the service-side capture (requested -> in_progress -> completed, one step
// per stepSeconds of emulator clock), and where uploaded data lives on disk:
// <dataDir>/snapshots/<site_id>/<snapshot_id>.
//
// A service capture fails when the site is down at the moment of capture (a forced `failed` health
// check makes that happen on demand).
import { createHash, randomInt } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { Type, type Static } from "typebox";
import type { EmulatorContext } from "../context.js";
import { SYSTEM_ACTOR, type Actor } from "../auth/auth-context.js";
import { recordActivity } from "../activity.js";
import { isId, newId } from "../ids.js";
import { stmt } from "../store/db.js";
import { notFound } from "../errors.js";

export const SNAPSHOT_STATUSES = ["requested", "in_progress", "completed", "failed"] as const;
export const SNAPSHOT_TRIGGERS = ["manual", "scheduled", "pre_upgrade", "system"] as const;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const SnapshotSchema = Type.Object({
  id: Type.String(),
  site_id: Type.String(),
  status: Type.Union([Type.Literal("requested"), Type.Literal("in_progress"), Type.Literal("completed"), Type.Literal("failed")]),
  source: Type.Union([Type.Literal("service"), Type.Literal("upload")]),
  trigger: Type.Union([Type.Literal("manual"), Type.Literal("scheduled"), Type.Literal("pre_upgrade"), Type.Literal("system")]),
  description: Nullable(Type.String()),
  wp_version: Type.String(),
  php_version: Type.String(),
  size_bytes: Nullable(Type.Integer()),
  checksum_sha256: Nullable(Type.String({ description: "Lowercase hex SHA-256 of the data" })),
  error: Nullable(Type.String({ description: "Why the snapshot failed" })),
  created_at: Type.String(),
  completed_at: Nullable(Type.String()),
});
export type SnapshotJson = Static<typeof SnapshotSchema>;
export type SnapshotStatus = SnapshotJson["status"];
export type SnapshotTrigger = SnapshotJson["trigger"];

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

export interface Origin {
  actor: Actor;
  ip?: string | null;
  requestId?: string | null;
}

export function serializeSnapshot(row: SnapshotRow): SnapshotJson {
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

export function siteDataDir(ctx: EmulatorContext, siteId: string): string {
  return path.join(ctx.dataDir, "snapshots", siteId);
}

export function snapshotDataPath(ctx: EmulatorContext, siteId: string, snapshotId: string): string {
  return path.join(siteDataDir(ctx, siteId), snapshotId);
}

/** Deletes every uploaded file of a site (the site is being deleted). */
export function removeSiteData(ctx: EmulatorContext, siteId: string): void {
  if (!/^site_[A-Za-z0-9]+$/.test(siteId)) return; // never build a path from anything else
  rmSync(siteDataDir(ctx, siteId), { recursive: true, force: true });
}

export function getSnapshotRow(ctx: EmulatorContext, id: string): SnapshotRow | undefined {
  return stmt(ctx.db, "SELECT * FROM snapshots WHERE id = ?").get(id) as SnapshotRow | undefined;
}

/** The snapshot of this (already authorized) site, or 404. */
export function loadSnapshot(ctx: EmulatorContext, siteId: string, id: string): SnapshotRow {
  if (!isId("snap", id)) throw notFound();
  const row = stmt(ctx.db, "SELECT * FROM snapshots WHERE id = ? AND site_id = ?").get(id, siteId) as SnapshotRow | undefined;
  if (!row) throw notFound();
  return row;
}

/** Statuses of a pipeline that still needs its snapshot (a failed one may still roll back). */
export const PIPELINE_ACTIVE_SQL = "(status IN ('pending','running','awaiting_approval','applying') OR (status = 'failed' AND next_step_ms IS NOT NULL))";

export function snapshotInUse(ctx: EmulatorContext, snapshotId: string): boolean {
  return Boolean(stmt(ctx.db, `SELECT 1 FROM upgrade_pipelines WHERE snapshot_id = ? AND ${PIPELINE_ACTIVE_SQL} LIMIT 1`).get(snapshotId));
}

export interface SnapshotInput {
  description?: string | null;
  trigger?: SnapshotTrigger;
  upload?: boolean;
}

/** Creates a snapshot of the site; a service capture is scheduled on the emulator clock. */
export function createSnapshot(
  ctx: EmulatorContext,
  site: { id: string; account_id: string; wp_version: string; php_version: string },
  input: SnapshotInput,
  origin: Origin = { actor: SYSTEM_ACTOR },
  /** Emulator-clock time of creation (a pipeline step caught up after a clock jump); default now. */
  atMs: number = ctx.clock.nowMs(),
): SnapshotJson {
  const nowMs = atMs;
  const now = ctx.clock.iso(nowMs);
  const upload = input.upload === true;
  const id = newId("snap");
  const nextMs = upload ? null : nowMs + ctx.options.stepSeconds * 1000;
  ctx.db.transaction(() => {
    stmt(
      ctx.db,
      `INSERT INTO snapshots (id, site_id, account_id, status, source, trigger, description, wp_version, php_version, next_step_ms, created_at, updated_at)
       VALUES (?, ?, ?, 'requested', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, site.id, site.account_id, upload ? "upload" : "service", input.trigger ?? "manual", input.description ?? null,
      site.wp_version, site.php_version, nextMs, now, now);
    recordActivity(ctx, { accountId: site.account_id, siteId: site.id, action: "snapshot.created", subjectType: "Snapshot", subjectId: id }, origin);
  })();
  const json = serializeSnapshot(getSnapshotRow(ctx, id)!);
  ctx.events.emit(site.account_id, "snapshot.created", json);
  if (nextMs !== null) ctx.scheduler.poke(nextMs);
  return json;
}

/** Marks a snapshot completed with its data's size and checksum, logs and announces it. */
export function completeSnapshot(ctx: EmulatorContext, id: string, size: number, checksum: string, atMs: number, origin: Origin = { actor: SYSTEM_ACTOR }): SnapshotJson {
  const at = ctx.clock.iso(atMs);
  const row = getSnapshotRow(ctx, id)!;
  stmt(
    ctx.db,
    `UPDATE snapshots SET status = 'completed', size_bytes = ?, checksum_sha256 = ?, upload_received = CASE WHEN source = 'upload' THEN ? ELSE 0 END,
       upload_total = CASE WHEN source = 'upload' THEN ? ELSE NULL END, error = NULL, next_step_ms = NULL, updated_at = ?, completed_at = ? WHERE id = ?`,
  ).run(size, checksum, size, size, at, at, id);
  recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: "snapshot.completed", subjectType: "Snapshot", subjectId: id }, origin);
  const json = serializeSnapshot(getSnapshotRow(ctx, id)!);
  ctx.events.emit(row.account_id, "snapshot.completed", json);
  return json;
}

export function failSnapshot(ctx: EmulatorContext, id: string, error: string, atMs: number): SnapshotJson {
  const at = ctx.clock.iso(atMs);
  const row = getSnapshotRow(ctx, id)!;
  stmt(ctx.db, "UPDATE snapshots SET status = 'failed', error = ?, next_step_ms = NULL, updated_at = ? WHERE id = ?").run(error, at, id);
  recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: "snapshot.failed", subjectType: "Snapshot", subjectId: id });
  const json = serializeSnapshot(getSnapshotRow(ctx, id)!);
  ctx.events.emit(row.account_id, "snapshot.failed", json);
  return json;
}

/** One step of a service capture, due at row.next_step_ms. */
function stepSnapshot(ctx: EmulatorContext, row: SnapshotRow): void {
  const dueMs = row.next_step_ms!;
  const stepMs = ctx.options.stepSeconds * 1000;
  if (row.status === "requested") {
    stmt(ctx.db, "UPDATE snapshots SET status = 'in_progress', next_step_ms = ?, updated_at = ? WHERE id = ?").run(dueMs + stepMs, ctx.clock.iso(dueMs), row.id);
    return;
  }
  if (row.status === "in_progress") {
    const site = stmt(ctx.db, "SELECT status FROM sites WHERE id = ?").get(row.site_id) as { status: string } | undefined;
    if (site?.status === "down") {
      failSnapshot(ctx, row.id, "Site could not be reached: the snapshot was not captured", dueMs);
      return;
    }
    // A plausible archive size; the checksum stands for data the emulator does not really hold.
    const size = randomInt(40, 400) * 1024 * 1024 + randomInt(0, 1024 * 1024);
    const checksum = createHash("sha256").update(`${row.id}:${size}`).digest("hex");
    completeSnapshot(ctx, row.id, size, checksum, dueMs);
    return;
  }
  stmt(ctx.db, "UPDATE snapshots SET next_step_ms = NULL WHERE id = ?").run(row.id);
}

/** Advances one snapshot through every step due by `untilMs` (pipelines call this for their own). */
export function catchUpSnapshot(ctx: EmulatorContext, id: string, untilMs: number): SnapshotRow | undefined {
  for (let i = 0; i < 10; i++) {
    const row = getSnapshotRow(ctx, id);
    if (!row || row.next_step_ms === null || row.next_step_ms > untilMs) return row;
    ctx.db.transaction(() => stepSnapshot(ctx, row))();
  }
  return getSnapshotRow(ctx, id);
}

/** Every snapshot step due by nowMs, in due order. */
export function runDueSnapshots(ctx: EmulatorContext, nowMs: number): void {
  for (;;) {
    const rows = stmt(ctx.db, "SELECT * FROM snapshots WHERE next_step_ms <= ? ORDER BY next_step_ms, seq LIMIT 100").all(nowMs) as SnapshotRow[];
    if (rows.length === 0) return;
    for (const row of rows) ctx.db.transaction(() => stepSnapshot(ctx, row))();
  }
}

export function nextSnapshotDueMs(ctx: EmulatorContext): number | null {
  return (stmt(ctx.db, "SELECT MIN(next_step_ms) AS m FROM snapshots").get() as { m: number | null }).m;
}

/** Deletes a snapshot and its data. The caller has checked it is not in use. */
export function deleteSnapshot(ctx: EmulatorContext, row: SnapshotRow, origin: Origin): void {
  const json = serializeSnapshot(row);
  ctx.db.transaction(() => {
    stmt(ctx.db, "DELETE FROM snapshots WHERE id = ?").run(row.id);
    recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: "snapshot.deleted", subjectType: "Snapshot", subjectId: row.id }, origin);
  })();
  rmSync(snapshotDataPath(ctx, row.site_id, row.id), { force: true });
  ctx.events.emit(row.account_id, "snapshot.deleted", json);
}
