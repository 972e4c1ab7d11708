// Pacing against the emulator started with a rate limit (fixed windows per credential, RateLimit-* headers
// on every answer, 429 + Retry-After past the limit). Time is faked for the client and the in-process
// emulator alike, so windows pass without waiting for them. On each HTTP stack.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type RequestLogEvent, type SiteOps } from "../../src/index.js";
import { hookedProxy, runFakeClock, startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;

  beforeAll(async () => {
    env = await startTestEmulator({ rateLimit: { limit: 10, windowSeconds: 10 } }, { transport });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => env.close());

  interface Logged {
    at: number;
    event: RequestLogEvent;
  }

  /** A client with its own limiter (as a separate process would have), logging with the fake clock's time. */
  function clientOf(token: TestEmulator, log: Logged[]): SiteOps {
    return token.client({ logger: (event) => log.push({ at: Date.now(), event }) });
  }

  const statuses = (log: Logged[]) => log.flatMap(({ event }) => (event.kind === "response" ? [event.status] : []));

  describe("pacing by RateLimit headers", () => {
    it("one client with 25 requests for a limit of 10 per 10 s: none refused, the rest wait for the resets", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      const log: Logged[] = [];
      const so = clientOf(env, log);
      const started = Date.now();
      const results = await runFakeClock(Promise.all(Array.from({ length: 25 }, () => so.me())));
      expect(results).toHaveLength(25);
      expect(statuses(log)).toEqual(Array(25).fill(200)); // no 429, no retry spent
      expect(log.some(({ event }) => event.kind === "rate_limit")).toBe(true);
      // 25 requests at 10 per window need three windows: the last ones went out after two resets.
      expect(Math.max(...log.map(({ at }) => at)) - started).toBeGreaterThanOrEqual(20_000);
    });

    it("four clients sharing one token all finish, and after a 429 a client sends nothing until its Retry-After", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      await vi.advanceTimersByTimeAsync(20_000); // a fresh window for the token
      // In order: each request a client sends, and each 429 it receives.
      const seen: { client: number; kind: "send" | "429"; at: number }[] = [];
      const proxies = await Promise.all([0, 1, 2, 3].map((client) => hookedProxy(env.url, () => void seen.push({ client, kind: "send", at: Date.now() }))));
      const clients = proxies.map((proxy, client) =>
        env.client({
          baseUrl: proxy.url,
          logger: (e) => {
            if (e.kind === "response" && e.status === 429) seen.push({ client, kind: "429", at: Date.now() });
          },
        }),
      );
      try {
        const results = await runFakeClock(Promise.all(clients.flatMap((so) => Array.from({ length: 10 }, () => so.me()))));
        expect(results).toHaveLength(40);
        seen.forEach((refusal, i) => {
          if (refusal.kind !== "429") return;
          const next = seen.slice(i + 1).find((e) => e.client === refusal.client && e.kind === "send");
          if (next) expect(next.at - refusal.at).toBeGreaterThanOrEqual(1000); // the emulator's Retry-After is 1 s or more
        });
        // Refusals happen (each client learns of the others' use one answer late) but stay well below one per request.
        expect(seen.filter((e) => e.kind === "429").length).toBeLessThan(20);
      } finally {
        await Promise.all(proxies.map((p) => p.close()));
      }
    });
  });
});
