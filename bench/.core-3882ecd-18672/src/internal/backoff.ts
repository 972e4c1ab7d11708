// When to try again. Exponential backoff with jitter so that many clients failing together do not retry in
// lockstep; the server's own Retry-After wins when it is sensible.

export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
/** A Retry-After longer than this is not waited for: the request fails at once with the server's answer
 * (e.g. RateLimitError with `.retryAfter`) instead of hanging for minutes. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses that may succeed when sent again. Other 4xx cannot, and are never retried. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Parses `retry-after-ms`, then `Retry-After` (seconds or an HTTP date) into milliseconds.
 * Returns undefined when absent, unparsable or negative.
 */
export function parseRetryAfter(headers: Record<string, string | undefined>, now = Date.now()): number | undefined {
  let ms: number | undefined;
  const exact = headers["retry-after-ms"];
  if (exact !== undefined && exact.trim() !== "" && Number.isFinite(Number(exact))) {
    ms = Number(exact);
  } else {
    const value = headers["retry-after"]?.trim();
    if (value) {
      if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
      else if (/[a-z]/i.test(value)) {
        const date = Date.parse(value);
        if (!Number.isNaN(date)) ms = Math.max(0, date - now);
      }
    }
  }
  if (ms === undefined || ms < 0) return undefined;
  return ms;
}

/**
 * Delay before retry number `retry` (0 for the first retry): 0.5 s, 1 s, 2 s ... capped at 8 s, each reduced
 * by up to 25% at random. `random` is injectable for tests.
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * How long to wait before retrying a failed response: the server's Retry-After, else backoff. Undefined
 * when the server asks for longer than MAX_RETRY_AFTER_MS: do not retry.
 */
export function retryDelay(headers: Record<string, string | undefined>, retry: number): number | undefined {
  const after = parseRetryAfter(headers);
  if (after !== undefined && after > MAX_RETRY_AFTER_MS) return undefined;
  return after ?? backoffDelay(retry);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
