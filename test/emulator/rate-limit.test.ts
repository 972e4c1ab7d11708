// Rate limiting (when enabled): RateLimit-* headers on every API response, 429 with Retry-After
// past the limit, one window per credential, reset on the emulator clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: { limit: 3, windowSeconds: 60 } });
});
afterAll(async () => {
  await emu.close();
});

describe("rate limiting", () => {
  it("counts down, then answers 429 with Retry-After until the window resets", async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(emu, "GET", "/me", { token: TOKENS.owner });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      remaining.push(res.headers.get("ratelimit-remaining")!);
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const limited = await api(emu, "GET", "/sites", { token: TOKENS.owner });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({ error: `Rate limit exceeded. Try again in ${retryAfter} seconds.` });
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");

    // Writes are refused too, and nothing is written.
    const write = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "No", url: "https://rl.example.com" } });
    expect(write.status).toBe(429);
    expect(emu.context.db.prepare("SELECT COUNT(*) AS n FROM sites").get()).toEqual({ n: 0 });

    // Another credential has its own window.
    expect((await api(emu, "GET", "/me", { token: TOKENS.admin })).status).toBe(200);

    await advanceClock(emu, retryAfter);
    const after = await api(emu, "GET", "/me", { token: TOKENS.owner });
    expect(after.status).toBe(200);
    expect(after.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("limits unauthenticated callers by address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api(emu, "POST", "/jwt", { body: { email: "x@y.z", password: "nope" } })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("leaves the control API alone", async () => {
    for (let i = 0; i < 5; i++) expect((await api(emu, "GET", "/__emulator/clock")).status).toBe(200);
  });
});
