// Resolves the Authorization header (and X-Account-Id) into an AuthContext, or throws the 401/404
// of DESIGN.md section 2. Runs on every /api/v1 route not marked public.
import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context.js";
import type { AuthContext, Role } from "./auth-context.js";
import { notFound, unauthorized } from "../errors.js";
import { stmt } from "../store/db.js";
import { hashToken } from "./secrets.js";
import { verifyAccessToken } from "./jwt.js";

interface TokenRow {
  id: string;
  user_id: string;
  account_id: string;
  name: string;
  revoked_at: string | null;
  user_name: string;
  role: Role | null;
}

function parseAuthorization(header: string | undefined): { scheme: "token" | "bearer"; value: string } | undefined {
  if (!header) return undefined;
  const m = /^\s*(token|bearer)\s+(\S+)\s*$/i.exec(header);
  if (!m) return undefined;
  return { scheme: m[1]!.toLowerCase() as "token" | "bearer", value: m[2]! };
}

// Valid API tokens by hash, so the hottest path (every token-authenticated request) skips a
// three-table join. Only valid tokens are cached (a new token is found on its first use); revoking a
// token or resetting the store must call forgetApiTokens().
const tokenCache = new WeakMap<object, Map<string, AuthContext>>();
const TOKEN_CACHE_MAX = 10_000;

export function forgetApiTokens(ctx: EmulatorContext): void {
  tokenCache.delete(ctx.db);
}

function authenticateApiToken(ctx: EmulatorContext, token: string): AuthContext {
  const hash = hashToken(token);
  let cache = tokenCache.get(ctx.db);
  const cached = cache?.get(hash);
  if (cached) return cached;
  const row = stmt(
    ctx.db,
    `SELECT t.id, t.user_id, t.account_id, t.name, t.revoked_at, u.name AS user_name, m.role
       FROM api_tokens t JOIN users u ON u.id = t.user_id
       LEFT JOIN memberships m ON m.account_id = t.account_id AND m.user_id = t.user_id
      WHERE t.token_hash = ?`,
  ).get(hash) as TokenRow | undefined;
  if (!row || row.revoked_at || !row.role) throw unauthorized();
  const auth: AuthContext = {
    userId: row.user_id,
    userName: row.user_name,
    accountId: row.account_id,
    role: row.role,
    actor: { type: "api_token", id: row.id, name: row.name },
    credential: { kind: "api_token", tokenId: row.id },
  };
  if (!cache) tokenCache.set(ctx.db, (cache = new Map()));
  if (cache.size >= TOKEN_CACHE_MAX) cache.clear();
  cache.set(hash, auth);
  return auth;
}

/**
 * The caller of a request. API tokens resolve synchronously (no promise on the hot path); a JWT
 * needs an async signature check.
 */
export function authenticate(ctx: EmulatorContext, req: FastifyRequest): AuthContext | Promise<AuthContext> {
  const cred = parseAuthorization(req.headers.authorization);
  if (!cred) throw unauthorized();
  if (cred.scheme === "token") return selectAccount(ctx, req, authenticateApiToken(ctx, cred.value));
  return authenticateJwt(ctx, req, cred.value);
}

async function authenticateJwt(ctx: EmulatorContext, req: FastifyRequest, token: string): Promise<AuthContext> {
  const claims = await verifyAccessToken(ctx, token);
  const row = stmt(
    ctx.db,
    `SELECT u.name AS user_name, m.role FROM users u
       LEFT JOIN memberships m ON m.user_id = u.id AND m.account_id = ?
      WHERE u.id = ?`,
  ).get(claims.account_id, claims.sub) as { user_name: string; role: Role | null } | undefined;
  if (!row || !row.role) throw unauthorized();
  const auth: AuthContext = {
    userId: claims.sub,
    userName: row.user_name,
    accountId: claims.account_id,
    role: row.role,
    actor: { type: "user", id: claims.sub, name: row.user_name },
    credential: { kind: "jwt", jti: claims.jti, expMs: claims.exp * 1000 },
  };
  return selectAccount(ctx, req, auth);
}

/** Applies X-Account-Id: another account the user belongs to (404 when not a member). */
function selectAccount(ctx: EmulatorContext, req: FastifyRequest, auth: AuthContext): AuthContext {
  const selected = req.headers["x-account-id"];
  if (typeof selected === "string" && selected !== "" && selected !== auth.accountId) {
    const m = stmt(ctx.db, "SELECT role FROM memberships WHERE account_id = ? AND user_id = ?").get(selected, auth.userId) as
      | { role: Role }
      | undefined;
    if (!m) throw notFound();
    auth = { ...auth, accountId: selected, role: m.role };
  }
  return auth;
}

/** Owners and admins write; members may only read (and create snapshots, checked by that route). */
export function canWrite(auth: AuthContext): boolean {
  return auth.role === "owner" || auth.role === "admin";
}
