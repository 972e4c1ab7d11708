// Polling until a resource reaches one of a set of states. The action and the CLI wait through this, so
// the timeout, the poll schedule and cancellation behave the same everywhere. Polls start close together
// and space out (100 ms, 200 ms, 400 ms ... up to the poll interval): most work either finishes within a
// second, and is reported at once, or takes minutes, where a poll every interval costs little.

import { WaitTimeoutError } from "../errors.js";
import { backoffDelay, type Backoff } from "../internal/retry.js";
import { sleep } from "../internal/sleep.js";

/** Give up waiting after this. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;
/** Longest time between two polls, reached after a few shorter ones. */
export const DEFAULT_POLL_INTERVAL_MS = 2_000;
/** Delay before the first poll; each later delay doubles, up to the poll interval. */
export const INITIAL_POLL_DELAY_MS = 100;

export interface WaitOptions {
  /** Maximum time to wait in ms. Default DEFAULT_WAIT_TIMEOUT_MS (30 min). */
  waitTimeout?: number;
  /** Longest time between two polls in ms: the delays grow from INITIAL_POLL_DELAY_MS (100 ms) up to it.
   * Default DEFAULT_POLL_INTERVAL_MS (2 s); a value at or below 100 ms polls at exactly that interval. */
  pollInterval?: number;
  /** Cancels the wait (and the request in flight). */
  signal?: AbortSignal;
}

/** The delays between polls for a poll interval (cap). */
function pollSchedule(pollInterval: number = DEFAULT_POLL_INTERVAL_MS): Backoff {
  return { initialMs: Math.min(INITIAL_POLL_DELAY_MS, pollInterval), maxMs: pollInterval, jitter: "none" };
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
  const schedule = pollSchedule(options.pollInterval);
  let value = options.first ?? (await fetch());
  let lastKey = options.first === undefined ? "" : options.key(value);
  for (let polls = 0; ; polls++) {
    const key = options.key(value);
    if (key !== lastKey) options.onChange?.(value);
    lastKey = key;
    if (done(value)) return value;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`Timed out waiting: ${options.describe(value)}.`);
    await sleep(Math.min(backoffDelay(polls, schedule), left), { signal: options.signal, message: "Wait was aborted." });
    value = await fetch();
  }
}
