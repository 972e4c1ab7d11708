// Bulk inserts of a generated fleet (the seed's `generate`): each statement is prepared once and run per row
// inside the caller's transaction, so 10,000 sites or 100,000 snapshots take seconds, not minutes.
import { siteUrlKeyOf } from "../site-urls.js";
import type { Database } from "./db.js";
import type { NewHealthCheck } from "./health-checks.js";
import { noteSiteInserted, type NewSite } from "./sites.js";
import type { NewSnapshot } from "./snapshots.js";
import { insertRow } from "./wire-columns.js";
import type { HealthStatus } from "../../wire/health-checks.js";
import type { SiteStatus } from "../../wire/sites.js";

/**
 * A site already checked: `healthy` unless given its first check's status, as createSite leaves a site whose first
 * check passed; `forced_health` is the check status that sticks to it (a spread fleet's degraded and down sites).
 */
export function insertFleetSite(db: Database, s: NewSite & { updated_at: string; status?: SiteStatus; forced_health?: HealthStatus | null }): void {
  insertRow(db, "sites", { status: "healthy", ...s, url_key: siteUrlKeyOf(s.url) });
  noteSiteInserted(db, s.account_id);
}

/** A check, passed unless given its status (HTTP 200, 503 when failed); its items already JSON. */
export function insertFleetHealthCheck(
  db: Database,
  c: Omit<NewHealthCheck, "status" | "http_status" | "checks"> & { checks: string; status?: HealthStatus },
): void {
  const status = c.status ?? "passed";
  insertRow(db, "health_checks", { ...c, status, http_status: status === "failed" ? 503 : 200 });
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
