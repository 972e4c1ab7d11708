// Client-side pacing from the service's RateLimit-* headers, shared by every request of a client: requests
// go out freely while the window has room, are spaced out over the time left once it runs low, and wait for
// the reset (instead of being sent to collect a 429 and spend a retry) when nothing is left. Processes that
// share one token each see the others' use in the headers and slow down together; a 429 that happens anyway
// (or a Retry-After) pauses every request of the client until the time the server named, plus jitter.

import { jitterServerDelay, parseRateLimit, parseRetryAfter } from "./retry.js";
import { sleep } from "./sleep.js";

/** Below this share of the window's limit left, requests are spaced out over the time until the reset. */
export const PACING_THRESHOLD = 0.1;

export class RateLimiter {
  readonly #now: () => number;
  readonly #random: () => number;
  /** Requests this client may still send in the current window (the server's count less what was sent since). */
  #remaining: number | undefined;
  /** When the current window ends. */
  #resetAt = 0;
  #limit: number | undefined;
  /** Earliest start of the next paced request. */
  #nextSlot = 0;

  constructor(now: () => number = Date.now, random: () => number = Math.random) {
    this.#now = now;
    this.#random = random;
  }

  /**
   * Waits until a request may be sent and counts it. A wait longer than `maxWaitMs` is not made: the request
   * goes out and the service's answer (a 429 with its Retry-After) decides. Resolves with the ms waited.
   */
  async acquire(signal: AbortSignal | undefined, maxWaitMs: number): Promise<number> {
    const started = this.#now();
    for (;;) {
      const now = this.#now();
      if (this.#remaining === undefined || now >= this.#resetAt) {
        this.#remaining = undefined; // a new window: the next response says how much room it has
        return now - started;
      }
      const low = Math.max(1, Math.ceil((this.#limit ?? 0) * PACING_THRESHOLD));
      if (this.#remaining > low) {
        this.#remaining--;
        return now - started;
      }
      let wait: number;
      if (this.#remaining <= 0) {
        // Everyone waiting for the reset comes back spread over a moment, not in one burst.
        wait = jitterServerDelay(this.#resetAt - now, this.#random);
      } else {
        // Spread what is left evenly over the time left.
        const slot = Math.max(this.#nextSlot, now);
        this.#nextSlot = slot + (this.#resetAt - slot) / (this.#remaining + 1);
        this.#remaining--;
        wait = slot - now;
        if (wait <= 0) return now - started;
        if (wait > maxWaitMs) return now - started;
        await sleep(wait, { signal });
        return this.#now() - started;
      }
      if (wait > maxWaitMs) return now - started;
      await sleep(wait, { signal });
    }
  }

  /** Reads the RateLimit-* headers of a response, and the wait a 429 asks for. (A 503's Retry-After is
   * honoured by the request that got it, not by the whole client: a few failing requests must not stall
   * the others.) */
  observe(status: number, headers: Record<string, string | undefined>): void {
    const now = this.#now();
    const rate = parseRateLimit(headers, now);
    if (rate.limit !== undefined) this.#limit = rate.limit;
    if (rate.remaining !== undefined && rate.resetMs !== undefined) {
      const resetAt = now + rate.resetMs;
      // Within one window the count only goes down, and responses may arrive out of order: keep the lowest.
      // A reset well past the one known is a new window.
      if (this.#remaining === undefined || resetAt > this.#resetAt + 1500) {
        this.#remaining = rate.remaining;
        this.#resetAt = resetAt;
        this.#nextSlot = 0;
      } else {
        this.#remaining = Math.min(this.#remaining, rate.remaining);
      }
    }
    if (status === 429) {
      const after = parseRetryAfter(headers, now) ?? rate.resetMs;
      if (after !== undefined) this.pause(after);
    }
  }

  /** Holds every request of the client until `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    this.#remaining = 0;
    this.#resetAt = Math.max(this.#resetAt, this.#now() + ms);
  }
}
