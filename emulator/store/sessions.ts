// The refresh_tokens and revoked_jtis tables behind login sessions (services/sessions.ts): refresh tokens in
// rotating families, and the access-token ids revoked before their expiry.
import { stmt, type Database } from "./db.js";

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
