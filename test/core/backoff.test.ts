import { describe, expect, it } from "vitest";
import { backoffDelay, MAX_RETRY_DELAY_MS, parseRetryAfter, RETRYABLE_STATUSES, retryDelay } from "../../src/internal/backoff.js";

describe("backoffDelay", () => {
  it("doubles from 500 ms and caps at 8 s", () => {
    const noJitter = () => 0;
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelay(n, noJitter))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("applies up to 25% jitter downwards", () => {
    expect(backoffDelay(0, () => 1)).toBe(375);
    expect(backoffDelay(2, () => 0.5)).toBe(1750);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3);
      expect(d).toBeGreaterThanOrEqual(3000);
      expect(d).toBeLessThanOrEqual(4000);
    }
    expect(backoffDelay(20)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
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

describe("retryDelay", () => {
  it("waits what the server asks, else backs off, and gives up on absurdly long waits", () => {
    expect(retryDelay({ "retry-after": "2" }, 0)).toBe(2000);
    const backoff = retryDelay({}, 1)!;
    expect(backoff).toBeGreaterThanOrEqual(750);
    expect(backoff).toBeLessThanOrEqual(1000);
    expect(retryDelay({ "retry-after": "86400" }, 0)).toBeUndefined();
  });
});

describe("RETRYABLE_STATUSES", () => {
  it("are exactly the statuses that can succeed when repeated", () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([408, 429, 500, 502, 503, 504]);
  });
});
