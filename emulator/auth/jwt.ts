// JWT access tokens: HS256, signed with the emulator's persisted secret, checked against the
// emulator clock (so advancing the clock expires them) and the revoked-jti list.
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { EmulatorContext } from "../context.js";
import { MESSAGES, unauthorized } from "../errors.js";
import { randomAlphanumeric } from "../ids.js";
import { insertRevokedJti, isJtiRevoked } from "../store/sessions.js";

export interface AccessClaims {
  sub: string;
  jti: string;
  account_id: string;
  iat: number;
  exp: number;
}

export async function signAccessToken(ctx: EmulatorContext, userId: string, accountId: string): Promise<{ token: string; jti: string; expMs: number }> {
  const iat = Math.floor(ctx.clock.nowMs() / 1000);
  const exp = iat + ctx.options.accessTtl;
  const jti = randomAlphanumeric(24);
  const token = await new SignJWT({ account_id: accountId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(ctx.jwtSecret);
  return { token, jti, expMs: exp * 1000 };
}

export async function verifyAccessToken(ctx: EmulatorContext, token: string): Promise<AccessClaims> {
  let claims: AccessClaims;
  try {
    const { payload } = await jwtVerify(token, ctx.jwtSecret, {
      algorithms: ["HS256"],
      currentDate: new Date(ctx.clock.nowMs()),
      clockTolerance: 0,
    });
    claims = payload as unknown as AccessClaims;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized(MESSAGES.expired);
    throw unauthorized();
  }
  if (typeof claims.sub !== "string" || typeof claims.jti !== "string" || typeof claims.account_id !== "string") {
    throw unauthorized();
  }
  if (isJtiRevoked(ctx.db, claims.jti)) throw unauthorized(MESSAGES.revoked);
  return claims;
}

export function revokeJti(ctx: EmulatorContext, jti: string, expMs: number): void {
  insertRevokedJti(ctx.db, jti, expMs);
}
