// Client-side pacing from the service's RateLimit-* headers, shared by every request of a client. The
// window's allowance is spent at an even pace (a token bucket refilled at limit/window) with a small burst
// on top, so a busy client gets the whole allowance without being refused; with nothing left a request
// waits for the reset instead of being sent to collect a 429. At the start, and after each reset, one
// request (the one that has waited longest) goes alone until its answer tells what is left. Processes sharing
// one token see each other's use in the headers and slow down together; a 429 that happens anyway pauses every
// request of the client until the time the server named, plus jitter.

import { jitterServerDelay, parseRateLimit, parseRetryAfter } from "./retry.js";
import { changeSignal, sleep } from "./sleep.js";

/** Requests a client may send ahead of the even pace, as a share of the window's limit. */
const BURST_SHARE = 0.1;

export class RateLimiter {
  readonly #now: () => number;
  readonly #random: () => number;
  /** Requests this client may still send in the current window: the server's count less what was sent since. */
  #remaining: number | undefined;
  /** When the current window ends. */
  #resetAt = 0;
  #limit: number | undefined;
  /** Length of a window: the longest reset seen (the first answer's reset when nothing better is known,
   * which paces a client that starts mid-window a little more carefully than needed). */
  #windowMs = 0;
  /** The last slot given to a paced request. */
  #nextSlot = 0;
  /** When this client last sent a request: a client behind the pace sends its next one an interval later. */
  #lastSentAt = 0;
  /** While nothing is known, one request goes first and the others wait for its answer (a cold start must
   * not send a whole burst into a limit it cannot see). */
  #probing = false;
  /** The service sent no RateLimit headers: nothing to pace by. */
  #unlimited = false;
  /** Requests sent and not answered yet: a count in a response does not include them. */
  #inFlight = 0;
  /** Requests waiting for their paced slot. */
  #queued = 0;
  /** After a 429, nothing is sent before this. */
  #pausedUntil = 0;
  /** Tickets of the requests inside acquire(), oldest first: the one request that goes alone (the probe) is
   * the one that has waited longest, so that after a 429 the request that met it does not go first again and
   * meet the next 429 of a burst, while the others wait without spending anything. */
  readonly #waiting = new Set<number>();
  #tickets = 0;
  #changed = changeSignal();

  constructor(now: () => number = () => Date.now(), random: () => number = () => Math.random()) {
    this.#now = now;
    this.#random = random;
  }

  /** Counts a request that may go at once without waiting, and says so; false: call acquire(). (Most
   * requests of a client that is not near its limit pass here, without a promise.) */
  tryAcquire(): boolean {
    if (this.#remaining !== undefined || !this.#unlimited || this.#now() < this.#pausedUntil) return false;
    this.#inFlight++;
    return true;
  }

  /**
   * Waits until a request may be sent and counts it. A wait longer than `maxWaitMs` is not made: the request
   * goes out and the service's answer (a 429 with its Retry-After) decides. Resolves with the ms waited.
   */
  async acquire(signal: AbortSignal | undefined, maxWaitMs: number): Promise<number> {
    const ticket = ++this.#tickets;
    this.#waiting.add(ticket);
    try {
      return await this.#acquire(ticket, signal, maxWaitMs);
    } finally {
      const wasOldest = this.#waiting.values().next().value === ticket;
      this.#waiting.delete(ticket);
      if (wasOldest && this.#waiting.size > 0) this.#notify(); // the next oldest may be the probe now
    }
  }

  async #acquire(ticket: number, signal: AbortSignal | undefined, maxWaitMs: number): Promise<number> {
    const started = this.#now();
    const go = (): number => {
      this.#inFlight++;
      this.#lastSentAt = this.#now();
      return this.#lastSentAt - started;
    };
    for (;;) {
      const now = this.#now();
      if (now < this.#pausedUntil) {
        const pause = jitterServerDelay(this.#pausedUntil - now, this.#random);
        if (pause > maxWaitMs) return go();
        await sleep(pause, { signal });
        continue;
      }
      if (now >= this.#resetAt) this.#newWindow();
      const remaining = this.#remaining;
      if (remaining === undefined) {
        if (this.#unlimited) return go();
        if (!this.#probing && this.#waiting.values().next().value === ticket) {
          this.#probing = true; // this request's answer will say
          return go();
        }
        await sleep(Math.min(this.#resetAt - now, maxWaitMs), { signal, wake: this.#changed.promise });
        if (this.#now() - started >= maxWaitMs) return go();
        continue;
      }
      let wait: number;
      if (remaining <= 0) {
        // Everyone waiting for the reset comes back spread over a moment, not in one burst.
        wait = jitterServerDelay(this.#resetAt - now, this.#random);
      } else {
        const limit = this.#limit ?? remaining;
        const burst = Math.max(1, Math.ceil(limit * BURST_SHARE));
        // What an even pace would have left by now, less the burst; without a known window, the burst alone.
        const floor = (limit * (this.#resetAt - now)) / Math.max(this.#windowMs, this.#resetAt - now, 1) - burst;
        if (remaining - 1 >= floor) {
          this.#remaining = remaining - 1;
          return go();
        }
        // Behind the pace: spread what is left evenly over the time left, after the requests already queued.
        const unclaimed = remaining - this.#queued;
        if (unclaimed > 0) {
          // Evenly between the last slot given out (or the last request sent) and the reset.
          const base = Math.max(this.#nextSlot, this.#lastSentAt);
          const slot = Math.max(now, base + (this.#resetAt - base) / (unclaimed + 1));
          wait = slot - now;
          if (wait > maxWaitMs) return go();
          this.#nextSlot = slot;
          this.#queued++;
          try {
            if (wait > 0) await sleep(wait, { signal });
          } finally {
            this.#queued--;
          }
          // At its slot a request goes if the window still has room by what the latest answers say, and no
          // 429 paused the client meanwhile; else it queues again.
          const at = this.#now();
          if (at >= this.#pausedUntil && at < this.#resetAt && this.#remaining !== undefined && this.#remaining > 0) {
            this.#remaining--;
            return go();
          }
          continue;
        }
        wait = jitterServerDelay(this.#resetAt - now, this.#random); // every unit left is spoken for
      }
      if (wait > maxWaitMs) return go();
      await sleep(wait, { signal });
    }
  }

  /** A request counted by acquire() ended without a response (or was not sent after all). */
  failed(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (!this.#probing) return;
    this.#probing = false;
    this.#notify();
  }

  /** Reads the RateLimit-* headers of a response, and the wait a 429 asks for. (A 503's Retry-After is
   * honoured by the request that got it, not by the whole client: a few failing requests must not stall
   * the others.) */
  observe(status: number, headers: Record<string, string | undefined>): void {
    const now = this.#now();
    const rate = parseRateLimit(headers, now);
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (this.#probing) {
      this.#probing = false;
      this.#notify();
    }
    if (rate.remaining === undefined && rate.limit === undefined && status !== 429) this.#unlimited = this.#remaining === undefined;
    else this.#unlimited = false;
    if (rate.limit !== undefined) this.#limit = rate.limit;
    if (rate.remaining !== undefined && rate.resetMs !== undefined) {
      const resetAt = now + rate.resetMs;
      // Requests still in flight may not be in the service's count yet (counting them twice only slows down).
      const left = Math.max(0, rate.remaining - this.#inFlight);
      // Within one window the count only goes down, and responses may arrive out of order: keep the lowest.
      // A reset well past the one known is a new window.
      const newWindow = this.#remaining === undefined || resetAt > this.#resetAt + 1500;
      if (newWindow) {
        this.#windowMs = Math.max(this.#windowMs, rate.resetMs);
        this.#remaining = left;
        this.#resetAt = resetAt;
        this.#nextSlot = 0;
      } else {
        this.#remaining = Math.min(this.#remaining!, left);
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
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
    this.#remaining = 0;
    this.#resetAt = Number.isFinite(this.#resetAt) ? Math.max(this.#resetAt, until) : until;
  }

  #notify(): void {
    const changed = this.#changed;
    this.#changed = changeSignal();
    changed.fire();
  }

  /** A window has passed: what is left in the next one is unknown until an answer says (one request goes
   * first, so that processes sharing the token do not all spend the new window at once). */
  #newWindow(): void {
    this.#nextSlot = 0;
    this.#remaining = undefined;
    this.#resetAt = Infinity;
  }
}
