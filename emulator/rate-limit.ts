// Fixed-window rate limiting on the emulator clock, with the RateLimit-* headers on every API response and
// 429 + Retry-After past the limit. Keys are what the request resolved to, never a raw header a client can
// vary at will: `user:<id>` for an authenticated caller (all of a user's tokens share one window, as on
// GitHub), `addr:<ip>` for everyone else (a failed authentication included), and a sign-in is counted under
// its email as well (`email:<address>`, the API's sign-ins and the console's alike: signInLimit), so neither
// junk credentials nor many addresses escape the limit.
// An IPv6 client is keyed by its /64. Memory is bounded without forgetting a live window (expiring-table.ts):
// users' windows are kept apart (there are only as many as the store has users); when the table of
// unauthenticated keys is full of live windows, a new address or email is counted in one shared window of
// its kind, so a spray of source addresses is refused after `limit` requests instead of emptying the table.
// Without `headers` (the `minimal` profile) no RateLimit-* header is sent; the error handler then drops the
// 429's Retry-After too.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RateLimitOptions } from "./options.js";
import type { AuthContext } from "./auth/auth-context.js";
import { HttpError } from "./errors.js";
import { ExpiringTable, clientAddressKey } from "./expiring-table.js";

/** Unauthenticated keys (addresses, emails) kept at most. */
const MAX_KEYS = 10_000;

export const principalKey = (auth: AuthContext): string => `user:${auth.userId}`;
export const addressKey = (req: FastifyRequest): string => `addr:${clientAddressKey(req.ip)}`;
const emailKey = (email: string): string => `email:${email.trim().toLowerCase()}`;

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  readonly #opts: RateLimitOptions;
  readonly #now: () => number;
  readonly #users: ExpiringTable<Window>;
  readonly #others: ExpiringTable<Window>;
  /** The shared windows of new unauthenticated keys while #others is full (`addr:*`, `email:*`). */
  readonly #overflow: ExpiringTable<Window>;
  readonly #headers: boolean;

  constructor(opts: RateLimitOptions, now: () => number, headers = true) {
    this.#opts = opts;
    this.#now = now;
    this.#headers = headers;
    const endsAt = (w: Window): number => w.start + opts.windowSeconds * 1000;
    this.#users = new ExpiringTable(Number.POSITIVE_INFINITY, endsAt);
    this.#others = new ExpiringTable(MAX_KEYS, endsAt);
    this.#overflow = new ExpiringTable(Number.POSITIVE_INFINITY, endsAt);
  }

  /** The live window of `key` (a new one if it has none), in the overflow window of its kind if no room. */
  #window(key: string, now: number): Window {
    const table = key.startsWith("user:") ? this.#users : this.#others;
    const w = table.get(key);
    if (w && now - w.start < this.#opts.windowSeconds * 1000) return w;
    const fresh = { start: now, count: 0 };
    if (table.set(key, fresh, now)) return fresh;
    const shared = `${key.slice(0, key.indexOf(":"))}:*`;
    const o = this.#overflow.get(shared);
    if (o && now - o.start < this.#opts.windowSeconds * 1000) return o;
    this.#overflow.set(shared, fresh, now);
    return fresh;
  }

  /** Counts the request under every key; the headers show the tightest one; 429 when any is past the limit. */
  check(reply: FastifyReply, keys: string[]): void {
    const now = this.#now();
    const windowMs = this.#opts.windowSeconds * 1000;
    let tightest: { remaining: number; reset: number } | undefined;
    let limitedFor = 0;
    for (const key of keys) {
      const w = this.#window(key, now);
      w.count++;
      const reset = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
      const remaining = Math.max(0, this.#opts.limit - w.count);
      if (!tightest || remaining < tightest.remaining || (remaining === tightest.remaining && reset > tightest.reset)) tightest = { remaining, reset };
      if (w.count > this.#opts.limit) limitedFor = Math.max(limitedFor, reset);
    }
    if (!tightest) return;
    // A second check of the same request (a sign-in's email) keeps the headers of the tighter one.
    const earlier = reply.getHeader("ratelimit-remaining");
    if (!limitedFor && earlier !== undefined && Number(earlier) <= tightest.remaining) return;
    if (this.#headers) {
      reply.header("RateLimit-Limit", String(this.#opts.limit));
      reply.header("RateLimit-Remaining", String(tightest.remaining));
      reply.header("RateLimit-Reset", String(limitedFor || tightest.reset));
    }
    if (limitedFor) {
      throw new HttpError(429, `Rate limit exceeded. Try again in ${limitedFor} seconds.`, {}, { "Retry-After": String(limitedFor) });
    }
  }
}

/**
 * A sign-in, already counted by address (onRequest), is counted under the email it names too: the API's and
 * the console's alike, so neither escapes the other's window.
 */
export function signInLimit(limiter: RateLimiter) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const signIn = req.routeOptions.config?.signIn;
    if (!signIn) return;
    const email = signIn === true ? (req.body as { email?: unknown } | undefined)?.email : signIn(req);
    if (typeof email === "string") limiter.check(reply, [emailKey(email)]);
  };
}
