// A bounded map of entries that each end at a known time (rate-limit windows, login-throttle counters and
// locks). Memory stays bounded, and a live entry is never forgotten to make room: at the bound, only entries
// whose time is over are dropped; when every entry is still live, a new key is not stored and the caller
// counts it somewhere coarser (rate-limit.ts and auth/login-counters.ts aggregate it). Clients spraying
// source addresses can fill the table, never empty it of someone's window or lock.

export class ExpiringTable<V> {
  readonly #map = new Map<string, V>();
  readonly #capacity: number;
  readonly #endsAt: (value: V) => number;
  /** No entry ends before this (a lower bound): a sweep before it would find nothing to drop. */
  #earliestEnd = Number.POSITIVE_INFINITY;

  constructor(capacity: number, endsAt: (value: V) => number) {
    this.#capacity = capacity;
    this.#endsAt = endsAt;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    return this.#map.get(key);
  }

  /**
   * Stores `value` under `key` (replacing its entry), making room by dropping ended entries if needed.
   * False, and nothing stored, when the table is full of live entries. An entry's end may later move
   * later (a lock extends it), never earlier.
   */
  set(key: string, value: V, now: number): boolean {
    if (!this.#map.has(key) && this.#map.size >= this.#capacity) {
      this.#sweep(now);
      if (this.#map.size >= this.#capacity) return false;
    }
    this.#map.set(key, value);
    this.#earliestEnd = Math.min(this.#earliestEnd, this.#endsAt(value));
    return true;
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
    this.#earliestEnd = Number.POSITIVE_INFINITY;
  }

  /** Drops every entry that has ended; one pass, and none at all before the earliest end can have come. */
  #sweep(now: number): void {
    if (now < this.#earliestEnd) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, value] of this.#map) {
      const end = this.#endsAt(value);
      if (end <= now) this.#map.delete(key);
      else earliest = Math.min(earliest, end);
    }
    this.#earliestEnd = earliest;
  }
}

/**
 * The key of a client address: an IPv4 address as it is; an IPv6 address by its /64 (one host gets a whole
 * /64, so one key per address would let it spray 2^64 keys); an IPv4-mapped IPv6 address as the IPv4 one.
 */
export function clientAddressKey(ip: string): string {
  const bare = ip.replace(/%.*$/, "").toLowerCase();
  if (!bare.includes(":")) return bare;
  const groups = expandIPv6(bare);
  if (!groups) return bare;
  if (groups.slice(0, 5).every((g) => g === "0") && groups[5] === "ffff") {
    const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail counted as two), or null. */
function expandIPv6(ip: string): string[] | null {
  let text = ip;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}
