// One backoff shape for whatever this repository sends again: the core's request retries, resumable chunks, the
// connection circuit and the waiters' polls, and the CLI's deliveries of pings and notifications.

/** Statuses that may succeed when sent again. Other 4xx cannot, and are never retried. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** "full": a uniformly random delay in [0, d) ("full jitter"), so that clients failing together spread out;
   * "none": exactly d (the waiters' poll schedule). */
  jitter: "full" | "none";
}

/** Delay number `n` (0 for the first): initialMs * 2^n capped at maxMs, jittered as the shape says. */
export function backoffDelay(n: number, shape: Backoff, random: () => number = Math.random): number {
  const d = Math.min(shape.initialMs * 2 ** Math.min(n, 52), shape.maxMs);
  return shape.jitter === "full" ? Math.floor(d * random()) : d;
}
