// The api_tokens table: API tokens (stored hashed), their user's role in the token's account, their last use.
import type { Role } from "../auth/auth-context.js";
import { stmt, type Database } from "./db.js";

export interface ApiTokenRow {
  id: string;
  user_id: string;
  account_id: string;
  name: string;
  revoked_at: string | null;
  user_name: string;
  role: Role | null;
}

/** An API token by hash, with its user's name and role in the token's account. */
export function findApiToken(db: Database, hash: string): ApiTokenRow | undefined {
  return stmt(
    db,
    `SELECT t.id, t.user_id, t.account_id, t.name, t.revoked_at, u.name AS user_name, m.role
       FROM api_tokens t JOIN users u ON u.id = t.user_id
       LEFT JOIN memberships m ON m.account_id = t.account_id AND m.user_id = t.user_id
      WHERE t.token_hash = ?`,
  ).get(hash) as ApiTokenRow | undefined;
}

/** `prefix`: the token's first characters, kept so the account settings can tell tokens apart. */
export function insertApiToken(
  db: Database,
  t: { id: string; hash: string; prefix: string; userId: string; accountId: string; name: string; at: string },
): void {
  stmt(db, "INSERT INTO api_tokens (id, token_hash, token_prefix, user_id, account_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
    t.id,
    t.hash,
    t.prefix,
    t.userId,
    t.accountId,
    t.name,
    t.at,
  );
}

export interface ApiTokenListRow {
  id: string;
  name: string;
  token_prefix: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** The user's unrevoked API tokens in an account, newest first. */
export function apiTokensOf(db: Database, accountId: string, userId: string): ApiTokenListRow[] {
  return stmt(
    db,
    `SELECT id, name, token_prefix, created_at, last_used_at FROM api_tokens
      WHERE account_id = ? AND user_id = ? AND revoked_at IS NULL ORDER BY seq DESC`,
  ).all(accountId, userId) as ApiTokenListRow[];
}

export function touchApiToken(db: Database, id: string, at: string): void {
  stmt(db, "UPDATE api_tokens SET last_used_at = ? WHERE id = ?").run(at, id);
}

export function revokeApiTokenRow(db: Database, id: string, at: string): void {
  stmt(db, "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at, id);
}
