// What makes a 2FA (TOTP) secret usable, checked where a secret enters (the seed; the emulator has no enrolment
// route): a secret the TOTP library cannot decode would load and then refuse every correct code.
import { ScureBase32Plugin } from "otplib";

/** The 2FA library refuses secrets under 16 bytes (every code would then be "incorrect"). */
const MIN_OTP_SECRET_BYTES = 16;

/**
 * Why `secret` is no usable 2FA secret, as the end of a sentence naming the field, or undefined when it is one.
 * It is decoded by otplib's own base32 plugin (upper-cased, padded to 8 characters), the one every sign-in
 * decodes it with, which refuses a last character with stray bits and excess padding.
 */
export function otpSecretProblem(secret: unknown): string | undefined {
  if (typeof secret !== "string" || !/^[A-Z2-7]+=*$/i.test(secret)) return "must be a base32 string";
  let bytes: number;
  try {
    bytes = new ScureBase32Plugin().decode(secret).length;
  } catch (err) {
    // The library's message quotes the stray bits: a piece of the secret, so never repeated.
    return /non-zero padding/i.test((err as Error).message)
      ? "is base32 the 2FA library cannot decode: its last character sets bits past the end of the secret"
      : "is base32 the 2FA library cannot decode: its length is not one base32 can end on (2, 4, 5 or 7 characters past a multiple of 8, = padding to a multiple of 8 at most)";
  }
  if (bytes < MIN_OTP_SECRET_BYTES) return `is ${bytes} bytes: it must be at least ${MIN_OTP_SECRET_BYTES} bytes (26 base32 characters)`;
  return undefined;
}
