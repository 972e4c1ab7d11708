// The control API (/__emulator): reset, clock, faults, forced health checks, deliveries listing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
});

async function createSite(name: string): Promise<string> {
  const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name, url: `https://${name}.example.com` } });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe("clock", () => {
  it("reads and advances the emulator clock", async () => {
    const before = await api(emu, "GET", "/__emulator/clock");
    const advanced = await api(emu, "POST", "/__emulator/clock", { body: { advance_seconds: 3600 } });
    expect(advanced.status).toBe(200);
    expect(advanced.body.offset_seconds).toBe(before.body.offset_seconds + 3600);
    expect(Date.parse(advanced.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(3600_000);
  });

  it("refuses a negative or non-numeric advance with a field error", async () => {
    for (const advance_seconds of [-1, "10", null]) {
      const res = await api(emu, "POST", "/__emulator/clock", { body: { advance_seconds } });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["advance_seconds"]);
    }
  });
});

describe("faults", () => {
  it("answers matching requests with the injected status, count times, then normally", async () => {
    await api(emu, "POST", "/__emulator/faults", { body: { rules: [{ method: "GET", path: "/api/v1/sites", status: 503, count: 2 }] } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await api(emu, "GET", "/sites", { token: TOKENS.owner })).status);
    expect(statuses).toEqual([503, 503, 200]);
    const listed = await api(emu, "GET", "/__emulator/faults");
    expect(listed.body.rules[0]).toMatchObject({ path: "/api/v1/sites", status: 503, hits: 2, remaining: 0 });
  });

  it("sends Retry-After with an injected 429 and matches globs across segments", async () => {
    await api(emu, "DELETE", "/__emulator/faults");
    await api(emu, "POST", "/__emulator/faults", { body: { rules: [{ path: "/api/v1/sites/**", status: 429, retry_after: 7, count: 1 }] } });
    const id = await createSite("glob");
    const res = await api(emu, "GET", `/sites/${id}/snapshots`, { token: TOKENS.owner });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.body).toEqual({ error: "Rate limit exceeded. Try again in 7 seconds." });
  });

  it("resets the connection without an answer", async () => {
    await api(emu, "DELETE", "/__emulator/faults");
    await api(emu, "POST", "/__emulator/faults", { body: { rules: [{ path: "/api/v1/me", reset_connection: true, count: 1 }] } });
    await expect(api(emu, "GET", "/me", { token: TOKENS.owner })).rejects.toThrow();
    expect((await api(emu, "GET", "/me", { token: TOKENS.owner })).status).toBe(200);
  });

  it("never touches the control API itself, and DELETE clears every rule", async () => {
    await api(emu, "POST", "/__emulator/faults", { body: { rules: [{ path: "/**", status: 500 }] } });
    expect((await api(emu, "GET", "/__emulator/clock")).status).toBe(200);
    expect((await api(emu, "GET", "/me", { token: TOKENS.owner })).status).toBe(500);
    expect((await api(emu, "DELETE", "/__emulator/faults")).status).toBe(204);
    expect((await api(emu, "GET", "/me", { token: TOKENS.owner })).status).toBe(200);
  });

  it("rejects malformed rules with a field error and keeps none of them", async () => {
    const res = await api(emu, "POST", "/__emulator/faults", { body: { rules: [{ path: "/x", status: 200 }, { status: 500 }] } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty("rules.1.path");
    expect((await api(emu, "GET", "/__emulator/faults")).body.rules).toEqual([]);
  });
});

describe("health checks", () => {
  it("forces a status that drives the site's status", async () => {
    const id = await createSite("forced");
    const res = await api(emu, "POST", "/__emulator/health_checks", { body: { site_id: id, status: "failed" } });
    expect(res.status).toBe(200);
    expect(res.body.health_checks).toHaveLength(1);
    expect(res.body.health_checks[0]).toMatchObject({ site_id: id, status: "failed" });
    expect((await api(emu, "GET", `/sites/${id}`, { token: TOKENS.owner })).body.status).toBe("down");
  });

  it("404s for an unknown site", async () => {
    const res = await api(emu, "POST", "/__emulator/health_checks", { body: { site_id: "site_doesnotexist0000000" } });
    expect(res).toMatchObject({ status: 404, body: { error: "Record not found" } });
  });
});

describe("reset", () => {
  it("empties the store and re-applies the seed", async () => {
    await createSite("before-reset");
    expect((await api(emu, "GET", "/sites", { token: TOKENS.owner })).body.length).toBeGreaterThan(0);
    expect((await api(emu, "POST", "/__emulator/reset")).body).toEqual({ reset: true });
    expect((await api(emu, "GET", "/sites", { token: TOKENS.owner })).body).toEqual([]);
    // Seeded credentials work again, and the clock is back to real time.
    expect((await api(emu, "GET", "/me", { token: TOKENS.owner })).status).toBe(200);
    expect((await api(emu, "GET", "/__emulator/clock")).body.offset_seconds).toBe(0);
    expect((await api(emu, "GET", "/__emulator/webhook_deliveries")).body).toEqual({ deliveries: [] });
  });
});
