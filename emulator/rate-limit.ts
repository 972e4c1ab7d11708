// Fixed-window rate limiting on the emulator clock, with the RateLimit-* headers on every API response and
// 429 + Retry-After past the limit. Keys are what the request resolved to, never a raw header a client can
// vary at will: `user:<id>` for an authenticated caller (all of a user's tokens share one window, as on
// GitHub), `addr:<ip>` for everyone else (a failed authentication included), and a sign-in is counted under
// its email as well (`email:<address>`), so neither junk credentials nor many addresses escape the limit.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RateLimitOptions } from "./options.js";
import type { AuthContext } from "./auth/auth-context.js";
import { HttpError } from "./errors.js";

const MAX_KEYS = 10_000;

export const principalKey = (auth: AuthContext): string => `user:${auth.userId}`;
export const addressKey = (req: FastifyRequest): string => `addr:${req.ip}`;
export const emailKey = (email: string): string => `email:${email.trim().toLowerCase()}`;

export class RateLimiter {
  readonly #opts: RateLimitOptions;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(opts: RateLimitOptions, now: () => number) {
    this.#opts = opts;
    this.#now = now;
  }

  /** Counts the request under every key; the headers show the tightest one; 429 when any is past the limit. */
  check(reply: FastifyReply, keys: string[]): void {
    const now = this.#now();
    const windowMs = this.#opts.windowSeconds * 1000;
    let tightest: { remaining: number; reset: number } | undefined;
    let limitedFor = 0;
    for (const key of keys) {
      let w = this.#windows.get(key);
      if (!w || now - w.start >= windowMs) {
        if (this.#windows.size >= MAX_KEYS) this.#windows.clear();
        w = { start: now, count: 0 };
        this.#windows.set(key, w);
      }
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
    reply.header("RateLimit-Limit", String(this.#opts.limit));
    reply.header("RateLimit-Remaining", String(tightest.remaining));
    reply.header("RateLimit-Reset", String(limitedFor || tightest.reset));
    if (limitedFor) {
      throw new HttpError(429, `Rate limit exceeded. Try again in ${limitedFor} seconds.`, {}, { "Retry-After": String(limitedFor) });
    }
  }
}
