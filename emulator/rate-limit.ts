// Fixed-window rate limiting per credential (or per IP), on the emulator clock, with the
// RateLimit-* headers on every API response and 429 + Retry-After past the limit.
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RateLimitOptions } from "./options.js";
import { HttpError } from "./errors.js";

export class RateLimiter {
  readonly #opts: RateLimitOptions;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(opts: RateLimitOptions, now: () => number) {
    this.#opts = opts;
    this.#now = now;
  }

  #key(req: FastifyRequest): string {
    const auth = req.headers.authorization;
    // Hash so that no credential is kept in memory in clear.
    return auth ? createHash("sha256").update(auth).digest("base64url") : `ip:${req.ip}`;
  }

  check(req: FastifyRequest, reply: FastifyReply): void {
    const now = this.#now();
    const windowMs = this.#opts.windowSeconds * 1000;
    const key = this.#key(req);
    let w = this.#windows.get(key);
    if (!w || now - w.start >= windowMs) {
      if (this.#windows.size > 10_000) this.#windows.clear();
      w = { start: now, count: 0 };
      this.#windows.set(key, w);
    }
    w.count++;
    const reset = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    reply.header("RateLimit-Limit", String(this.#opts.limit));
    reply.header("RateLimit-Remaining", String(Math.max(0, this.#opts.limit - w.count)));
    reply.header("RateLimit-Reset", String(reset));
    if (w.count > this.#opts.limit) {
      throw new HttpError(429, `Rate limit exceeded. Try again in ${reset} seconds.`, {}, { "Retry-After": String(reset) });
    }
  }
}
