// Bulk inserts of a generated fleet (the seed's `generate`): each statement is prepared once and run per row
// inside the caller's transaction, so 10,000 sites or 100,000 snapshots take seconds, not minutes.
import { siteUrlKeyOf } from "../site-urls.js";
import { stmt, type Database } from "./db.js";
import { noteSiteInserted } from "./sites.js";

export interface FleetSite {
  id: string;
  account_id: string;
  name: string;
  url: string;
  wp_version: string;
  php_version: string;
  next_health_check_ms: number;
  created_at: string;
  updated_at: string;
}

/** A site already checked: `healthy`, as createSite leaves a site whose first check passed. */
export function insertFleetSite(db: Database, s: FleetSite): void {
  stmt(
    db,
    `INSERT INTO sites (id, account_id, name, url, url_key, status, wp_version, php_version, next_health_check_ms, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'healthy', ?, ?, ?, ?, ?)`,
  ).run(s.id, s.account_id, s.name, s.url, siteUrlKeyOf(s.url), s.wp_version, s.php_version, s.next_health_check_ms, s.created_at, s.updated_at);
  noteSiteInserted(db, s.account_id);
}

export interface FleetHealthCheck {
  id: string;
  site_id: string;
  account_id: string;
  response_time_ms: number;
  wp_version: string;
  php_version: string;
  /** The check's items, already JSON. */
  checks: string;
  checked_at: string;
}

/** A passed check (HTTP 200). */
export function insertFleetHealthCheck(db: Database, c: FleetHealthCheck): void {
  stmt(
    db,
    `INSERT INTO health_checks (id, site_id, account_id, status, http_status, response_time_ms, wp_version, php_version, checks, checked_at)
     VALUES (?, ?, ?, 'passed', 200, ?, ?, ?, ?, ?)`,
  ).run(c.id, c.site_id, c.account_id, c.response_time_ms, c.wp_version, c.php_version, c.checks, c.checked_at);
}

export interface FleetSnapshot {
  id: string;
  site_id: string;
  account_id: string;
  wp_version: string;
  php_version: string;
  size_bytes: number;
  checksum_sha256: string;
  created_at: string;
  completed_at: string;
}

/** A completed, scheduled service capture (as services/snapshots.ts leaves one after its last step). */
export function insertFleetSnapshot(db: Database, s: FleetSnapshot): void {
  stmt(
    db,
    `INSERT INTO snapshots (id, site_id, account_id, status, source, trigger, description, wp_version, php_version, size_bytes, checksum_sha256,
       upload_received, upload_total, next_step_ms, created_at, updated_at, completed_at)
     VALUES (?, ?, ?, 'completed', 'service', 'scheduled', NULL, ?, ?, ?, ?, 0, NULL, NULL, ?, ?, ?)`,
  ).run(s.id, s.site_id, s.account_id, s.wp_version, s.php_version, s.size_bytes, s.checksum_sha256, s.created_at, s.completed_at, s.completed_at);
}
