// Retries, timeouts and cancellation under the emulator's fault injection. A logical create must create
// exactly one record however often it is sent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError, InternalServerError, RateLimitError } from "../../src/index.js";
import { startTestEmulator, type TestEmulator } from "./helpers.js";

let env: TestEmulator;

beforeAll(async () => {
  env = await startTestEmulator();
});
afterEach(async () => {
  await env.control("DELETE", "faults");
  env.events.length = 0;
});
afterAll(async () => env.close());

async function sitesNamed(name: string): Promise<number> {
  return (await env.so.sites.list({ per_page: 100 }).toArray()).filter((s) => s.name === name).length;
}

const attempts = (method: string, path: string) =>
  env.events.filter((e) => e.kind === "response" && e.method === method && e.path === path);

describe("retries", () => {
  it("retries a create through two 503s and creates one site", async () => {
    await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", status: 503, count: 2, retry_after: 0 }] });
    const site = await env.so.sites.create({ name: "Retried 503", url: "https://retried-503.acme.test" });
    expect(site.name).toBe("Retried 503");
    expect(attempts("POST", "/api/v1/sites").map((e) => e.kind === "response" && e.status)).toEqual([503, 503, 201]);
    expect(await sitesNamed("Retried 503")).toBe(1);
  });

  it("retries after a connection reset and creates one site", async () => {
    await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", reset_connection: true, count: 1 }] });
    await env.so.sites.create({ name: "Retried reset", url: "https://retried-reset.acme.test" });
    const statuses = attempts("POST", "/api/v1/sites").map((e) => e.kind === "response" && e.status);
    expect(statuses).toEqual([undefined, 201]);
    expect(await sitesNamed("Retried reset")).toBe(1);
  });

  it("waits for Retry-After on a 429 and creates one site", async () => {
    await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", status: 429, count: 1, retry_after: 1 }] });
    const started = Date.now();
    await env.so.sites.create({ name: "Retried 429", url: "https://retried-429.acme.test" });
    const retry = env.events.find((e) => e.kind === "retry");
    expect(retry?.kind === "retry" && retry.delayMs).toBe(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await sitesNamed("Retried 429")).toBe(1);
  });

  it("replays a create whose first attempt timed out while the server was still working", async () => {
    await env.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites", delay_ms: 2500, count: 1 }] });
    await env.so.sites.create({ name: "Slow create", url: "https://slow.acme.test" }, { timeout: 1000 });
    await new Promise((r) => setTimeout(r, 2500)); // let the delayed first attempt finish on the server
    expect(await sitesNamed("Slow create")).toBe(1);
  });

  it("gives up after maxRetries with the last error", async () => {
    await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", status: 500 }] });
    const err = await env.so.me({ maxRetries: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).requestId).toBeTruthy();
    expect(attempts("GET", "/api/v1/me")).toHaveLength(2);
  });

  it("surfaces a real rate limit as RateLimitError once retries are spent", async () => {
    const limited = await startTestEmulator({ rateLimit: { limit: 2, windowSeconds: 60 } });
    try {
      const so = limited.client({ maxRetries: 0 });
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
    const started = Date.now();
    const err = await env.so.me({ timeout: 200, maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(1900);
  });

  it("aborts on the caller's signal without retrying", async () => {
    await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", delay_ms: 2000 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await env.so.me({ signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(attempts("GET", "/api/v1/me")).toHaveLength(1);
    expect(env.events.some((e) => e.kind === "retry")).toBe(false);
  });

  it("does not start a request whose signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(env.so.sites.list({}, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
