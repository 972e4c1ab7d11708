// Login throttling: failed sign-ins (wrong password, wrong 2FA code) are counted per user (an existing user
// by its id, an unknown email as typed, lowercased: counted alike, so a 429 does not tell whether an account
// exists, but for the flood case of auth/login-counters.ts) and per client address.
// After `perUser` failures of one user, or `perAddress` from one address, within the window, every attempt
// on that key is refused with 429 + Retry-After until the lock ends, the right password included (as GitHub
// does), so a locked key cannot be guessed through. A successful sign-in clears its user's count; the
// address count is not cleared by a success, or an attacker with one account of their own could launder it.
// Counters live in memory on the emulator clock (a restart forgets them). Any sign-in path (the API's
// POST /jwt and /auth, a web console) goes through throttledSignIn.
import type { EmulatorContext } from "../context.js";
import { HttpError } from "../errors.js";
import type { SignInAttempt } from "../auth/login-counters.js";

export type { SignInAttempt } from "../auth/login-counters.js";

/** A failed sign-in: wrong email/password or a wrong/replayed 2FA code (401). */
function isFailure(err: unknown): boolean {
  return err instanceof HttpError && err.status === 401;
}

/**
 * Runs one sign-in check under the throttle: refused with 429 while the user or address is locked; a 401
 * from `check` counts as a failure, a result clears the user's count. Other answers (422
 * `otp_attempt_required`: the password was right but the code is missing) neither count nor clear.
 */
export async function throttledSignIn<T>(ctx: EmulatorContext, attempt: SignInAttempt, check: () => Promise<T>): Promise<T> {
  const throttle = ctx.loginThrottle;
  throttle.gate(attempt);
  let result: T;
  try {
    result = await check();
  } catch (err) {
    if (isFailure(err)) throttle.failed(attempt);
    throw err;
  }
  throttle.succeeded(attempt);
  return result;
}
