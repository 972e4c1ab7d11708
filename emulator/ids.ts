// Identifiers: prefix + "_" + 20 alphanumerics (DESIGN.md section 2).
import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export function randomAlphanumeric(length: number): string {
  // Rejection sampling keeps the distribution uniform over 62 symbols.
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
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
