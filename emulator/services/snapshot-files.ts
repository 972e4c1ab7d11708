// Where uploaded snapshot data lives on disk: <dataDir>/snapshots/<site_id>/<snapshot_id>.
import { rmSync } from "node:fs";
import path from "node:path";
import type { EmulatorContext } from "../context.js";

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

export function removeSnapshotData(ctx: EmulatorContext, siteId: string, snapshotId: string): void {
  rmSync(snapshotDataPath(ctx, siteId, snapshotId), { force: true });
}
