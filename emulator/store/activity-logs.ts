// The activity_logs table: one row per write, and the filtered listing of GET /activity_logs.
import type { Actor } from "../auth/auth-context.js";
import type { ActivityLogJson } from "../../wire/activity-logs.js";
import { parseJson, stmt, type Database, type PageSource } from "./db.js";

export interface ActivityLogInsert {
  id: string;
  accountId: string;
  siteId: string | null;
  action: string;
  actor: Actor;
  subjectType: string;
  subjectId: string | null;
  changes: Record<string, unknown> | null;
  ip: string | null;
  requestId: string | null;
  createdAt: string;
}

interface ActivityRow {
  id: string;
  account_id: string;
  site_id: string | null;
  action: string;
  actor: string;
  subject_type: string;
  subject_id: string | null;
  changes: string | null;
  ip_address: string | null;
  request_id: string | null;
  created_at: string;
}

export function insertActivity(db: Database, e: ActivityLogInsert): void {
  stmt(
    db,
    `INSERT INTO activity_logs (id, account_id, site_id, action, actor, subject_type, subject_id, changes, ip_address, request_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    e.id,
    e.accountId,
    e.siteId,
    e.action,
    JSON.stringify(e.actor),
    e.subjectType,
    e.subjectId,
    e.changes ? JSON.stringify(e.changes) : null,
    e.ip,
    e.requestId,
    e.createdAt,
  );
}

function toJson(row: ActivityRow): ActivityLogJson {
  return {
    id: row.id,
    account_id: row.account_id,
    site_id: row.site_id,
    action: row.action,
    actor: parseJson<Actor>(row.actor, { type: "system", id: "system", name: "Site Operations" }),
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    changes: parseJson<Record<string, unknown> | null>(row.changes, null),
    ip_address: row.ip_address,
    request_id: row.request_id,
    created_at: row.created_at,
  };
}

export interface ActivityFilter {
  accountId: string;
  siteId: string | null;
  /** An exact action, or null. */
  action: string | null;
  /** An action prefix (`site.` for `site.*`), or null. */
  prefix: string | null;
  since: string | null;
  until: string | null;
}

const WHERE = `account_id = @account_id
  AND (@site_id IS NULL OR site_id = @site_id)
  AND (@action IS NULL OR action = @action)
  AND (@prefix_lo IS NULL OR (action >= @prefix_lo AND action < @prefix_hi))
  AND (@since IS NULL OR created_at >= @since)
  AND (@until IS NULL OR created_at < @until)`;

/** The account's log, newest first. */
export function activityPage(db: Database, f: ActivityFilter): PageSource<ActivityLogJson> {
  const params = {
    account_id: f.accountId,
    site_id: f.siteId,
    action: f.action,
    prefix_lo: f.prefix,
    prefix_hi: f.prefix ? `${f.prefix}\uffff` : null,
    since: f.since,
    until: f.until,
  };
  return {
    count: () => (stmt(db, `SELECT COUNT(*) AS n FROM activity_logs WHERE ${WHERE}`).get(params) as { n: number }).n,
    rows: (limit, offset) =>
      (
        stmt(db, `SELECT * FROM activity_logs WHERE ${WHERE} ORDER BY seq DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset }) as ActivityRow[]
      ).map(toJson),
  };
}
