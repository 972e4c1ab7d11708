// A call's whole time (`callTimeoutMs`, issue 47 item 6), against the emulator's 429 fault on each HTTP stack: ten
// concurrent calls of one client in a 429 storm that never lets up each end when their time is up, the waits
// behind the client's rate limiter included (before, with a 5 s retry budget they took turns for 35.7 s); the
// per-call option wins over the client's, the client's over SITEOPS_CALL_TIMEOUT_MS; none by default. The clock is
// faked (the client's and the in-process emulator's together), so the figures are exact, not measured.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CallTimeoutError, DEFAULT_CALL_TIMEOUT_MS, RateLimitError, SiteOps } from "../../src/index.js";
import { OWNER_TOKEN, runFakeClock, startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
  });
  afterEach(async () => {
    vi.useRealTimers();
    delete process.env.SITEOPS_CALL_TIMEOUT_MS;
    await env.control("DELETE", "faults");
  });
  afterAll(async () => env.close());

  const storm = () => env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", status: 429, retry_after: 1 }] });
  const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

  /** Ten creates at once; for each, when (ms after the start, on the fake clock) and how it ended. */
  async function tenCreates(client: SiteOps, options: { callTimeoutMs?: number } = {}) {
    const started = Date.now();
    const calls = Array.from({ length: 10 }, (_, i) =>
      client.sites.create({ name: `Storm ${i}`, url: `https://storm-${i}.acme.test` }, options).then(
        () => ({ ms: Date.now() - started, error: undefined as unknown }),
        (error: unknown) => ({ ms: Date.now() - started, error }),
      ),
    );
    return runFakeClock(Promise.all(calls));
  }

  it("ends every one of ten concurrent calls in a 429 storm when its time is up, its waits for the rate limiter included", async () => {
    await storm();
    fakeClock();
    // The retry budget (60 s by default) does not end them: only the bound on their whole time.
    const client = env.client({ callTimeoutMs: 5_000 });
    const ended = await tenCreates(client);
    for (const { ms, error } of ended) {
      expect(error).toBeInstanceOf(CallTimeoutError);
      // The fake clock moves in 100 ms steps: the call ends at the first step at or after its deadline.
      expect(ms).toBeGreaterThanOrEqual(5_000);
      expect(ms).toBeLessThanOrEqual(5_100);
      const e = error as CallTimeoutError;
      expect(e.code).toBe("CALL_TIMEOUT");
      expect(e.timeoutMs).toBe(5_000);
      expect(e.message).toMatch(/^POST \/api\/v1\/sites: no success within 5 s \(callTimeoutMs\)/);
      // Each either met a 429 itself or never got past the rate limiter that the others' 429s paused.
      expect(e.lastFailure === "429 response" || e.waitingFor === "its turn behind the client's rate limit").toBe(true);
    }
    expect(ended.some(({ error }) => (error as CallTimeoutError).lastFailure === "429 response")).toBe(true);
  });

  it("without one, the same storm holds the calls several retry budgets: the rate limiter's waits do not count", async () => {
    expect(DEFAULT_CALL_TIMEOUT_MS).toBe(0);
    await storm();
    fakeClock();
    const ended = await tenCreates(env.client({ retryBudgetMs: 5_000 }));
    for (const { error } of ended) expect(error).toBeInstanceOf(RateLimitError);
    expect(Math.max(...ended.map((e) => e.ms))).toBeGreaterThan(10_000);
  });

  it("takes the per-call option over the client's, and the client's over SITEOPS_CALL_TIMEOUT_MS", async () => {
    await storm();
    process.env.SITEOPS_CALL_TIMEOUT_MS = "3000";
    const fromEnv = new SiteOps({ baseUrl: env.url, apiToken: OWNER_TOKEN, transport, retryBudgetMs: 60_000 });
    const fromClient = env.client({ retryBudgetMs: 60_000, callTimeoutMs: 4_000 });
    expect(fromEnv.callTimeoutMs).toBe(3_000);
    expect(fromClient.callTimeoutMs).toBe(4_000);
    try {
      fakeClock();
      const one = async (client: SiteOps, options: { callTimeoutMs?: number } = {}) => {
        const [ended] = await tenCreates(client, options).then((all) => all.slice(0, 1));
        return ended!;
      };
      expect((await one(fromEnv)).error).toMatchObject({ timeoutMs: 3_000 });
      expect((await one(fromClient)).error).toMatchObject({ timeoutMs: 4_000 });
      expect((await one(fromClient, { callTimeoutMs: 2_000 })).error).toMatchObject({ timeoutMs: 2_000 });
    } finally {
      await fromEnv.close();
    }
  });

  it("leaves a call that succeeds in time alone, and a caller's own abort an abort", async () => {
    const client = env.client({ callTimeoutMs: 60_000 });
    const site = await client.sites.create({ name: "In time", url: "https://in-time.acme.test" });
    expect(site.name).toBe("In time");
    const controller = new AbortController();
    controller.abort();
    await expect(client.sites.get(site.id, { signal: controller.signal })).rejects.toMatchObject({ code: "ABORTED" });
  });
});
