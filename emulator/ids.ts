// Identifiers: prefix + "_" + 20 alphanumerics (docs/design.md section 2).
import { randomFillSync } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

// Random bytes are drawn 4 KiB at a time: one call into the CSPRNG per ~190 ids instead of one per id
// (a seed's `generate` makes 100,000s of ids).
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

export function randomAlphanumeric(length: number): string {
  // Rejection sampling keeps the distribution uniform over 62 symbols.
  let out = "";
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

export type IdPrefix = "site" | "hc" | "snap" | "upg" | "vuln" | "act" | "we" | "usr" | "acct" | "tok" | "msg";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomAlphanumeric(20)}`;
}

const ID_PATTERNS = new Map<IdPrefix, RegExp>();

/** True when `value` has the shape of an id with this prefix (anything else cannot exist). */
export function isId(prefix: IdPrefix, value: string): boolean {
  let pattern = ID_PATTERNS.get(prefix);
  if (!pattern) ID_PATTERNS.set(prefix, (pattern = new RegExp(`^${prefix}_[A-Za-z0-9]{16,}$`)));
  return value.length <= 64 && pattern.test(value);
}
