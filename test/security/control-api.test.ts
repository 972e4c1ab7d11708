// Issue 17 item 3: the control API (/__emulator/*) answers only requests that name the emulator on loopback
// in Host and carry no foreign Origin, so neither a web page the developer opens (a simple cross-origin
// POST) nor DNS rebinding (a foreign Host on 127.0.0.1) can reset it or read its deliveries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "../emulator/helpers.js";
import { expectErrorShape, send } from "./helpers.js";

let emu: RunningEmulator;
const siteCount = (): number => (emu.context.db.prepare("SELECT COUNT(*) AS n FROM sites").get() as { n: number }).n;

beforeAll(async () => {
  emu = await startTestEmulator();
  expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Keep", url: "https://keep.example.com" } })).status).toBe(201);
});
afterAll(async () => emu?.close());

describe("refused with 403, nothing changed", () => {
  const cases: [string, () => Record<string, string>][] = [
    ["a rebinding Host (attacker.example:PORT)", () => ({ host: `attacker.example:${emu.port}` })],
    ["a foreign Origin", () => ({ origin: `http://attacker.example:${emu.port}` })],
    ["a foreign Host and Origin together", () => ({ host: `attacker.example:${emu.port}`, origin: `http://attacker.example:${emu.port}` })],
    ["Origin: null (a sandboxed frame)", () => ({ origin: "null" })],
    ["another local origin (localhost:3000)", () => ({ origin: "http://localhost:3000" })],
    ["a loopback Host on another port", () => ({ host: "127.0.0.1:1" })],
    ["Sec-Fetch-Site: cross-site", () => ({ "sec-fetch-site": "cross-site" })],
  ];

  it.each(cases)("POST /__emulator/reset with %s", async (_what, headers) => {
    const res = await send(emu.port, "POST", "/__emulator/reset", { headers: headers() });
    expectErrorShape(res, 403);
    expect(siteCount()).toBe(1);
  });

  it.each(cases)("GET /__emulator/webhook_deliveries with %s", async (_what, headers) => {
    expectErrorShape(await send(emu.port, "GET", "/__emulator/webhook_deliveries", { headers: headers() }), 403);
  });

  it("a simple cross-origin form POST (text/plain) to the clock", async () => {
    const before = emu.context.clock.offsetMs;
    const res = await send(emu.port, "POST", "/__emulator/clock", {
      headers: { origin: "https://evil.example", "content-type": "text/plain" },
      body: '{"advance_seconds":999999}',
    });
    expectErrorShape(res, 403);
    expect(emu.context.clock.offsetMs).toBe(before);
  });
});

describe("still open to the developer's own tools", () => {
  it.each(["127.0.0.1", "localhost", "[::1]"])("Host %s with the emulator's port", async (name) => {
    const res = await send(emu.port, "GET", "/__emulator/clock", { headers: { host: `${name}:${emu.port}` } });
    expect(res.status).toBe(200);
  });

  it("a same-origin Origin (the emulator's own pages)", async () => {
    const res = await send(emu.port, "GET", "/__emulator/faults", { headers: { origin: `http://127.0.0.1:${emu.port}`, "sec-fetch-site": "same-origin" } });
    expect(res.status).toBe(200);
  });

  it("curl-style requests (no Origin) reset as before", async () => {
    const res = await send(emu.port, "POST", "/__emulator/reset");
    expect(res.status).toBe(200);
    expect(siteCount()).toBe(0);
  });
});
