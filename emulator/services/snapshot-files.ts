// Where uploaded snapshot data lives on disk: <dataDir>/snapshots/<site_id>/<snapshot_id> (files 0600, folders
// 0700: issue 38), the check of --data-dir, and the sweep that removes what no snapshot owns any more (issue
// 12: a crash mid-upload must not leave files forever).
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { EmulatorContext } from "../context.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, unsafeDir } from "../private-paths.js";
import { findSnapshot } from "../store/snapshots.js";

/**
 * The data folder, made 0700 when missing (with any missing parents); an existing one is refused when it is a
 * link, another user's, or writable by others (unsafeDir), in one line naming the flag.
 */
export function claimDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch {
    // an existing non-folder: lstat below says what it is
  }
  let problem: string | undefined;
  try {
    problem = unsafeDir(lstatSync(dir));
  } catch (err) {
    problem = `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (problem)
    throw new Error(`--data-dir ${dir} ${problem}; the emulator keeps uploaded snapshot data only in a folder of its own that no one else can write`);
}

/** The mode of every data file (0600, whatever the umask: the umask only ever takes bits away). */
export const DATA_FILE_MODE = PRIVATE_FILE_MODE;

/** Creates a site's data folder (and `snapshots/`) 0700 where missing. */
export function makeSiteDataDir(ctx: EmulatorContext, siteId: string): void {
  mkdirSync(siteDataDir(ctx, siteId), { recursive: true, mode: PRIVATE_DIR_MODE });
}

function siteDataDir(ctx: EmulatorContext, siteId: string): string {
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

export function removeSnapshotData(ctx: EmulatorContext, siteId: string, snapshotId: string): void {
  rmSync(snapshotDataPath(ctx, siteId, snapshotId), { force: true });
}

/**
 * Run at start-up, before any request: removes every `.part` file (a one-request upload that never finished:
 * the emulator crashed or was killed mid-body), and every data file whose snapshot is gone, failed, or
 * completed with another file. A resumable upload's partial file is kept only while its snapshot still
 * waits for data (`requested`/`in_progress`, source upload). Only names the emulator itself makes are touched.
 * What stays is made 0600 (folders 0700), for data written before issue 38 under the umask.
 */
export function sweepSnapshotFiles(ctx: EmulatorContext): void {
  const root = path.join(ctx.dataDir, "snapshots");
  if (!existsSync(root)) return;
  chmodSync(root, PRIVATE_DIR_MODE);
  for (const site of readdirSync(root, { withFileTypes: true })) {
    if (!site.isDirectory() || !/^site_[A-Za-z0-9]+$/.test(site.name)) continue;
    const dir = path.join(root, site.name);
    chmodSync(dir, PRIVATE_DIR_MODE);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(dir, entry.name);
      if (entry.name.endsWith(".part")) {
        rmSync(file, { force: true });
        continue;
      }
      if (!/^snap_[A-Za-z0-9]+$/.test(entry.name)) continue;
      const row = findSnapshot(ctx.db, entry.name);
      const uploading = row?.source === "upload" && (row.status === "requested" || row.status === "in_progress");
      const kept = row?.site_id === site.name && (uploading || (row.status === "completed" && row.data_path === file));
      if (!kept) rmSync(file, { force: true });
      else chmodSync(file, PRIVATE_FILE_MODE);
    }
  }
}
