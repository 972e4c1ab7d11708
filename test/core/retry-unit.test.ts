// The retry primitive and the connection circuit on their own, with injected randomness and clocks (no server,
// no wall-clock time). The rate limiter has its own file (rate-limiter-unit.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { APIConnectionError, APIUserAbortError } from "../../src/index.js";
import { CIRCUIT_OPEN_MS, ConnectionCircuit } from "../../src/internal/circuit.js";
import {
  backoffDelay,
  jitterServerDelay,
  MAX_RETRY_DELAY_MS,
  parseRateLimit,
  parseRetryAfter,
  RETRY_BACKOFF,
  RETRYABLE_STATUSES,
  RetryState,
  serverDelay,
} from "../../src/internal/retry.js";
import { sleep } from "../../src/internal/sleep.js";

describe("backoffDelay", () => {
  it("doubles from 500 ms up to 30 s; full jitter draws from [0, d)", () => {
    const top = () => 0.999999;
    expect([0, 1, 2, 3, 4, 5, 6, 7, 60].map((n) => backoffDelay(n, RETRY_BACKOFF, top))).toEqual([499, 999, 1999, 3999, 7999, 15999, 29999, 29999, 29999]);
    expect(backoffDelay(3, RETRY_BACKOFF, () => 0)).toBe(0);
    expect(backoffDelay(3, RETRY_BACKOFF, () => 0.5)).toBe(2000);
    for (let i = 0; i < 100; i++) expect(backoffDelay(20)).toBeLessThan(MAX_RETRY_DELAY_MS);
  });

  it("without jitter is the exact schedule (the waiters' polls)", () => {
    const polls = { initialMs: 100, maxMs: 2000, jitter: "none" as const };
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, polls))).toEqual([100, 200, 400, 800, 1600, 2000, 2000]);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds", () => {
    expect(parseRetryAfter({ "retry-after": "3" })).toBe(3000);
    expect(parseRetryAfter({ "retry-after": "0" })).toBe(0);
  });
  it("reads an HTTP date", () => {
    const now = Date.parse("2026-11-22T00:00:00Z");
    expect(parseRetryAfter({ "retry-after": "Sun, 22 Nov 2026 00:00:05 GMT" }, now)).toBe(5000);
  });
  it("prefers retry-after-ms", () => {
    expect(parseRetryAfter({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
  });
  it("ignores absent and garbage values", () => {
    expect(parseRetryAfter({})).toBeUndefined();
    expect(parseRetryAfter({ "retry-after": "soon" })).toBeUndefined();
    expect(parseRetryAfter({ "retry-after": "-1" })).toBeUndefined();
  });
});

describe("parseRateLimit and serverDelay", () => {
  const now = 1_800_000_000_000;
  it("reads RateLimit-* (reset in seconds), X-RateLimit-* (reset as a Unix time) and the structured field", () => {
    expect(parseRateLimit({ "ratelimit-limit": "600", "ratelimit-remaining": "0", "ratelimit-reset": "12" }, now)).toEqual({
      limit: 600,
      remaining: 0,
      resetMs: 12_000,
    });
    expect(parseRateLimit({ "x-ratelimit-remaining": "5", "x-ratelimit-reset": String(now / 1000 + 30) }, now)).toEqual({
      limit: undefined,
      remaining: 5,
      resetMs: 30_000,
    });
    expect(parseRateLimit({ ratelimit: '"default";r=0;t=7' }, now)).toMatchObject({ remaining: 0, resetMs: 7000 });
    expect(parseRateLimit({ ratelimit: "limit=100, remaining=3, reset=9" }, now)).toEqual({ limit: 100, remaining: 3, resetMs: 9000 });
    expect(parseRateLimit({ "ratelimit-remaining": "many" }, now)).toEqual({ limit: undefined, remaining: undefined, resetMs: undefined });
  });

  it("waits for Retry-After, else for the reset when nothing is left, else says nothing", () => {
    expect(serverDelay({ "retry-after": "2", "ratelimit-remaining": "0", "ratelimit-reset": "9" }, now)).toBe(2000);
    expect(serverDelay({ "ratelimit-remaining": "0", "ratelimit-reset": "9" }, now)).toBe(9000);
    expect(serverDelay({ "ratelimit-remaining": "4", "ratelimit-reset": "9" }, now)).toBeUndefined();
  });

  it("adds up to 20% (at most 1 s) to a server's wait", () => {
    expect(jitterServerDelay(1, () => 0.99)).toBe(1);
    expect(jitterServerDelay(2000, () => 0.5)).toBe(2200);
    expect(jitterServerDelay(60_000, () => 1)).toBe(61_000);
  });
});

describe("RetryState", () => {
  it("grants maxRetries retries, each a backoff clipped to the budget", () => {
    let t = 0;
    const state = new RetryState({ maxRetries: 3, budgetMs: 10_000 }, () => t);
    expect(state.next(undefined, () => 0.5)).toBe(250);
    t = 9_000;
    expect(state.next(undefined, () => 0.999)).toBe(999); // 1000 ms would end past the budget: clipped
    expect(state.next(undefined, () => 0.5)).toBe(1000);
    expect(state.next(undefined, () => 0.5)).toBeUndefined(); // 3 retries spent
    expect(state.retries).toBe(3);
  });

  it("gives up at once when the budget is spent or the server asks for more than is left", () => {
    let t = 0;
    const state = new RetryState({ maxRetries: 10, budgetMs: 5_000 }, () => t);
    expect(state.next(4_000)).toBe(4_000);
    t = 1_000;
    expect(state.next(4_001)).toBeUndefined();
    t = 5_000;
    expect(state.next()).toBeUndefined();
    expect(state.retries).toBe(1);
  });

  it("waits out 429s without spending maxRetries, up to a budget's worth of waits (each charged at least 1 s)", () => {
    const t = 0;
    const state = new RetryState({ maxRetries: 2, budgetMs: 10_000 }, () => t);
    // A burst of 429s landing on one call: more than maxRetries of them, all honoured.
    for (let i = 0; i < 5; i++) expect(state.rateLimited(1_000)).toBe(1_000);
    expect(state.retries).toBe(0);
    expect(state.rateLimits).toBe(5);
    // The ordinary retries are still there.
    expect(state.next(100)).toBe(100);
    expect(state.next(100)).toBe(100);
    expect(state.next(100)).toBeUndefined();
    // Zero-second Retry-After is charged 1 s: the allowance (10 s) holds 5 more, then the call gives up.
    for (let i = 0; i < 5; i++) expect(state.rateLimited(0)).toBe(0);
    expect(state.rateLimited(0)).toBeUndefined();
    expect(state.rateLimits).toBe(10);
  });

  it("does not wait out a 429 when retries are off or the wait exceeds the budget", () => {
    expect(new RetryState({ maxRetries: 0, budgetMs: 10_000 }).rateLimited(1)).toBeUndefined();
    expect(new RetryState({ maxRetries: 3, budgetMs: 10_000 }).rateLimited(10_001)).toBeUndefined();
  });
});

describe("sleep", () => {
  it("rejects with APIUserAbortError when the signal aborts, and ends early when woken", async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, { signal: controller.signal, message: "Wait was aborted." });
    controller.abort(new Error("stop"));
    const err = await slept.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect((err as Error).message).toBe("Wait was aborted.");
    await expect(sleep(Infinity, { wake: Promise.resolve() })).resolves.toBeUndefined();
  });
});

describe("ConnectionCircuit", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const refused = new APIConnectionError("Connection error (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9");
  const unreachable = () => refused;

  it("counts concurrent first failures once, lets one probe at a time, and opens when the policy is spent", async () => {
    const circuit = new ConnectionCircuit("http://127.0.0.1:9", { maxRetries: 2, budgetMs: 60_000 });
    const tickets = await Promise.all(Array.from({ length: 16 }, () => circuit.admit(undefined, Infinity, unreachable)));
    for (const ticket of tickets) circuit.report(ticket, "connect_failed", refused);
    expect(circuit.openError()).toBeUndefined(); // 16 concurrent failures are one round

    let probes = 0;
    const waiting = Array.from({ length: 16 }, async () => {
      for (;;) {
        const ticket = await circuit.admit(undefined, Infinity, unreachable);
        expect(ticket.probe).toBe(true);
        probes++;
        circuit.report(ticket, "connect_failed", refused);
      }
    });
    const settled = Promise.allSettled(waiting);
    await vi.advanceTimersByTimeAsync(1_500); // two backoffs: at most 500 ms + 1 s
    const results = await settled;
    expect(probes).toBe(2); // rounds 2 and 3; then 3 > maxRetries
    const messages = new Set(results.map((r) => (r.status === "rejected" ? (r.reason as Error).message : "resolved")));
    expect(messages.size).toBe(1); // all 16 fail together with one message
    expect([...messages][0]).toMatch(
      /^Connection error \(ECONNREFUSED\): connect ECONNREFUSED 127\.0\.0\.1:9\. http:\/\/127\.0\.0\.1:9 accepted no connection in 3 attempts over [\d.]+ s; requests to it fail at once for the next 30 s\.$/,
    );

    // Open: fail at once; after CIRCUIT_OPEN_MS one probe, and an answer closes it.
    await expect(circuit.admit(undefined, Infinity, unreachable)).rejects.toBeInstanceOf(APIConnectionError);
    await vi.advanceTimersByTimeAsync(CIRCUIT_OPEN_MS);
    const probe = await circuit.admit(undefined, Infinity, unreachable);
    expect(probe.probe).toBe(true);
    circuit.report(probe, "answered");
    expect((await circuit.admit(undefined, Infinity, unreachable)).probe).toBe(false);
  });

  it("a waiter gives up at its own deadline, an aborted one with APIUserAbortError; the next probe waits for the backoff", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5); // first backoff: 250 ms
    const circuit = new ConnectionCircuit("http://127.0.0.1:9", { maxRetries: 8, budgetMs: 600_000 });
    circuit.report(await circuit.admit(undefined, Infinity, unreachable), "connect_failed", refused);
    expect(circuit.waitMs).toBe(250);
    const late = circuit.admit(undefined, Date.now() + 10, unreachable).catch((e: unknown) => e);
    const controller = new AbortController();
    const aborted = circuit.admit(controller.signal, Infinity, unreachable).catch((e: unknown) => e);
    const next = circuit.admit(undefined, Infinity, unreachable);
    await vi.advanceTimersByTimeAsync(10);
    expect(await late).toBe(refused);
    controller.abort();
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(240);
    expect((await next).probe).toBe(true);
    vi.restoreAllMocks();
  });
});

describe("RETRYABLE_STATUSES", () => {
  it("are exactly the statuses that can succeed when repeated", () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([408, 429, 500, 502, 503, 504]);
  });
});
