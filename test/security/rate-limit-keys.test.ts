// Issue 17 item 4: --rate-limit counts what a request resolved to, not a header the client can vary: junk
// credentials count against the client's address, a user's tokens share the user's window, a sign-in is
// also counted under its email (from any address), and an encoded path (`/%61pi/v1/jwt`) is the same
// route as `/api/v1/jwt` for the limiter and the authentication hook alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { PASSWORD, TOKENS, USERS, advanceClock, api, startTestEmulator } from "../emulator/helpers.js";
import { send, sendJson } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  // The login throttle is off here so that only the rate limiter answers 429.
  emu = await startTestEmulator({ rateLimit: { limit: 3, windowSeconds: 60 }, loginThrottle: null });
});
afterAll(async () => emu?.close());

/** A fresh window for every test. */
async function nextWindow(): Promise<void> {
  await advanceClock(emu, 61);
}

describe("keys", () => {
  it("a different junk Authorization header per request does not escape the limit", async () => {
    await nextWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api(emu, "GET", "/me", { token: `sot_junk${i}000000000000000000` })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("eight logins with junk Authorization headers: 429 after the limit", async () => {
    await nextWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await sendJson(
        emu.port,
        "POST",
        "/api/v1/jwt",
        { email: USERS.owner, password: "wrong password" },
        { headers: { authorization: `Bearer junk${i}` } },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it("a user's two API tokens share one window", async () => {
    await nextWindow();
    const second = await api(emu, "POST", "/auth", { body: { email: USERS.owner, password: PASSWORD, name: "second" } });
    expect(second.status).toBe(201);
    await nextWindow();
    for (let i = 0; i < 3; i++) expect((await api(emu, "GET", "/me", { token: TOKENS.owner })).status).toBe(200);
    const other = await api(emu, "GET", "/me", { token: second.body.token });
    expect(other.status).toBe(429);
    expect(other.headers.get("retry-after")).toBeTruthy();
  });

  it("logins for one email are limited across client addresses", async () => {
    await nextWindow();
    const statuses: number[] = [];
    for (const localAddress of ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]) {
      statuses.push((await sendJson(emu.port, "POST", "/api/v1/jwt", { email: USERS.admin, password: "wrong password" }, { localAddress })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe("sign-ins with a body that does not validate", () => {
  it("still count against the address", async () => {
    await nextWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await sendJson(emu.port, "POST", "/api/v1/jwt", { junk: i }, { localAddress: "127.0.0.11" })).status);
    expect(statuses).toEqual([422, 422, 422, 429]);
  });
});

describe("hooks follow the matched route, not the raw URL", () => {
  it("POST /%61pi/v1/jwt is rate limited like /api/v1/jwt", async () => {
    await nextWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await sendJson(emu.port, "POST", "/%61pi/v1/jwt", { email: `nobody${i}@example.com`, password: "wrong password" }, { localAddress: "127.0.0.9" }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("an encoded path still needs credentials and counts against the address", async () => {
    await nextWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(emu.port, "GET", "/%61pi/v1/sites", { localAddress: "127.0.0.10" })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // With a token, the encoded path is the same authenticated route.
    await nextWindow();
    const ok = await send(emu.port, "GET", "/%61pi/v1/me", { headers: { authorization: `token ${TOKENS.member}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers["ratelimit-remaining"]).toBe("2");
  });
});
