// Login sessions: password + TOTP checks, JWT access tokens with rotating refresh tokens (reuse of a
// rotated one revokes its whole family), and revocation (docs/design.md section 2, Authentication).
import { randomUUID } from "node:crypto";
import { verify as verifyTotp } from "otplib";
import { compactVerify } from "jose";
import type { EmulatorContext } from "../context.js";
import { HttpError, MESSAGES, unauthorized } from "../errors.js";
import { hashToken, newRefreshToken, verifyPassword } from "../auth/secrets.js";
import { revokeJti, signAccessToken } from "../auth/jwt.js";
import type { Role } from "../auth/auth-context.js";
import { claimOtpStep, findUserByEmail, firstMembership, roleIn, type UserRow } from "../store/users.js";
import { findRefreshToken, insertRefreshToken, pruneTokens, revokeRefreshFamily, spendRefreshToken } from "../store/sessions.js";
import { throttledSignIn } from "./login-throttle.js";

export interface LoginInput {
  email: string;
  password: string;
  otp_attempt?: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_in: number;
}

const TOTP_PERIOD = 30;

/** Checks the password of `user` (the email's, if any) (+ otp when the user has 2FA) and returns the user; throws 401/422. */
async function checkCredentials(ctx: EmulatorContext, input: LoginInput, user: UserRow | undefined): Promise<UserRow> {
  // verifyPassword hashes against a dummy when the user is unknown, so both paths cost one scrypt.
  const ok = verifyPassword(input.password, user?.password_hash);
  if (!ok || !user) throw unauthorized(MESSAGES.invalidLogin);
  if (user.otp_secret) {
    const attempt = input.otp_attempt?.trim();
    if (!attempt) throw new HttpError(422, MESSAGES.otpRequired);
    const step = await matchTotp(ctx, user, attempt);
    if (step === null) throw unauthorized(MESSAGES.otpWrong);
    // A code (and any earlier step) is spent once used: a replay within the window fails.
    if (!claimOtpStep(ctx.db, user.id, step)) throw unauthorized(MESSAGES.otpWrong);
  }
  return user;
}

/**
 * checkCredentials under the login throttle (services/login-throttle.ts): what every sign-in calls, with the
 * client's address. 429 while the user or the address is locked out.
 */
export function signIn(ctx: EmulatorContext, input: LoginInput, address: string): Promise<UserRow> {
  const user = findUserByEmail(ctx.db, input.email);
  return throttledSignIn(ctx, { email: input.email, userId: user?.id ?? null, address }, () => checkCredentials(ctx, input, user));
}

/** The time step the code matches (current step +/-1, after the last used step), or null. */
async function matchTotp(ctx: EmulatorContext, user: UserRow, code: string): Promise<number | null> {
  if (!/^[0-9]{6}$/.test(code)) return null;
  try {
    const result = await verifyTotp({
      secret: user.otp_secret!,
      token: code,
      epoch: Math.floor(ctx.clock.nowMs() / 1000),
      period: TOTP_PERIOD,
      epochTolerance: TOTP_PERIOD,
      ...(user.otp_last_step != null ? { afterTimeStep: user.otp_last_step } : {}),
    });
    if (!result.valid) return null;
    return (result as { timeStep?: number }).timeStep ?? null;
  } catch {
    return null;
  }
}

/** The account a login lands in: the user's oldest membership. */
export function defaultAccountOf(ctx: EmulatorContext, userId: string): { accountId: string; role: Role } {
  const m = firstMembership(ctx.db, userId);
  // A user without any account cannot do anything: treat like a failed login.
  if (!m) throw unauthorized(MESSAGES.invalidLogin);
  return m;
}

const PRUNE_AFTER_MS = 24 * 3600 * 1000;

/** A new access token and a refresh token in `familyId` (a new family on login). */
export async function issueTokenPair(ctx: EmulatorContext, userId: string, accountId: string, familyId: string = randomUUID()): Promise<TokenPair> {
  const access = await signAccessToken(ctx, userId, accountId);
  const refresh = newRefreshToken();
  const nowMs = ctx.clock.nowMs();
  // Refresh tokens and revoked jtis are forgotten a day after they expired (they can no longer be used).
  pruneTokens(ctx.db, nowMs - PRUNE_AFTER_MS);
  insertRefreshToken(ctx.db, {
    hash: hashToken(refresh),
    familyId,
    userId,
    accountId,
    accessJti: access.jti,
    expiresAtMs: nowMs + ctx.options.refreshTtl * 1000,
    at: ctx.clock.iso(nowMs),
  });
  return { access_token: access.token, refresh_token: refresh, token_type: "Bearer", expires_in: ctx.options.accessTtl };
}

/** Revokes every refresh token of the family and the access tokens issued with them. */
function revokeFamily(ctx: EmulatorContext, familyId: string): void {
  ctx.db.transaction(() => {
    for (const r of revokeRefreshFamily(ctx.db, familyId, ctx.clock.iso())) {
      if (r.access_jti) revokeJti(ctx, r.access_jti, Date.parse(r.created_at) + ctx.options.accessTtl * 1000);
    }
  })();
}

/** Rotates a refresh token: the presented one is spent, a new pair in the same family is returned. */
export async function rotateRefreshToken(ctx: EmulatorContext, token: string): Promise<TokenPair> {
  const row = findRefreshToken(ctx.db, hashToken(token));
  if (!row) throw unauthorized();
  if (row.revoked_at) throw unauthorized(MESSAGES.revoked);
  if (row.used_at) {
    // A rotated token came back: someone holds a copy. End the whole session.
    revokeFamily(ctx, row.family_id);
    throw unauthorized(MESSAGES.revoked);
  }
  if (row.expires_at_ms <= ctx.clock.nowMs()) throw unauthorized(MESSAGES.expired);
  // Mark spent before the first await, so a concurrent second use is seen as reuse.
  if (!spendRefreshToken(ctx.db, row.seq, ctx.clock.iso())) {
    revokeFamily(ctx, row.family_id);
    throw unauthorized(MESSAGES.revoked);
  }
  if (!roleIn(ctx.db, row.account_id, row.user_id)) throw unauthorized();
  return issueTokenPair(ctx, row.user_id, row.account_id, row.family_id);
}

/**
 * Revokes an access token (its jti) or a refresh token (its family) of this user. Unknown tokens and
 * other users' tokens are silently ignored (RFC 7009: the answer is the same either way).
 */
export async function revokeToken(ctx: EmulatorContext, userId: string, token: string): Promise<void> {
  const refresh = findRefreshToken(ctx.db, hashToken(token));
  if (refresh) {
    if (refresh.user_id === userId) revokeFamily(ctx, refresh.family_id);
    return;
  }
  if (token.split(".").length !== 3) return;
  let claims: { sub?: unknown; jti?: unknown; exp?: unknown };
  try {
    // Signature only: an expired token may still be revoked (it is harmless either way).
    const { payload } = await compactVerify(token, ctx.jwtSecret, { algorithms: ["HS256"] });
    claims = JSON.parse(new TextDecoder().decode(payload)) as typeof claims;
  } catch {
    return;
  }
  if (claims.sub !== userId || typeof claims.jti !== "string" || typeof claims.exp !== "number") return;
  revokeJti(ctx, claims.jti, claims.exp * 1000);
}
