// The counters behind login throttling (services/login-throttle.ts explains the policy): failures per
// key within a window, and a lock once a key reaches its limit.
import { HttpError } from "../errors.js";
import type { LoginThrottleOptions } from "../options.js";

/** Keys kept at most; past it, entries whose window ended are dropped, then the oldest. */
const MAX_KEYS = 10_000;

interface Counter {
  failures: number;
  windowStartMs: number;
  lockedUntilMs: number;
}

export interface SignInAttempt {
  email: string;
  /** The client's address (req.ip). */
  address: string;
}

export class LoginThrottle {
  readonly #opts: LoginThrottleOptions | null;
  readonly #now: () => number;
  readonly #counters = new Map<string, Counter>();

  constructor(opts: LoginThrottleOptions | null, now: () => number) {
    this.#opts = opts;
    this.#now = now;
  }

  #keys(a: SignInAttempt): [string, number][] {
    const o = this.#opts!;
    return [
      [`user:${a.email.trim().toLowerCase()}`, o.perUser],
      [`addr:${a.address}`, o.perAddress],
    ];
  }

  /** Throws 429 with Retry-After when the user or the address is locked. */
  gate(a: SignInAttempt): void {
    if (!this.#opts) return;
    const now = this.#now();
    let wait = 0;
    for (const [key] of this.#keys(a)) {
      const c = this.#counters.get(key);
      if (c && c.lockedUntilMs > now) wait = Math.max(wait, c.lockedUntilMs - now);
    }
    if (wait > 0) {
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      throw new HttpError(429, `Too many failed login attempts. Try again in ${seconds} seconds.`, {}, { "Retry-After": String(seconds) });
    }
  }

  failed(a: SignInAttempt): void {
    if (!this.#opts) return;
    const now = this.#now();
    const windowMs = this.#opts.windowSeconds * 1000;
    for (const [key, limit] of this.#keys(a)) {
      let c = this.#counters.get(key);
      if (!c || now - c.windowStartMs >= windowMs) {
        this.#makeRoom();
        c = { failures: 0, windowStartMs: now, lockedUntilMs: 0 };
        this.#counters.delete(key);
        this.#counters.set(key, c);
      }
      c.failures++;
      if (c.failures >= limit) {
        c.lockedUntilMs = now + windowMs;
        c.failures = 0;
        c.windowStartMs = now;
      }
    }
  }

  succeeded(a: SignInAttempt): void {
    if (!this.#opts) return;
    this.#counters.delete(this.#keys(a)[0]![0]);
  }

  /** Forgets every counter (POST /__emulator/reset). */
  clear(): void {
    this.#counters.clear();
  }

  #makeRoom(): void {
    if (this.#counters.size < MAX_KEYS) return;
    const now = this.#now();
    const windowMs = this.#opts!.windowSeconds * 1000;
    for (const [key, c] of this.#counters) {
      if (c.lockedUntilMs <= now && now - c.windowStartMs >= windowMs) this.#counters.delete(key);
    }
    // Still full: drop the oldest (Map order is insertion order).
    for (const key of this.#counters.keys()) {
      if (this.#counters.size < MAX_KEYS) break;
      this.#counters.delete(key);
    }
  }
}
