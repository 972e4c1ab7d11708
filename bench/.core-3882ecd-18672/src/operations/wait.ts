// Polling until a resource reaches one of a set of states. The action and the CLI wait through this, so
// the timeout, interval and cancellation behave the same everywhere.

import { APIUserAbortError, WaitTimeoutError } from "../errors.js";
import { sleep } from "../internal/backoff.js";

/** Give up waiting after this. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;
/** Time between two polls. */
export const DEFAULT_POLL_INTERVAL_MS = 2_000;

export interface WaitOptions {
  /** Maximum time to wait in ms. Default DEFAULT_WAIT_TIMEOUT_MS (30 min). */
  waitTimeout?: number;
  /** Poll interval in ms. Default DEFAULT_POLL_INTERVAL_MS (2 s). */
  pollInterval?: number;
  /** Cancels the wait (and the request in flight). */
  signal?: AbortSignal;
}

/**
 * Calls `fetch` until `done(value)`; `onChange` sees every value whose `key` differs from the previous one.
 * Resolves with the final value; rejects with WaitTimeoutError or APIUserAbortError.
 */
export async function waitUntil<T>(
  fetch: () => Promise<T>,
  done: (value: T) => boolean,
  options: WaitOptions & { describe: (value: T) => string; key: (value: T) => string; onChange?: (value: T) => void; first?: T },
): Promise<T> {
  const deadline = Date.now() + (options.waitTimeout ?? DEFAULT_WAIT_TIMEOUT_MS);
  const interval = options.pollInterval ?? DEFAULT_POLL_INTERVAL_MS;
  let value = options.first ?? (await fetch());
  let lastKey = options.first === undefined ? "" : options.key(value);
  for (;;) {
    const key = options.key(value);
    if (key !== lastKey) options.onChange?.(value);
    lastKey = key;
    if (done(value)) return value;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`Timed out waiting: ${options.describe(value)}.`);
    try {
      await sleep(Math.min(interval, left), options.signal);
    } catch (reason) {
      throw new APIUserAbortError("Wait was aborted.", { cause: reason });
    }
    value = await fetch();
  }
}
