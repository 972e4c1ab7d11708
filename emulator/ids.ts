// Identifiers: prefix + "_" + alphanumerics, as many as the profile says (20 by default: docs/design.md
// section 2; 6 in the `minimal` profile). Any length is accepted back: the spec promises only `prefix_<alnum>`.
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

/** Issues ids of one length (the profile's `idLength`); the emulator's context holds one (`ctx.newId`). */
export type IdIssuer = (prefix: IdPrefix) => string;

export function idIssuer(length: number): IdIssuer {
  return (prefix) => `${prefix}_${randomAlphanumeric(length)}`;
}

const ID_PATTERNS = new Map<IdPrefix, RegExp>();

/**
 * True when `value` has the shape of an id with this prefix (anything else cannot exist): `prefix_` and one or
 * more alphanumerics, 64 characters at most. It only saves a lookup, so it takes every length a profile (or a
 * database written under another profile) issued.
 */
export function isId(prefix: IdPrefix, value: string): boolean {
  let pattern = ID_PATTERNS.get(prefix);
  if (!pattern) ID_PATTERNS.set(prefix, (pattern = new RegExp(`^${prefix}_[A-Za-z0-9]+$`)));
  return value.length <= 64 && pattern.test(value);
}
