// The fault rules' phases: "before" strikes instead of handling the request; "after" lets the request be
// handled and committed (idempotency record included) and then replaces the answer or resets the
// connection; "drop_body" sends the real head and half the body, then resets.
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterEach(async () => {
  await api(emu, "DELETE", "/__emulator/faults");
});
afterAll(async () => {
  await emu?.close();
});

const faults = (rules: unknown[]) => api(emu, "POST", "/__emulator/faults", { body: { rules } });
const siteNamed = async (name: string) =>
  ((await api(emu, "GET", "/sites?per_page=100", { token: TOKENS.owner })).body as { name: string }[]).filter((s) => s.name === name);

describe("fault phases", () => {
  it("after + status: the change is made, the answer is the proxy's error (with the request id)", async () => {
    await faults([{ method: "POST", path: "/api/v1/sites", phase: "after", status: 502, count: 1 }]);
    const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "After 502", url: "https://after-502.example.com" } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "Bad gateway" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await siteNamed("After 502")).toHaveLength(1);
  });

  it("after + reset: the change is made, the idempotency record too, and the connection is cut", async () => {
    await faults([{ method: "POST", path: "/api/v1/sites", phase: "after", reset_connection: true, count: 1 }]);
    const body = { name: "After reset", url: "https://after-reset.example.com" };
    const key = { "idempotency-key": "fault-phase-after-reset" };
    await expect(api(emu, "POST", "/sites", { token: TOKENS.owner, body, headers: key })).rejects.toThrow();
    const replay = await api(emu, "POST", "/sites", { token: TOKENS.owner, body, headers: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await siteNamed("After reset")).toHaveLength(1);
  });

  it("drop_body: the real status line and headers arrive, the body is cut off", async () => {
    await faults([{ method: "GET", path: "/api/v1/sites", phase: "drop_body", count: 1 }]);
    const res = await request(`${emu.url}/api/v1/sites`, { headers: { authorization: `token ${TOKENS.owner}` } });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers["content-length"])).toBeGreaterThan(0);
    await expect(res.body.text()).rejects.toThrow();
  });

  it("after + delay only: the answer comes late but whole", async () => {
    await faults([{ method: "GET", path: "/api/v1/me", phase: "after", delay_ms: 50, count: 1 }]);
    const res = await api(emu, "GET", "/me", { token: TOKENS.owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: expect.any(String) });
  });

  it("refuses an unknown phase with a field error", async () => {
    const res = await faults([{ path: "/api/v1/me", phase: "later", status: 500 }]);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["rules.0.phase"]);
  });
});
