// The health_checks table.
import type { HealthCheckItem, HealthCheckJson, HealthStatus } from "../../wire/health-checks.js";
import { isId } from "../ids.js";
import { parseJson, stmt, type Database, type PageSource } from "./db.js";

interface HealthCheckRow {
  seq: number;
  id: string;
  site_id: string;
  account_id: string;
  status: HealthStatus;
  http_status: number | null;
  response_time_ms: number | null;
  wp_version: string;
  php_version: string;
  checks: string;
  checked_at: string;
}

function toJson(row: HealthCheckRow): HealthCheckJson {
  return {
    id: row.id,
    site_id: row.site_id,
    status: row.status,
    http_status: row.http_status,
    response_time_ms: row.response_time_ms,
    wp_version: row.wp_version,
    php_version: row.php_version,
    checks: parseJson<HealthCheckItem[]>(row.checks, []),
    checked_at: row.checked_at,
  };
}

export type NewHealthCheck = Omit<HealthCheckJson, "checks"> & { account_id: string; checks: HealthCheckItem[] };

export function insertHealthCheck(db: Database, c: NewHealthCheck): HealthCheckJson {
  stmt(
    db,
    `INSERT INTO health_checks (id, site_id, account_id, status, http_status, response_time_ms, wp_version, php_version, checks, checked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(c.id, c.site_id, c.account_id, c.status, c.http_status, c.response_time_ms, c.wp_version, c.php_version, JSON.stringify(c.checks), c.checked_at);
  // What reading the row back would give (toJson's fields, in its order), without the read and the JSON.parse.
  return {
    id: c.id,
    site_id: c.site_id,
    status: c.status,
    http_status: c.http_status,
    response_time_ms: c.response_time_ms,
    wp_version: c.wp_version,
    php_version: c.php_version,
    checks: c.checks,
    checked_at: c.checked_at,
  };
}

export function findHealthCheck(db: Database, siteId: string, id: string): HealthCheckJson | undefined {
  if (!isId("hc", id)) return undefined;
  const row = stmt(db, "SELECT * FROM health_checks WHERE id = ? AND site_id = ?").get(id, siteId) as HealthCheckRow | undefined;
  return row && toJson(row);
}

export function latestHealthStatus(db: Database, siteId: string): HealthStatus | undefined {
  return (stmt(db, "SELECT status FROM health_checks WHERE site_id = ? ORDER BY seq DESC LIMIT 1").get(siteId) as { status: HealthStatus } | undefined)?.status;
}

/** The site's checks, newest first. */
export function healthChecksPage(db: Database, siteId: string): PageSource<HealthCheckJson> {
  return {
    count: () => (stmt(db, "SELECT COUNT(*) AS n FROM health_checks WHERE site_id = ?").get(siteId) as { n: number }).n,
    rows: (limit, offset) =>
      (stmt(db, "SELECT * FROM health_checks WHERE site_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?").all(siteId, limit, offset) as HealthCheckRow[]).map(toJson),
  };
}
