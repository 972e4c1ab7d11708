// Hashing of passwords (scrypt) and of bearer secrets (SHA-256), and constant-time comparison.
// API tokens and refresh tokens are high-entropy random strings, so a plain SHA-256 is enough to
// make a stolen database useless; passwords are low-entropy and get scrypt with a per-user salt.
import { createHash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { randomAlphanumeric } from "../ids.js";

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

// A fixed hash to compare against when the user does not exist, so timing does not reveal accounts.
let dummyHash: string | undefined;

export function verifyPassword(password: string, stored: string | undefined): boolean {
  const target = stored ?? (dummyHash ??= hashPassword(randomAlphanumeric(16)));
  const [scheme, n, r, p, saltB64, keyB64] = target.split("$");
  if (scheme !== "scrypt" || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const actual = scryptSync(password, Buffer.from(saltB64, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected) && stored !== undefined;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newApiToken(): string {
  return `sot_${randomAlphanumeric(40)}`;
}

/** What the account settings show of a token: `sot_` and four characters (never enough to use it). */
export function tokenPrefix(token: string): string {
  return token.slice(0, 8);
}

export function newRefreshToken(): string {
  return `sor_${randomAlphanumeric(48)}`;
}
