// Snapshots: creation, deletion, and the service-side capture (requested -> in_progress -> completed,
// one step per stepSeconds of emulator clock). A service capture fails when the site is down at the
// moment of capture (a forced `failed` health check makes that happen on demand). An upload snapshot
// fails when its data has not all arrived 24 h (emulator clock) after its creation, and its partial data
// is deleted; an account has at most 100 upload snapshots waiting for data (issue 26).
import { createHash, randomInt } from "node:crypto";
import type { EmulatorContext } from "../context.js";
import { SYSTEM_ORIGIN, type Origin } from "../auth/auth-context.js";
import { notFound, unprocessable } from "../errors.js";
import type { SnapshotInput, SnapshotJson } from "../../wire/snapshots.js";
import type { PageSource } from "../store/db.js";
import { findSite } from "../store/sites.js";
import {
  clearSnapshotStep,
  countOpenUploads,
  deleteSnapshotRow,
  dueSnapshots,
  findSnapshot,
  findSnapshotOf,
  insertSnapshot,
  markSnapshotCompleted,
  markSnapshotFailed,
  markSnapshotInProgress,
  nextSnapshotDueMs,
  snapshotToJson,
  snapshotsPage,
  type SnapshotRow,
} from "../store/snapshots.js";
import { snapshotInUse } from "../store/upgrade-pipelines.js";
import { recordActivity } from "./activity-logs.js";
import { removeSnapshotData } from "./snapshot-files.js";
import { versionsOf, type SiteVersions } from "../versions.js";

export function listSnapshots(ctx: EmulatorContext, siteId: string): PageSource<SnapshotJson> {
  return snapshotsPage(ctx.db, siteId);
}

/** The snapshot of this (already authorized) site, or 404. */
export function loadSnapshot(ctx: EmulatorContext, siteId: string, id: string): SnapshotRow {
  const row = findSnapshotOf(ctx.db, siteId, id);
  if (!row) throw notFound();
  return row;
}

export function getSnapshot(ctx: EmulatorContext, siteId: string, id: string): SnapshotJson {
  return snapshotToJson(loadSnapshot(ctx, siteId, id));
}

/** How long an upload snapshot waits for its data before it fails (emulator clock). */
const UPLOAD_EXPIRY_SECONDS = 24 * 3600;
/** Upload snapshots an account may have waiting for data at once (above the tools' 64 sites at a time). */
const MAX_OPEN_UPLOADS_PER_ACCOUNT = 100;

/** Creates a snapshot of the site; a service capture is scheduled on the emulator clock, an upload's deadline too. */
export function createSnapshot(
  ctx: EmulatorContext,
  site: { id: string; account_id: string } & SiteVersions,
  input: SnapshotInput,
  origin: Origin = SYSTEM_ORIGIN,
  /** Emulator-clock time of creation (a pipeline step caught up after a clock jump); default now. */
  atMs: number = ctx.clock.nowMs(),
): SnapshotJson {
  const upload = input.upload === true;
  const id = ctx.newId("snap");
  const nextMs = atMs + (upload ? UPLOAD_EXPIRY_SECONDS : ctx.options.stepSeconds) * 1000;
  ctx.db.transaction(() => {
    if (upload && countOpenUploads(ctx.db, site.account_id) >= MAX_OPEN_UPLOADS_PER_ACCOUNT) {
      throw unprocessable(`An account can have at most ${MAX_OPEN_UPLOADS_PER_ACCOUNT} upload snapshots waiting for data; finish or delete one first`);
    }
    insertSnapshot(ctx.db, {
      id,
      site_id: site.id,
      account_id: site.account_id,
      source: upload ? "upload" : "service",
      trigger: input.trigger ?? "manual",
      description: input.description ?? null,
      ...versionsOf(site),
      next_step_ms: nextMs,
      created_at: ctx.clock.iso(atMs),
    });
    recordActivity(ctx, { accountId: site.account_id, siteId: site.id, action: "snapshot.created", subjectType: "Snapshot", subjectId: id }, origin);
  })();
  const json = snapshotToJson(findSnapshot(ctx.db, id)!);
  ctx.events.emit(site.account_id, "snapshot.created", json);
  ctx.scheduler.poke(nextMs);
  return json;
}

/** Marks a snapshot completed with its data's size and checksum, logs and announces it. */
export function completeSnapshot(ctx: EmulatorContext, id: string, size: number, checksum: string, atMs: number, origin: Origin = SYSTEM_ORIGIN): SnapshotJson {
  const row = findSnapshot(ctx.db, id)!;
  markSnapshotCompleted(ctx.db, id, size, checksum, ctx.clock.iso(atMs));
  recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: "snapshot.completed", subjectType: "Snapshot", subjectId: id }, origin);
  const json = snapshotToJson(findSnapshot(ctx.db, id)!);
  ctx.events.emit(row.account_id, "snapshot.completed", json);
  return json;
}

function failSnapshot(ctx: EmulatorContext, id: string, error: string, atMs: number): void {
  const row = findSnapshot(ctx.db, id)!;
  markSnapshotFailed(ctx.db, id, error, ctx.clock.iso(atMs));
  recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: "snapshot.failed", subjectType: "Snapshot", subjectId: id });
  ctx.events.emit(row.account_id, "snapshot.failed", snapshotToJson(findSnapshot(ctx.db, id)!));
}

/** One step of a service capture, or an upload's deadline, due at row.next_step_ms. */
function stepSnapshot(ctx: EmulatorContext, row: SnapshotRow): void {
  const dueMs = row.next_step_ms!;
  if (row.source === "upload") {
    if (row.status !== "requested" && row.status !== "in_progress") return clearSnapshotStep(ctx.db, row.id);
    failSnapshot(ctx, row.id, `Upload not completed within ${UPLOAD_EXPIRY_SECONDS / 3600} hours: the partial data was deleted`, dueMs);
    removeSnapshotData(ctx, row.site_id, row.id);
    return;
  }
  if (row.status === "requested") {
    markSnapshotInProgress(ctx.db, row.id, dueMs + ctx.options.stepSeconds * 1000, ctx.clock.iso(dueMs));
    return;
  }
  if (row.status === "in_progress") {
    if (findSite(ctx.db, row.site_id)?.status === "down") {
      failSnapshot(ctx, row.id, "Site could not be reached: the snapshot was not captured", dueMs);
      return;
    }
    // A plausible archive size; the checksum stands for data the emulator does not really hold.
    const size = randomInt(40, 400) * 1024 * 1024 + randomInt(0, 1024 * 1024);
    const checksum = createHash("sha256").update(`${row.id}:${size}`).digest("hex");
    completeSnapshot(ctx, row.id, size, checksum, dueMs);
    return;
  }
  clearSnapshotStep(ctx.db, row.id);
}

/** Advances one snapshot through every step due by `untilMs` (pipelines call this for their own). */
export function catchUpSnapshot(ctx: EmulatorContext, id: string, untilMs: number): SnapshotRow | undefined {
  for (let i = 0; i < 10; i++) {
    const row = findSnapshot(ctx.db, id);
    if (!row || row.next_step_ms === null || row.next_step_ms > untilMs) return row;
    ctx.db.transaction(() => stepSnapshot(ctx, row))();
  }
  return findSnapshot(ctx.db, id);
}

/** Every snapshot step due by nowMs, in due order. */
export function runDueSnapshots(ctx: EmulatorContext, nowMs: number): void {
  for (;;) {
    const rows = dueSnapshots(ctx.db, nowMs);
    if (rows.length === 0) return;
    for (const row of rows) ctx.db.transaction(() => stepSnapshot(ctx, row))();
  }
}

export function snapshotsDueMs(ctx: EmulatorContext): number | null {
  return nextSnapshotDueMs(ctx.db);
}

/** Deletes a snapshot and its data; 422 while a pipeline still needs it. */
export function deleteSnapshot(ctx: EmulatorContext, row: SnapshotRow, origin: Origin): void {
  if (snapshotInUse(ctx.db, row.id)) throw unprocessable("Snapshot is in use by a running upgrade pipeline");
  const json = snapshotToJson(row);
  ctx.db.transaction(() => {
    deleteSnapshotRow(ctx.db, row.id);
    recordActivity(ctx, { accountId: row.account_id, siteId: row.site_id, action: "snapshot.deleted", subjectType: "Snapshot", subjectId: row.id }, origin);
  })();
  removeSnapshotData(ctx, row.site_id, row.id);
  ctx.events.emit(row.account_id, "snapshot.deleted", json);
}
