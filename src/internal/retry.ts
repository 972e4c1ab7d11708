// When to try again, for every retrying part of the core (the request loop, resumable upload chunks, the
// connection circuit) and the growing delays of the waiters: one backoff shape, one reading of the server's
// Retry-After / RateLimit-Reset, and one per-call retry state that keeps retries inside a time budget.

import { backoffDelay as delayOf, RETRYABLE_STATUSES, type Backoff } from "../../common/backoff.js";

export { RETRYABLE_STATUSES, type Backoff };

/** First backoff delay (before jitter); each later one doubles. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Largest backoff delay (before jitter). */
export const MAX_RETRY_DELAY_MS = 30_000;

export const RETRY_BACKOFF: Backoff = { initialMs: INITIAL_RETRY_DELAY_MS, maxMs: MAX_RETRY_DELAY_MS, jitter: "full" };

/** Delay number `n` of the core's retries (see common/backoff.ts). */
export function backoffDelay(n: number, shape: Backoff = RETRY_BACKOFF, random: () => number = Math.random): number {
  return delayOf(n, shape, random);
}

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

export interface RateLimitState {
  /** Requests left in the current window. */
  remaining: number | undefined;
  /** Milliseconds until the window resets. */
  resetMs: number | undefined;
  /** Requests per window. */
  limit: number | undefined;
}

/** Reset values above this are Unix times (GitHub's X-RateLimit-Reset), below it seconds from now. */
const EPOCH_SECONDS = 1_000_000_000;

/**
 * Reads `RateLimit-Limit/-Remaining/-Reset` (also with an `X-` prefix, with a reset in seconds or as a Unix
 * time), or the structured `RateLimit: ...;r=0;t=5` (or `remaining=0, reset=5`) field of the IETF draft.
 */
export function parseRateLimit(headers: Record<string, string | undefined>, now = Date.now()): RateLimitState {
  const int = (value: string | undefined): number | undefined => {
    if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
    return Number(value);
  };
  let remaining = int(headers["ratelimit-remaining"] ?? headers["x-ratelimit-remaining"]);
  let reset = int(headers["ratelimit-reset"] ?? headers["x-ratelimit-reset"]);
  let limit = int(headers["ratelimit-limit"] ?? headers["x-ratelimit-limit"]);
  const structured = headers["ratelimit"];
  if (structured !== undefined && (remaining === undefined || reset === undefined)) {
    const param = (names: string[]): number | undefined => {
      for (const name of names) {
        const m = new RegExp(`(?:^|[;,\\s])${name}=(\\d+)`).exec(structured);
        if (m) return Number(m[1]);
      }
      return undefined;
    };
    remaining ??= param(["r", "remaining"]);
    reset ??= param(["t", "reset"]);
    limit ??= param(["limit"]);
  }
  let resetMs: number | undefined;
  if (reset !== undefined) resetMs = reset > EPOCH_SECONDS ? Math.max(0, reset * 1000 - now) : reset * 1000;
  return { remaining, resetMs, limit };
}

/**
 * How long the server asked this client to wait before sending again, in ms: `Retry-After`, else (when it
 * says no requests are left) `RateLimit-Reset`. Undefined when it said nothing.
 */
export function serverDelay(headers: Record<string, string | undefined>, now = Date.now()): number | undefined {
  const after = parseRetryAfter(headers, now);
  if (after !== undefined) return after;
  const rate = parseRateLimit(headers, now);
  return rate.remaining === 0 ? rate.resetMs : undefined;
}

/** A server-requested wait plus up to 20% (at most 1 s) more at random, so that many clients told the same
 * Retry-After (N processes sharing one token) do not all come back at the same instant. */
export function jitterServerDelay(ms: number, random: () => number = Math.random): number {
  return Math.round(ms + random() * Math.min(ms / 5, 1000));
}

/** The least a honoured 429 is charged against a call's rate-limit allowance, whatever its Retry-After. */
const RATE_LIMIT_MIN_CHARGE_MS = 1000;

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** No retry starts later than this many ms after the call's first attempt started. */
  budgetMs: number;
}

/** The retry state of one logical call: how many retries are left and until when. */
export class RetryState {
  readonly #policy: RetryPolicy;
  readonly #now: () => number;
  readonly #startedAt: number;
  #retries = 0;
  /** Time spent waiting out rate limits, which moves the deadline. */
  #extendedMs = 0;
  /** 429 waits charged against the rate-limit allowance (budgetMs). */
  #rateLimitedMs = 0;
  #rateLimits = 0;

  constructor(policy: RetryPolicy, now: () => number = () => Date.now()) {
    this.#policy = policy;
    this.#now = now;
    this.#startedAt = now();
  }

  /** Retries granted so far. */
  get retries(): number {
    return this.#retries;
  }

  /** When the budget ends (ms since the epoch of `now`). */
  get deadline(): number {
    return this.#startedAt + this.#policy.budgetMs + this.#extendedMs;
  }

  /**
   * Grants one more retry and says how long to wait before it, or returns undefined when the call must give
   * up: no retries left, budget spent, or the server asked for a wait longer than the budget has left (the
   * caller is better told at once). Without `requested`, a full-jitter backoff clipped to the budget.
   */
  next(requested?: number, random: () => number = Math.random): number | undefined {
    if (this.#retries >= this.#policy.maxRetries) return undefined;
    const left = this.deadline - this.#now();
    if (left <= 0) return undefined;
    let delay: number;
    if (requested !== undefined) {
      if (requested > left) return undefined;
      delay = requested;
    } else {
      delay = Math.min(backoffDelay(this.#retries, RETRY_BACKOFF, random), left);
    }
    this.#retries++;
    return delay;
  }

  /**
   * Grants a retry after a rate limit's wait (a 429's Retry-After or reset), or undefined when retries are
   * off (maxRetries 0), the wait is longer than the whole budget, or this call has already waited out a
   * budget's worth of 429s. A 429 says the service is well and asks for time, so honoured 429s do not use up
   * `maxRetries` (a burst of them may all land on one call: the rate limiter lets one request go alone after
   * a 429, and that call meets the next 429 first), and waiting them out does not use up the budget: the
   * deadline moves by the wait. Each 429 counts at least RATE_LIMIT_MIN_CHARGE_MS against its own allowance
   * of `budgetMs`, so a service answering 429 with no wait cannot hold a call forever.
   */
  rateLimited(wait: number): number | undefined {
    // The charge is at least the wait, so this also refuses a single wait longer than the whole budget.
    const charge = Math.max(wait, RATE_LIMIT_MIN_CHARGE_MS);
    if (this.#policy.maxRetries === 0 || this.#rateLimitedMs + charge > this.#policy.budgetMs) return undefined;
    this.#rateLimitedMs += charge;
    this.#rateLimits++;
    this.extend(wait);
    return wait;
  }

  /** 429s this call has waited out (not counted in `retries`). */
  get rateLimits(): number {
    return this.#rateLimits;
  }

  /** Moves the deadline by `ms` spent waiting for the client's rate limiter. */
  extend(ms: number): void {
    this.#extendedMs += ms;
  }
}
