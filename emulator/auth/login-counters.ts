// The counters behind login throttling (services/login-throttle.ts explains the policy): failures per
// key within a window, and a lock once a key reaches its limit. A known user (an email of an existing user)
// is counted by its user id, in a table with room for every user, so no flood of other emails can take its
// counter away or share it. Unknown emails and client addresses live in bounded tables that never forget a
// lock or a live count (expiring-table.ts): when one is full of live counters, a new key is counted in one
// shared counter of its kind (`user:*`, `addr:*`), whose lock then holds for unknown emails only. An IPv6
// client is keyed by its /64.
import { HttpError } from "../errors.js";
import { ExpiringTable, clientAddressKey } from "../expiring-table.js";
import type { LoginThrottleOptions } from "../options.js";

/** Unknown emails, and client addresses, kept at most (each with its own counter); past it only ended entries are dropped. */
const MAX_KEYS = 10_000;

interface Counter {
  failures: number;
  windowStartMs: number;
  lockedUntilMs: number;
}

export interface SignInAttempt {
  email: string;
  /** The user the email names, or null (an unknown email). */
  userId: string | null;
  /** The client's address (req.ip). */
  address: string;
}

type Kind = "user" | "addr";

export class LoginThrottle {
  readonly #opts: LoginThrottleOptions | null;
  readonly #now: () => number;
  /** Known users' counters by user id: as many as the store has users, never full. */
  readonly #users: ExpiringTable<Counter>;
  /** Unknown emails' and addresses' own counters. */
  readonly #tables: Record<Kind, ExpiringTable<Counter>>;
  /** The shared counters (`user:*`, `addr:*`) of new keys while their table is full. */
  readonly #overflow: ExpiringTable<Counter>;

  constructor(opts: LoginThrottleOptions | null, now: () => number) {
    this.#opts = opts;
    this.#now = now;
    const windowMs = (opts?.windowSeconds ?? 0) * 1000;
    const endsAt = (c: Counter): number => Math.max(c.lockedUntilMs, c.windowStartMs + windowMs);
    this.#users = new ExpiringTable(Number.POSITIVE_INFINITY, endsAt);
    this.#tables = { user: new ExpiringTable(MAX_KEYS, endsAt), addr: new ExpiringTable(MAX_KEYS, endsAt) };
    this.#overflow = new ExpiringTable(Number.POSITIVE_INFINITY, endsAt);
  }

  /** The attempt's keys: its user (by id when known, else by email) and its address, with their limits. */
  #keys(a: SignInAttempt): { kind: Kind; key: string; table: ExpiringTable<Counter>; limit: number }[] {
    const o = this.#opts!;
    return [
      a.userId !== null
        ? { kind: "user", key: `id:${a.userId}`, table: this.#users, limit: o.perUser }
        : { kind: "user", key: `user:${a.email.trim().toLowerCase()}`, table: this.#tables.user, limit: o.perUser },
      { kind: "addr", key: `addr:${clientAddressKey(a.address)}`, table: this.#tables.addr, limit: o.perAddress },
    ];
  }

  /** Throws 429 with Retry-After when the user or the address is locked. */
  gate(a: SignInAttempt): void {
    if (!this.#opts) return;
    const now = this.#now();
    let wait = 0;
    for (const { kind, key, table } of this.#keys(a)) {
      // A key not in its table is judged by the shared counter of its kind, unless the user is known: a
      // known user is judged by its own counter and its address's own, so a flood cannot lock it out.
      const c = table.get(key) ?? (a.userId === null ? this.#overflow.get(`${kind}:*`) : undefined);
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
    for (const { kind, key, table, limit } of this.#keys(a)) {
      let c = table.get(key);
      if (!c || now - c.windowStartMs >= windowMs) {
        const fresh = { failures: 0, windowStartMs: now, lockedUntilMs: 0 };
        if (table.set(key, fresh, now)) c = fresh;
        else {
          c = this.#overflow.get(`${kind}:*`);
          if (!c || now - c.windowStartMs >= windowMs) this.#overflow.set(`${kind}:*`, (c = fresh), now);
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
    const [user] = this.#keys(a);
    user!.table.delete(user!.key);
  }

  /** Forgets every counter (POST /__emulator/reset). */
  clear(): void {
    this.#users.clear();
    this.#tables.user.clear();
    this.#tables.addr.clear();
    this.#overflow.clear();
  }
}
