// The webhook_deliveries table: queued events per endpoint, their attempts and outcome.
import { stmt, type Database } from "./db.js";

export interface DueDelivery {
  id: string;
  endpoint_id: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
}

export function insertDelivery(
  db: Database,
  d: { id: string; endpointId: string; accountId: string; type: string; payload: string; dueMs: number; at: string },
): void {
  stmt(
    db,
    `INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_type, payload, status, attempts, next_attempt_ms, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
  ).run(d.id, d.endpointId, d.accountId, d.type, d.payload, d.dueMs, d.at, d.at);
}

/** Deliveries left in flight by a stopped emulator are due again. */
export function requeueSending(db: Database, nowMs: number): void {
  stmt(db, "UPDATE webhook_deliveries SET status = 'pending', next_attempt_ms = ? WHERE status = 'sending'").run(nowMs);
}

/** Up to `limit` pending deliveries of enabled endpoints due by nowMs, in due order. */
export function dueDeliveries(db: Database, nowMs: number, limit: number): DueDelivery[] {
  return stmt(
    db,
    `SELECT d.id, d.endpoint_id, d.payload, d.attempts, e.url, e.secret
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_ms <= ? AND e.status = 'enabled'
      ORDER BY d.next_attempt_ms, d.seq LIMIT ?`,
  ).all(nowMs, limit) as DueDelivery[];
}

export function nextDeliveryDueMs(db: Database): number | null {
  const row = stmt(
    db,
    `SELECT MIN(d.next_attempt_ms) AS due FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'pending' AND e.status = 'enabled'`,
  ).get() as { due: number | null };
  return row.due;
}

export function markSending(db: Database, id: string, at: string): void {
  stmt(db, "UPDATE webhook_deliveries SET status = 'sending', next_attempt_ms = NULL, updated_at = ? WHERE id = ?").run(at, id);
}

export function markSucceeded(db: Database, id: string, attempts: number, status: number | null, at: string): void {
  stmt(
    db,
    "UPDATE webhook_deliveries SET status = 'succeeded', attempts = ?, next_attempt_ms = NULL, last_status = ?, last_error = NULL, updated_at = ? WHERE id = ? AND status = 'sending'",
  ).run(attempts, status, at, id);
}

export function markRetry(db: Database, id: string, r: { attempts: number; nextMs: number; status: number | null; error: string | null; at: string }): void {
  stmt(
    db,
    "UPDATE webhook_deliveries SET status = 'pending', attempts = ?, next_attempt_ms = ?, last_status = ?, last_error = ?, updated_at = ? WHERE id = ? AND status = 'sending'",
  ).run(r.attempts, r.nextMs, r.status, r.error, r.at, id);
}

/** The last retry failed: the delivery is `failed` and its endpoint `disabled`. */
export function markFailed(
  db: Database,
  d: { id: string; endpointId: string; attempts: number; status: number | null; error: string | null; at: string },
): void {
  db.transaction(() => {
    stmt(
      db,
      "UPDATE webhook_deliveries SET status = 'failed', attempts = ?, next_attempt_ms = NULL, last_status = ?, last_error = ?, updated_at = ? WHERE id = ? AND status = 'sending'",
    ).run(d.attempts, d.status, d.error, d.at, d.id);
    stmt(db, "UPDATE webhook_endpoints SET status = 'disabled', updated_at = ? WHERE id = ? AND status = 'enabled'").run(d.at, d.endpointId);
  })();
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_ms: number | null;
  last_status: number | null;
  last_error: string | null;
  payload: string;
  created_at: string;
}

/** For the control API: every delivery, oldest first, optionally of one endpoint or status. */
export function listDeliveries(db: Database, f: { endpointId: string | null; status: string | null }): DeliveryRow[] {
  return stmt(
    db,
    `SELECT * FROM webhook_deliveries
      WHERE (@endpoint_id IS NULL OR endpoint_id = @endpoint_id) AND (@status IS NULL OR status = @status)
      ORDER BY seq`,
  ).all({ endpoint_id: f.endpointId, status: f.status }) as DeliveryRow[];
}

/** The webhook-timestamp (unix seconds) an attempt is signed with, recorded as it is sent. */
export function recordAttemptTimestamp(db: Database, id: string, timestamp: number): void {
  stmt(db, "UPDATE webhook_deliveries SET last_attempt_ts = ? WHERE id = ?").run(timestamp, id);
}

/** For the console: the account's latest deliveries, newest first, with their endpoint's URL and secret. */
export function recentDeliveries(
  db: Database,
  accountId: string,
  limit: number,
): (DeliveryRow & { url: string; secret: string; updated_at: string; last_attempt_ts: number | null })[] {
  return stmt(
    db,
    `SELECT d.*, e.url, e.secret FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.account_id = ? ORDER BY d.seq DESC LIMIT ?`,
  ).all(accountId, limit) as (DeliveryRow & { url: string; secret: string; updated_at: string; last_attempt_ts: number | null })[];
}
