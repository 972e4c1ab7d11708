// The idempotency_keys table: the first response to a POST or PATCH with an Idempotency-Key (login answers sealed), per account and user.
import { stmt, type Database } from "./db.js";

export interface StoredResponse {
  request_hash: string;
  status: number;
  body: string;
}

export function pruneIdempotencyKeys(db: Database, beforeMs: number): void {
  stmt(db, "DELETE FROM idempotency_keys WHERE created_at_ms < ?").run(beforeMs);
}

export function findIdempotencyKey(db: Database, accountId: string, userId: string, key: string): StoredResponse | undefined {
  return stmt(db, "SELECT request_hash, status, body FROM idempotency_keys WHERE account_id = ? AND user_id = ? AND key = ?").get(accountId, userId, key) as
    | StoredResponse
    | undefined;
}

export function insertIdempotencyKey(
  db: Database,
  k: { accountId: string; userId: string; key: string; hash: string; status: number; body: string; atMs: number },
): void {
  stmt(
    db,
    `INSERT OR IGNORE INTO idempotency_keys (account_id, user_id, key, request_hash, status, body, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(k.accountId, k.userId, k.key, k.hash, k.status, k.body, k.atMs);
}
