// Retries, timeouts and cancellation under the emulator's fault injection; the connection circuit against
// a port nobody listens on; on each HTTP stack. A logical create must create exactly one record however often it is sent.
// Waits are checked on fake timers (the client's and the in-process emulator's clocks move together),
// never against the wall clock.
import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
  SiteOps,
  type RequestLogEvent,
} from "../../src/index.js";
import { startEmulator } from "../../emulator/index.js";
import { OWNER_TOKEN, runFakeClock, SEED, startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await env.control("DELETE", "faults");
    env.events.length = 0;
  });
  afterAll(async () => env.close());

  async function sitesNamed(name: string): Promise<number> {
    return (await env.so.sites.list({ per_page: 100 }).toArray()).filter((s) => s.name === name).length;
  }

  const attempts = (events: RequestLogEvent[], method: string, path: string) =>
    events.filter((e) => e.kind === "response" && e.method === method && e.path === path);

  /** Fake setTimeout and Date for the client and the in-process emulator alike; I/O stays real. */
  const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

  /** Lets real I/O happen (the event loop turns) until `test()` holds. */
  async function until<T>(test: () => T | undefined, turns = 10_000): Promise<T> {
    for (let i = 0; i < turns; i++) {
      const value = test();
      if (value) return value;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error("condition never held");
  }

  describe("retries", () => {
    it("retries a create through two 503s and creates one site", async () => {
      await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", status: 503, count: 2, retry_after: 0 }] });
      const site = await env.so.sites.create({ name: "Retried 503", url: "https://retried-503.acme.test" });
      expect(site.name).toBe("Retried 503");
      expect(attempts(env.events, "POST", "/api/v1/sites").map((e) => e.kind === "response" && e.status)).toEqual([503, 503, 201]);
      expect(await sitesNamed("Retried 503")).toBe(1);
    });

    it("retries after a connection reset and creates one site", async () => {
      await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", reset_connection: true, count: 1 }] });
      await env.so.sites.create({ name: "Retried reset", url: "https://retried-reset.acme.test" });
      const statuses = attempts(env.events, "POST", "/api/v1/sites").map((e) => e.kind === "response" && e.status);
      expect(statuses).toEqual([undefined, 201]);
      expect(await sitesNamed("Retried reset")).toBe(1);
    });

    it("waits for Retry-After (plus at most a fifth) on a 429 before sending again, and creates one site", async () => {
      await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", status: 429, count: 1, retry_after: 2 }] });
      fakeClock();
      const creating = env.so.sites.create({ name: "Retried 429", url: "https://retried-429.acme.test" });
      const retry = await until(() => env.events.find((e) => e.kind === "retry"));
      const delay = retry.kind === "retry" ? retry.delayMs : NaN;
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(2400);
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(attempts(env.events, "POST", "/api/v1/sites")).toHaveLength(1); // nothing sent before the wait is over
      await runFakeClock(creating);
      expect(attempts(env.events, "POST", "/api/v1/sites").map((e) => e.kind === "response" && e.status)).toEqual([429, 201]);
      vi.useRealTimers();
      expect(await sitesNamed("Retried 429")).toBe(1);
    });

    it("waits out a run of 429s longer than maxRetries on one call (they ask for time, not a retry)", async () => {
      // A 429 burst landing on one call: with maxRetries 1 the four 429s are all waited out, and one site is made.
      await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", status: 429, count: 4, retry_after: 1 }] });
      fakeClock();
      const creating = env.so.sites.create({ name: "429 burst", url: "https://burst-429.acme.test" }, { maxRetries: 1 });
      await runFakeClock(creating);
      vi.useRealTimers();
      expect(attempts(env.events, "POST", "/api/v1/sites").map((e) => e.kind === "response" && e.status)).toEqual([429, 429, 429, 429, 201]);
      expect(env.events.filter((e) => e.kind === "retry").map((e) => e.kind === "retry" && e.attempt)).toEqual([1, 2, 3, 4]);
      expect(await sitesNamed("429 burst")).toBe(1);
    });

    it("gives up on 429s once their waits add up to the retry budget, with the RateLimitError", async () => {
      await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", status: 429, retry_after: 2 }] });
      fakeClock();
      const calling = env.so.me({ retryBudgetMs: 5_000 }).catch((e: unknown) => e);
      const err = await runFakeClock(calling);
      vi.useRealTimers();
      expect(err).toBeInstanceOf(RateLimitError);
      // 2 s + up to 0.4 s of jitter each: two waits fit in 5 s, a third does not.
      expect(attempts(env.events, "GET", "/api/v1/me")).toHaveLength(3);
    });

    it("replays, not repeats, a create whose first attempt timed out after the service committed it", async () => {
      // The service creates the site, then its answer is held back longer than the client waits.
      await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", phase: "after", delay_ms: 1000, count: 1 }] });
      const site = await env.so.sites.create({ name: "Slow create", url: "https://slow.acme.test" }, { timeout: 200 });
      expect(attempts(env.events, "POST", "/api/v1/sites").map((e) => e.kind === "response" && e.status)).toEqual([undefined, 201]);
      expect((await env.so.sites.list({ per_page: 100 }).toArray()).filter((s) => s.name === "Slow create").map((s) => s.id)).toEqual([site.id]);
    });

    it("gives up after maxRetries with the last error", async () => {
      await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", status: 500 }] });
      const err = await env.so.me({ maxRetries: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InternalServerError);
      expect((err as InternalServerError).requestId).toBeTruthy();
      expect(attempts(env.events, "GET", "/api/v1/me")).toHaveLength(2);
    });

    it("gives up when the retry budget is spent, whatever maxRetries says", async () => {
      await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", status: 503, retry_after: 5 }] });
      fakeClock();
      const err = await runFakeClock(
        env.so.me({ maxRetries: 100, retryBudgetMs: 20_000 }).catch((e: unknown) => e),
        1000,
      );
      expect(err).toBeInstanceOf(InternalServerError);
      // Every wait is 5 s to 6 s: three or four fit in 20 s, and no retry starts after it.
      expect(attempts(env.events, "GET", "/api/v1/me").length).toBeGreaterThanOrEqual(4);
      expect(attempts(env.events, "GET", "/api/v1/me").length).toBeLessThanOrEqual(5);
    });

    it("without pacing, surfaces a real rate limit as RateLimitError once retries are spent", async () => {
      const limited = await startTestEmulator({ rateLimit: { limit: 2, windowSeconds: 60 } }, { transport });
      try {
        const so = limited.client({ maxRetries: 0, pacing: false });
        await so.me();
        await so.me();
        const err = await so.me().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RateLimitError);
        expect((err as RateLimitError).retryAfter).toBeGreaterThan(0);
      } finally {
        await limited.close();
      }
    });
  });

  describe("timeouts and cancellation", () => {
    it("times out a slow request with APIConnectionTimeoutError", async () => {
      await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", delay_ms: 2000 }] });
      const err = await env.so.me({ timeout: 200, maxRetries: 0 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionTimeoutError);
      expect((err as Error).message).toBe("Request timed out after 200 ms.");
      expect(attempts(env.events, "GET", "/api/v1/me")).toHaveLength(1);
    });

    it("aborts on the caller's signal without retrying", async () => {
      await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", delay_ms: 2000 }] });
      const controller = new AbortController();
      const calling = env.so.me({ signal: controller.signal }).catch((e: unknown) => e);
      const hits = async () => ((await env.control("GET", "faults")) as { rules: { hits: number }[] }).rules[0]!.hits;
      while ((await hits()) === 0); // until the service holds the request
      controller.abort();
      const err = await calling;
      expect(err).toBeInstanceOf(APIUserAbortError);
      expect(attempts(env.events, "GET", "/api/v1/me")).toHaveLength(1);
      expect(env.events.some((e) => e.kind === "retry")).toBe(false);
    });

    it("does not start a request whose signal is already aborted", async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(env.so.sites.list({}, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    });
  });

  // The circuit's long budget is for a service that answered this client and then went away (a restart); one that
  // never answered fails after one short retry (base-url-failures.test.ts).
  describe("a service that answered, then accepts no connection", () => {
    async function freePort(): Promise<number> {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as { port: number };
      await new Promise((resolve) => server.close(resolve));
      return port;
    }

    /** A client of an emulator on `port` that answered it once and then stopped. */
    async function contactedClient(port: number, events: RequestLogEvent[]): Promise<SiteOps> {
      const emulator = await startEmulator({ port, seed: SEED, stepSeconds: 0 });
      const so = new SiteOps({ baseUrl: `http://127.0.0.1:${port}`, apiToken: OWNER_TOKEN, transport, logger: (e) => events.push(e) });
      await so.me();
      await emulator.close();
      events.length = 0;
      return so;
    }

    it("16 concurrent calls make one probe per backoff step, fail together with one message, and later calls fail at once", async () => {
      vi.spyOn(Math, "random").mockReturnValue(0.5); // backoffs of 250 ms, 500 ms ... 15 s: 45.75 s in all
      const events: RequestLogEvent[] = [];
      const so = await contactedClient(await freePort(), events);
      fakeClock();
      try {
        const errors = await runFakeClock(Promise.all(Array.from({ length: 16 }, () => so.me().catch((e: unknown) => e))), 250);
        expect(errors.every((e) => e instanceof APIConnectionError)).toBe(true);
        const messages = new Set(errors.map((e) => (e as Error).message));
        expect(messages.size).toBe(1);
        expect([...messages][0]).toMatch(
          /^Connection error \(ECONNREFUSED\): .* accepted no connection in 9 attempts over 45\.\d s; requests to it fail at once for the next 30 s\.$/,
        );
        // At most the 16 first attempts (fewer when the first refusal came back before the others went), then
        // one probe per backoff step for all of them: not 16 x 9 attempts.
        const sent = events.filter((e) => e.kind === "response").length;
        expect(sent).toBeGreaterThanOrEqual(1 + 8);
        expect(sent).toBeLessThanOrEqual(16 + 8);
        const before = events.length;
        await expect(so.me()).rejects.toThrow(/fail at once/);
        expect(events).toHaveLength(before); // nothing sent
      } finally {
        await so.close();
      }
    });

    it("calls waiting on the circuit go through once the service is back", async () => {
      vi.spyOn(Math, "random").mockReturnValue(0.5);
      const port = await freePort();
      const events: RequestLogEvent[] = [];
      const so = await contactedClient(port, events);
      fakeClock();
      const calls = Promise.all(Array.from({ length: 8 }, () => so.me()));
      let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
      try {
        const refused = () => events.filter((e) => e.kind === "response" && e.status === undefined).length;
        await until(() => refused() >= 1); // the first round failed
        const firstRound = refused();
        await vi.advanceTimersByTimeAsync(250);
        await until(() => refused() > firstRound); // and the first probe
        emulator = await startEmulator({ port, seed: SEED, stepSeconds: 0 });
        const users = await runFakeClock(calls, 250);
        expect(users.map((u) => u.email)).toEqual(Array(8).fill("owner@acme.test"));
        expect(refused()).toBeLessThanOrEqual(8 + 2); // the first round and a probe or two, no more
      } finally {
        await so.close();
        await emulator?.close();
      }
    });
  });
});
