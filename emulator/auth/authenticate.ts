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

export async function authenticate(ctx: EmulatorContext, req: FastifyRequest): Promise<AuthContext> {
  const cred = parseAuthorization(req.headers.authorization);
  if (!cred) throw unauthorized();

  let auth: AuthContext;
  if (cred.scheme === "token") {
    const row = stmt(
      ctx.db,
      `SELECT t.id, t.user_id, t.account_id, t.name, t.revoked_at, u.name AS user_name, m.role
         FROM api_tokens t JOIN users u ON u.id = t.user_id
         LEFT JOIN memberships m ON m.account_id = t.account_id AND m.user_id = t.user_id
        WHERE t.token_hash = ?`,
    ).get(hashToken(cred.value)) as TokenRow | undefined;
    if (!row || row.revoked_at || !row.role) throw unauthorized();
    auth = {
      userId: row.user_id,
      userName: row.user_name,
      accountId: row.account_id,
      role: row.role,
      actor: { type: "api_token", id: row.id, name: row.name },
      credential: { kind: "api_token", tokenId: row.id },
    };
  } else {
    const claims = await verifyAccessToken(ctx, cred.value);
    const row = stmt(
      ctx.db,
      `SELECT u.name AS user_name, m.role FROM users u
         LEFT JOIN memberships m ON m.user_id = u.id AND m.account_id = ?
        WHERE u.id = ?`,
    ).get(claims.account_id, claims.sub) as { user_name: string; role: Role | null } | undefined;
    if (!row || !row.role) throw unauthorized();
    auth = {
      userId: claims.sub,
      userName: row.user_name,
      accountId: claims.account_id,
      role: row.role,
      actor: { type: "user", id: claims.sub, name: row.user_name },
      credential: { kind: "jwt", jti: claims.jti, expMs: claims.exp * 1000 },
    };
  }

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
