// Console sessions: sign-in through the API's own credential check (services/sessions.ts), sessions
// and half-done 2FA sign-ins held in memory by the hash of a random id in an HttpOnly, SameSite=Lax
// cookie, and the signed-in user of a request as an Origin for the services' activity entries.
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context.js";
import type { Origin, Role } from "../auth/auth-context.js";
import { hashToken } from "../auth/secrets.js";
import { HttpError, MESSAGES } from "../errors.js";
import { defaultAccountOf, signIn as checkSignIn, type LoginInput } from "../services/sessions.js";
import { getAccount, getMember } from "../services/users.js";

const SESSION_COOKIE = "siteops_session";
const PENDING_COOKIE = "siteops_signin";
/** A console session ends this long after sign-in (sign out ends it at once; a restart ends them all). */
const SESSION_TTL_MS = 8 * 3600 * 1000;
/** Time to enter the 2FA code after the password was accepted. */
const PENDING_TTL_MS = 5 * 60 * 1000;

interface Session {
  userId: string;
  accountId: string;
  expiresAtMs: number;
}
interface Pending {
  input: LoginInput;
  expiresAtMs: number;
}
interface Stores {
  sessions: Map<string, Session>;
  pending: Map<string, Pending>;
}

const stores = new WeakMap<object, Stores>();
function storesOf(ctx: EmulatorContext): Stores {
  let s = stores.get(ctx.db);
  if (!s) stores.set(ctx.db, (s = { sessions: new Map(), pending: new Map() }));
  return s;
}

export interface ConsoleUser {
  userId: string;
  name: string;
  email: string;
  role: Role;
  accountId: string;
  accountName: string;
}

/**
 * The console's cookies: HttpOnly, SameSite=Lax, and Secure when the console is served over https. Clearing a
 * cookie sends the same attributes as setting it (a sign-out's Set-Cookie is Secure when the sign-in's was).
 */
export function cookieOptions(ctx: EmulatorContext) {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.options.publicUrl?.startsWith("https:") === true } as const;
}

/**
 * What a CSRF token is bound to: the session cookie (hashed), "signed-out" before sign-in. A token (and `_csrf` cookie)
 * obtained anonymously, or planted by a same-site page, does not work in the session that follows.
 */
export function csrfBinding(req: FastifyRequest): string {
  const id = req.cookies[SESSION_COOKIE];
  return id ? `session:${hashToken(id)}` : "signed-out";
}

function newId(): string {
  return randomBytes(32).toString("base64url");
}

export type SignInResult = { kind: "signed-in" } | { kind: "otp-required" };

/**
 * Checks the sign-in form exactly as POST /api/v1/jwt does (the sessions service's throttled sign-in: the same rules,
 * messages, status codes and login throttling, per email and client address) and starts a session. Without a code
 * for a user with 2FA, the credentials wait server-side (never in the page) for the code.
 */
export async function signIn(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply, input: LoginInput): Promise<SignInResult> {
  const { sessions, pending } = storesOf(ctx);
  let user;
  try {
    user = await checkSignIn(ctx, input, req.ip);
  } catch (err) {
    if (err instanceof HttpError && err.status === 422 && err.body.error === MESSAGES.otpRequired) {
      const id = newId();
      pending.set(hashToken(id), { input: { email: input.email, password: input.password }, expiresAtMs: ctx.clock.nowMs() + PENDING_TTL_MS });
      void reply.setCookie(PENDING_COOKIE, id, { ...cookieOptions(ctx), maxAge: PENDING_TTL_MS / 1000 });
      return { kind: "otp-required" };
    }
    throw err;
  }
  const { accountId } = defaultAccountOf(ctx, user.id);
  const id = newId();
  sessions.set(hashToken(id), { userId: user.id, accountId, expiresAtMs: ctx.clock.nowMs() + SESSION_TTL_MS });
  dropPending(ctx, req, reply);
  void reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions(ctx), maxAge: SESSION_TTL_MS / 1000 });
  return { kind: "signed-in" };
}

/** The email and password waiting for a 2FA code, if any (they never go back to the browser). */
export function pendingSignIn(ctx: EmulatorContext, req: FastifyRequest): LoginInput | undefined {
  const id = req.cookies[PENDING_COOKIE];
  if (!id) return undefined;
  const p = storesOf(ctx).pending.get(hashToken(id));
  if (!p || p.expiresAtMs <= ctx.clock.nowMs()) return undefined;
  return p.input;
}

export function dropPending(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply): void {
  const id = req.cookies[PENDING_COOKIE];
  if (id) storesOf(ctx).pending.delete(hashToken(id));
  void reply.clearCookie(PENDING_COOKIE, cookieOptions(ctx));
}

export function signOut(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply): void {
  const id = req.cookies[SESSION_COOKIE];
  if (id) storesOf(ctx).sessions.delete(hashToken(id));
  void reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx));
}

/** The signed-in user (role re-read on every request), or undefined. */
export function currentUser(ctx: EmulatorContext, req: FastifyRequest): ConsoleUser | undefined {
  // No cookies parsed yet when a request is refused before the console's hooks ran (a 429 of --rate-limit).
  const id = (req.cookies as Record<string, string | undefined> | null)?.[SESSION_COOKIE];
  if (!id) return undefined;
  const { sessions } = storesOf(ctx);
  const key = hashToken(id);
  const s = sessions.get(key);
  if (!s) return undefined;
  if (s.expiresAtMs <= ctx.clock.nowMs()) {
    sessions.delete(key);
    return undefined;
  }
  try {
    const member = getMember(ctx, s.accountId, s.userId);
    const account = getAccount(ctx, s.userId, s.accountId);
    return { userId: s.userId, name: member.name, email: member.email, role: member.role, accountId: s.accountId, accountName: account.name };
  } catch {
    sessions.delete(key); // the user left the account, or the emulator was reset
    return undefined;
  }
}

export function canApprove(user: ConsoleUser): boolean {
  return user.role === "owner" || user.role === "admin";
}

/** The user as the origin of a write (activity log: a user, from this IP, in this request). */
export function originOfUser(user: ConsoleUser, req: FastifyRequest): Origin {
  return { actor: { type: "user", id: user.userId, name: user.name }, ip: req.ip, requestId: req.id };
}
