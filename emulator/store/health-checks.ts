// The health_checks table.
import { healthCheckFields } from "../../wire/generated/fields.js";
import type { HealthCheckJson, HealthStatus } from "../../wire/health-checks.js";
import { isId } from "../ids.js";
import { parseJson, stmt, type Database, type PageSource } from "./db.js";
import { insertRow, rowToJson, shownFields } from "./wire-columns.js";

/** A health check's row: its wire fields (the items as JSON text), and its account. */
type HealthCheckRow = Omit<HealthCheckJson, "checks"> & { seq: number; account_id: string; checks: string };

const SHOWN = shownFields(healthCheckFields);
const DECODE = { checks: (text: unknown) => parseJson(text as string, []) };

function toJson(row: HealthCheckRow): HealthCheckJson {
  return rowToJson(row, SHOWN, DECODE);
}

export type NewHealthCheck = HealthCheckJson & { account_id: string };

export function insertHealthCheck(db: Database, c: NewHealthCheck): HealthCheckJson {
  insertRow(db, "health_checks", c);
  // What reading the row back would give (toJson's fields, in its order), without the read and the JSON.parse.
  return rowToJson(c, SHOWN);
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
