// The counters behind login throttling (services/login-throttle.ts explains the policy): failures per
// key within a window, and a lock once a key reaches its limit. Memory is bounded without ever forgetting a
// lock or a live count (expiring-table.ts): when the table is full of live counters, a new email or address
// is counted in one shared counter of its kind (`user:*`, `addr:*`), whose lock then holds for every key
// not in the table. An IPv6 client is keyed by its /64.
import { HttpError } from "../errors.js";
import { ExpiringTable, clientAddressKey } from "../expiring-table.js";
import type { LoginThrottleOptions } from "../options.js";

/** Keys kept at most (each with its own counter); past it only ended entries are dropped. */
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
  readonly #counters: ExpiringTable<Counter>;
  /** The shared counters of new keys while #counters is full. */
  readonly #overflow: ExpiringTable<Counter>;

  constructor(opts: LoginThrottleOptions | null, now: () => number) {
    this.#opts = opts;
    this.#now = now;
    const windowMs = (opts?.windowSeconds ?? 0) * 1000;
    const endsAt = (c: Counter): number => Math.max(c.lockedUntilMs, c.windowStartMs + windowMs);
    this.#counters = new ExpiringTable(MAX_KEYS, endsAt);
    this.#overflow = new ExpiringTable(Number.POSITIVE_INFINITY, endsAt);
  }

  #keys(a: SignInAttempt): [string, number][] {
    const o = this.#opts!;
    return [
      [`user:${a.email.trim().toLowerCase()}`, o.perUser],
      [`addr:${clientAddressKey(a.address)}`, o.perAddress],
    ];
  }

  /** The counter a key is counted in: its own, else (not in the table) the shared one of its kind. */
  #counter(key: string): Counter | undefined {
    return this.#counters.get(key) ?? this.#overflow.get(`${key.slice(0, key.indexOf(":"))}:*`);
  }

  /** Throws 429 with Retry-After when the user or the address is locked. */
  gate(a: SignInAttempt): void {
    if (!this.#opts) return;
    const now = this.#now();
    let wait = 0;
    for (const [key] of this.#keys(a)) {
      const c = this.#counter(key);
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
        const fresh = { failures: 0, windowStartMs: now, lockedUntilMs: 0 };
        if (this.#counters.set(key, fresh, now)) c = fresh;
        else {
          const shared = `${key.slice(0, key.indexOf(":"))}:*`;
          c = this.#overflow.get(shared);
          if (!c || now - c.windowStartMs >= windowMs) this.#overflow.set(shared, (c = fresh), now);
        }
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
    this.#overflow.clear();
  }
}
