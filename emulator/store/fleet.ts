// Bulk inserts of a generated fleet (the seed's `generate`): each statement is prepared once and run per row
// inside the caller's transaction, so 10,000 sites or 100,000 snapshots take seconds, not minutes.
import { siteUrlKeyOf } from "../site-urls.js";
import type { Database } from "./db.js";
import type { NewHealthCheck } from "./health-checks.js";
import { noteSiteInserted, type NewSite } from "./sites.js";
import type { NewSnapshot } from "./snapshots.js";
import { insertRow } from "./wire-columns.js";

/** A site already checked: `healthy`, as createSite leaves a site whose first check passed. */
export function insertFleetSite(db: Database, s: NewSite & { updated_at: string }): void {
  insertRow(db, "sites", { ...s, url_key: siteUrlKeyOf(s.url), status: "healthy" });
  noteSiteInserted(db, s.account_id);
}

/** A passed check (HTTP 200); its items already JSON. */
export function insertFleetHealthCheck(db: Database, c: Omit<NewHealthCheck, "status" | "http_status" | "checks"> & { checks: string }): void {
  insertRow(db, "health_checks", { ...c, status: "passed", http_status: 200 });
}

/** A completed, scheduled service capture (as services/snapshots.ts leaves one after its last step). */
export function insertFleetSnapshot(
  db: Database,
  s: Omit<NewSnapshot, "source" | "trigger" | "description" | "next_step_ms"> & { size_bytes: number; checksum_sha256: string; completed_at: string },
): void {
  insertRow(db, "snapshots", {
    ...s,
    status: "completed",
    source: "service",
    trigger: "scheduled",
    description: null,
    upload_received: 0,
    upload_total: null,
    next_step_ms: null,
    updated_at: s.completed_at,
  });
}
