// Resolves the Authorization header (and X-Account-Id) into an AuthContext, or throws the 401/404
// of docs/design.md section 2. Runs on every /api/v1 route not marked public.
import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context.js";
import type { AuthContext } from "./auth-context.js";
import { HttpError, notFound, unauthorized } from "../errors.js";
import { findApiToken, touchApiToken } from "../store/api-tokens.js";
import { roleIn, userInAccount } from "../store/users.js";
import { hashToken } from "./secrets.js";
import { verifyAccessToken } from "./jwt.js";

function parseAuthorization(header: string | undefined): { scheme: "token" | "bearer"; value: string } | undefined {
  if (!header) return undefined;
  const m = /^\s*(token|bearer)\s+(\S+)\s*$/i.exec(header);
  if (!m) return undefined;
  return { scheme: m[1]!.toLowerCase() as "token" | "bearer", value: m[2]! };
}

// Valid API tokens by hash, so the hottest path (every token-authenticated request) skips a
// three-table join. Only valid tokens are cached (a new token is found on its first use); revoking a
// token or resetting the store must call forgetApiTokens().
const tokenCache = new WeakMap<object, Map<string, CachedToken>>();
const TOKEN_CACHE_MAX = 10_000;
/** A token's last_used_at (shown in the console's Settings -> API) is written at most this often. */
const LAST_USED_RESOLUTION_MS = 60_000;

interface CachedToken {
  auth: AuthContext;
  /** Emulator-clock ms when last_used_at was last written. */
  writtenMs: number;
}

/** Records a use: one clock read per request, one UPDATE per token per minute. */
function noteUse(ctx: EmulatorContext, entry: CachedToken): void {
  const nowMs = ctx.clock.nowMs();
  if (nowMs - entry.writtenMs < LAST_USED_RESOLUTION_MS) return;
  entry.writtenMs = nowMs;
  touchApiToken(ctx.db, (entry.auth.credential as { tokenId: string }).tokenId, ctx.clock.iso(nowMs));
}

export function forgetApiTokens(ctx: EmulatorContext): void {
  tokenCache.delete(ctx.db);
}

function authenticateApiToken(ctx: EmulatorContext, token: string): AuthContext {
  const hash = hashToken(token);
  let cache = tokenCache.get(ctx.db);
  const cached = cache?.get(hash);
  if (cached) {
    noteUse(ctx, cached);
    return cached.auth;
  }
  const row = findApiToken(ctx.db, hash);
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
  const entry: CachedToken = { auth, writtenMs: -Infinity };
  noteUse(ctx, entry);
  cache.set(hash, entry);
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
  const row = userInAccount(ctx.db, claims.account_id, claims.sub);
  if (!row || !row.role) throw unauthorized();
  const auth: AuthContext = {
    userId: claims.sub,
    userName: row.name,
    accountId: claims.account_id,
    role: row.role,
    actor: { type: "user", id: claims.sub, name: row.name },
    credential: { kind: "jwt", jti: claims.jti, expMs: claims.exp * 1000 },
  };
  return selectAccount(ctx, req, auth);
}

/**
 * Applies X-Account-Id: another account the user belongs to (404 when not a member). A JWT (a user's sign-in)
 * may switch; an API token acts only in the account it was created in (403 for another account of its user):
 * it is made in one account's settings, and a token leaked from a small account must not reach a larger one.
 */
const TOKEN_OTHER_ACCOUNT =
  "This API token acts only in the account it was created in; create a token in the other account, or sign in (JWT) to switch accounts.";

function selectAccount(ctx: EmulatorContext, req: FastifyRequest, auth: AuthContext): AuthContext {
  const selected = req.headers["x-account-id"];
  if (typeof selected === "string" && selected !== "" && selected !== auth.accountId) {
    const role = roleIn(ctx.db, selected, auth.userId);
    if (!role) throw notFound();
    if (auth.credential.kind === "api_token") throw new HttpError(403, TOKEN_OTHER_ACCOUNT);
    auth = { ...auth, accountId: selected, role };
  }
  return auth;
}
