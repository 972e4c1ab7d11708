// The client's rate limiter on its own (src/internal/rate-limiter.ts): pacing by RateLimit-* headers, the lone
// request after a cold start or a reset, the pause after a 429; on a fake clock, no server.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimiter } from "../../src/internal/rate-limiter.js";

describe("RateLimiter", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const headers = (remaining: number, reset: number, limit = 100) => ({
    "ratelimit-limit": String(limit),
    "ratelimit-remaining": String(remaining),
    "ratelimit-reset": String(reset),
  });

  /** Runs `count` acquires together; resolves with each one's start, in ms from now, in order. */
  async function starts(limiter: RateLimiter, count: number, advance = 120_000): Promise<number[]> {
    const out: number[] = [];
    const base = Date.now();
    const all = Promise.all(Array.from({ length: count }, async () => out.push((await limiter.acquire(undefined, 120_000), Date.now() - base))));
    await vi.advanceTimersByTimeAsync(advance);
    await all;
    return out.sort((a, b) => a - b).map(Math.round);
  }

  it("while nothing is known lets one request go first; after an answer without RateLimit headers, all go", async () => {
    const limiter = new RateLimiter(Date.now, () => 0);
    let sent = 0;
    const all = Promise.all(Array.from({ length: 5 }, () => limiter.acquire(undefined, 60_000).then(() => sent++)));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(1);
    limiter.failed(); // no answer: the next one goes
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(2);
    limiter.observe(200, {});
    await vi.advanceTimersByTimeAsync(0);
    await all;
    expect(await starts(limiter, 20, 0)).toEqual(Array(20).fill(0));
  });

  it("a client that starts mid-window spreads what is left over the time left", async () => {
    const limiter = new RateLimiter(Date.now, () => 0);
    limiter.observe(200, headers(50, 30)); // the window's length is not known: taken as 30 s
    const times = await starts(limiter, 3);
    expect(times.map((ms) => Math.round(ms / 100) * 100)).toEqual([0, 600, 1200]); // 50 over 30 s
  });

  it("spreads the last tenth evenly over the time left", async () => {
    const limiter = new RateLimiter(Date.now, () => 0);
    limiter.observe(200, headers(4, 10)); // 4 left of 100, 10 s to go
    expect(await starts(limiter, 4)).toEqual([0, 2500, 5000, 7500]);
  });

  it("once a window's length is known, keeps an even pace with a burst of a tenth on top", async () => {
    const limiter = new RateLimiter(Date.now, () => 0);
    limiter.observe(200, headers(99, 60)); // the first request of a window: 100 per 60 s
    const times = await starts(limiter, 12);
    expect(times.slice(0, 9)).toEqual(Array(9).fill(0)); // down to 90 left at 0 s: the pace line less the burst
    expect(times.slice(9).map((ms) => Math.round(ms / 100) * 100)).toEqual([700, 1300, 2000]); // the 90 left over 60 s
  });

  it("holds requests until the reset when nothing is left, unless that is longer than allowed", async () => {
    const limiter = new RateLimiter(Date.now, () => 0);
    limiter.observe(200, headers(0, 30));
    let sent = false;
    const waiting = limiter.acquire(undefined, 60_000).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(sent).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    limiter.observe(200, headers(0, 30));
    expect(await limiter.acquire(undefined, 10_000)).toBe(0); // 30 s > 10 s: sent, the server decides
  });

  it("keeps the lowest count of a window (responses out of order, other processes) and takes a new window's", async () => {
    const limiter = new RateLimiter(Date.now, () => 0);
    limiter.observe(200, headers(40, 30));
    limiter.observe(200, headers(0, 30)); // another process used the rest
    limiter.observe(200, headers(35, 30)); // an older response arriving late
    let sent = false;
    void limiter.acquire(undefined, 60_000).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(sent).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toBe(true);
    limiter.observe(200, headers(95, 60)); // the next window, 100 per 60 s, already used a little by others
    const times = await starts(limiter, 6);
    expect(times.map((ms) => Math.round(ms / 100) * 100)).toEqual([0, 0, 0, 0, 0, 700]); // the burst down to the pace, then the pace
  });

  it("after a window ends, one request goes first again and its answer sets the pace", async () => {
    const limiter = new RateLimiter(Date.now, () => 0);
    limiter.observe(200, headers(0, 10));
    await vi.advanceTimersByTimeAsync(10_000);
    let sent = 0;
    const all = Promise.all(Array.from({ length: 3 }, () => limiter.acquire(undefined, 60_000).then(() => sent++)));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(1);
    limiter.observe(200, headers(99, 10));
    await vi.advanceTimersByTimeAsync(0);
    await all;
    expect(sent).toBe(3);
  });

  it("pauses every request after a 429 for its Retry-After, plus jitter", async () => {
    const limiter = new RateLimiter(Date.now, () => 0.5);
    limiter.observe(429, { "retry-after": "5" });
    let sent = false;
    void limiter.acquire(undefined, 60_000).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sent).toBe(false);
    await vi.advanceTimersByTimeAsync(500); // + half of the 1 s spread
    expect(sent).toBe(true);
  });

  it("after a 429 the request that has waited longest goes alone first, not the one that met the 429", async () => {
    // The emulator's soak found a burst of 429s landing on one call: it woke first after each pause, went
    // alone, met the next 429, and so made every attempt of the burst (each exposed to other faults).
    const limiter = new RateLimiter(Date.now, () => 0.5); // a pause of 1 s ends 1.1 s after it began
    limiter.observe(200, {}); // a service without RateLimit headers
    limiter.observe(429, { "retry-after": "1" });
    const order: string[] = [];
    const older = limiter.acquire(undefined, 60_000).then(() => order.push("waiting since the 429"));
    await vi.advanceTimersByTimeAsync(1_000); // the pause is over; the older request wakes at 1.1 s
    const metIt = limiter.acquire(undefined, 60_000).then(() => order.push("met the 429"));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([]); // the newcomer does not take the probe from the older request
    await vi.advanceTimersByTimeAsync(200);
    expect(order).toEqual(["waiting since the 429"]);
    limiter.observe(200, {});
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all([older, metIt]);
    expect(order).toEqual(["waiting since the 429", "met the 429"]);
  });

  it("hands the probe to the next oldest when the oldest gives up waiting", async () => {
    const limiter = new RateLimiter(Date.now, () => 0.5); // a pause of 1 s ends 1.1 s after it began
    limiter.observe(429, { "retry-after": "1" });
    const controller = new AbortController();
    const oldest = limiter.acquire(controller.signal, 60_000).catch(() => "aborted");
    await vi.advanceTimersByTimeAsync(1_000);
    let sent = false;
    const next = limiter.acquire(undefined, 60_000).then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    await expect(oldest).resolves.toBe("aborted");
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(true);
    await next;
  });
});
