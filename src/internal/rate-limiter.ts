// Client-side pacing from the service's RateLimit-* headers, shared by every request of a client. Once the
// window's length is known, its allowance is spent at an even pace (a token bucket refilled at
// limit/window) with a small burst on top, so a busy client gets the whole allowance without being refused;
// before that, requests go freely until a tenth of the allowance is left, and the rest is spread over the
// time left. With nothing left a request waits for the reset instead of being sent to collect a 429 and
// spend a retry. Processes sharing one token see each other's use in the headers and slow down together;
// a 429 that happens anyway pauses every request of the client until the time the server named, plus jitter.

import { jitterServerDelay, parseRateLimit, parseRetryAfter } from "./retry.js";
import { sleep } from "./sleep.js";

/** Requests a client may send ahead of the even pace, as a share of the window's limit. */
export const BURST_SHARE = 0.1;

export class RateLimiter {
  readonly #now: () => number;
  readonly #random: () => number;
  /** Requests this client may still send in the current window: the server's count less what was sent since. */
  #remaining: number | undefined;
  /** When the current window ends. */
  #resetAt = 0;
  #limit: number | undefined;
  /** Length of a window, once a response at the start of one showed it (0: not known). */
  #windowMs = 0;
  /** Earliest start of the next paced request. */
  #nextSlot = 0;
  /** The current window's figures are assumed (a window passed and no response told yet). */
  #assumed = false;

  constructor(now: () => number = () => Date.now(), random: () => number = () => Math.random()) {
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
      if (now >= this.#resetAt) this.#newWindow(now);
      const remaining = this.#remaining;
      if (remaining === undefined) return now - started; // nothing known: the response will say
      let wait: number;
      if (remaining <= 0) {
        // Everyone waiting for the reset comes back spread over a moment, not in one burst.
        wait = jitterServerDelay(this.#resetAt - now, this.#random);
      } else {
        const limit = this.#limit ?? remaining;
        const burst = Math.max(1, Math.ceil(limit * BURST_SHARE));
        // What an even pace would have left by now, less the burst; without a known window, the burst alone.
        const floor = this.#windowMs > 0 ? (limit * (this.#resetAt - now)) / this.#windowMs - burst : burst;
        if (remaining - 1 >= floor) {
          this.#remaining = remaining - 1;
          return now - started;
        }
        // Behind the pace: spread what is left evenly over the time left.
        const slot = Math.max(this.#nextSlot, now);
        wait = slot - now;
        if (wait > maxWaitMs) return now - started;
        this.#nextSlot = slot + (this.#resetAt - slot) / remaining;
        this.#remaining = remaining - 1;
        if (wait > 0) await sleep(wait, { signal });
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
      const newWindow = this.#remaining === undefined || this.#assumed || resetAt > this.#resetAt + 1500;
      if (newWindow) {
        // The first answers of a window show its length: after a reset was crossed, or with the full limit left.
        const crossed = this.#assumed || (Number.isFinite(this.#resetAt) && this.#resetAt > 0);
        if (crossed || (this.#limit !== undefined && rate.remaining >= this.#limit - 1)) this.#windowMs = rate.resetMs;
        this.#remaining = rate.remaining;
        this.#resetAt = resetAt;
        this.#nextSlot = 0;
        this.#assumed = false;
      } else {
        this.#remaining = Math.min(this.#remaining!, rate.remaining);
      }
    }
    if (status === 429) {
      const after = parseRetryAfter(headers, now) ?? rate.resetMs;
      if (after !== undefined) this.pause(after);
    }
  }

  /** Holds every request of the client until `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    const until = this.#now() + ms;
    this.#remaining = 0;
    this.#resetAt = this.#assumed || !Number.isFinite(this.#resetAt) ? until : Math.max(this.#resetAt, until);
    this.#assumed = false;
  }

  /** A window has passed: until a response tells, assume the limit it had (an even pace from the start). */
  #newWindow(now: number): void {
    this.#nextSlot = 0;
    if (this.#limit === undefined || this.#windowMs === 0) {
      this.#remaining = undefined;
      this.#resetAt = Infinity;
      this.#assumed = false;
      return;
    }
    this.#remaining = this.#limit;
    this.#resetAt = now + this.#windowMs;
    this.#assumed = true;
  }
}
