// The api_tokens, refresh_tokens and revoked_jtis tables.
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

export interface RefreshRow {
  seq: number;
  token_hash: string;
  family_id: string;
  user_id: string;
  account_id: string;
  access_jti: string | null;
  expires_at_ms: number;
  used_at: string | null;
  revoked_at: string | null;
  created_at: string;
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

export function isJtiRevoked(db: Database, jti: string): boolean {
  return Boolean(stmt(db, "SELECT 1 FROM revoked_jtis WHERE jti = ?").get(jti));
}

export function insertRevokedJti(db: Database, jti: string, expMs: number): void {
  stmt(db, "INSERT OR IGNORE INTO revoked_jtis (jti, expires_at_ms) VALUES (?, ?)").run(jti, expMs);
}

export function findRefreshToken(db: Database, hash: string): RefreshRow | undefined {
  return stmt(db, "SELECT * FROM refresh_tokens WHERE token_hash = ?").get(hash) as RefreshRow | undefined;
}

export function insertRefreshToken(
  db: Database,
  r: { hash: string; familyId: string; userId: string; accountId: string; accessJti: string; expiresAtMs: number; at: string },
): void {
  stmt(
    db,
    `INSERT INTO refresh_tokens (token_hash, family_id, user_id, account_id, access_jti, expires_at_ms, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(r.hash, r.familyId, r.userId, r.accountId, r.accessJti, r.expiresAtMs, r.at);
}

/** Marks a refresh token spent; false when it already was (a concurrent second use). */
export function spendRefreshToken(db: Database, seq: number, at: string): boolean {
  return stmt(db, "UPDATE refresh_tokens SET used_at = ? WHERE seq = ? AND used_at IS NULL").run(at, seq).changes > 0;
}

/** Revokes the family's refresh tokens; returns the access jtis issued with them and when. */
export function revokeRefreshFamily(db: Database, familyId: string, at: string): { access_jti: string | null; created_at: string }[] {
  const rows = stmt(db, "SELECT access_jti, created_at FROM refresh_tokens WHERE family_id = ?").all(familyId) as {
    access_jti: string | null;
    created_at: string;
  }[];
  stmt(db, "UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE family_id = ?").run(at, familyId);
  return rows;
}

/** Forgets refresh tokens and revoked jtis that expired before `beforeMs`. */
export function pruneTokens(db: Database, beforeMs: number): void {
  stmt(db, "DELETE FROM refresh_tokens WHERE expires_at_ms < ?").run(beforeMs);
  stmt(db, "DELETE FROM revoked_jtis WHERE expires_at_ms < ?").run(beforeMs);
}
