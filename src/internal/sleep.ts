// The core's one abortable sleep: retry backoff, rate-limit pauses, circuit waits and waiter polls all go
// through it, so a caller's signal ends any of them the same way (APIUserAbortError).

import { APIUserAbortError } from "../errors.js";

export interface SleepOptions {
  signal?: AbortSignal;
  /** Message of the APIUserAbortError when the signal aborts. */
  message?: string;
  /** Ends the sleep early (resolving) when this settles: a shared state the sleeper waits on changed. */
  wake?: Promise<unknown>;
}

/** Resolves after `ms` (Infinity: only when woken), or early when `wake` settles; rejects with
 * APIUserAbortError (the signal's reason as its cause) when the signal aborts first, or at once when it
 * already has. The timer is cleared however the sleep ends, so it never holds the process open. */
export function sleep(ms: number, options: SleepOptions = {}): Promise<void> {
  const { signal, message, wake } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError(message, { cause: signal.reason }));
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => finish(new APIUserAbortError(message, { cause: signal?.reason }));
    const timer = Number.isFinite(ms) ? setTimeout(() => finish(), Math.max(0, ms)) : undefined;
    signal?.addEventListener("abort", onAbort, { once: true });
    wake?.then(
      () => finish(),
      () => finish(),
    );
  });
}

/** A shared state's "it changed" signal: sleepers pass `promise` as `wake`; `fire()` wakes them all, and the
 * owner then makes a fresh one for the next change. */
export function changeSignal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}
