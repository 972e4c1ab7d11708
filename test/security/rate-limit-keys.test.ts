// Issue 17 item 4: --rate-limit counts what a request resolved to, not a header the client can vary: junk
// credentials count against the client's address, a user's tokens share the user's window, a sign-in is
// also counted under its email (from any address), and an encoded path (`/%61pi/v1/jwt`) is the same
// route as `/api/v1/jwt` for the limiter and the authentication hook alike. Issue 38 item 10: the web
// console's sign-in (password and 2FA step) counts under the same email key as the API's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { PASSWORD, TOKENS, USERS, advanceClock, api, startTestEmulator } from "../emulator/helpers.js";
import { ConsoleClient, send, sendJson } from "./helpers.js";

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

describe("the web console's sign-in shares the API's per-email key", () => {
  const csrfOf = (text: string): string => /name="_csrf" value="([^"]+)"/.exec(text)![1]!;

  /** A console sign-in from its own fresh address (so only the email's window can refuse it). */
  async function consoleSignIn(email: string, password: string, localAddress: string): Promise<{ status: number; text: string; client: ConsoleClient }> {
    const client = new ConsoleClient(emu.port, localAddress);
    const res = await client.request("POST", "/sign-in", { email, password, _csrf: await client.csrf("/sign-in") });
    return { status: res.status, text: res.text, client };
  }

  it("password sign-ins through the API and the console count in one window per email", async () => {
    await nextWindow();
    const api1 = await sendJson(emu.port, "POST", "/api/v1/jwt", { email: USERS.admin, password: "wrong password" }, { localAddress: "127.0.20.1" });
    const page1 = await consoleSignIn(USERS.admin, "wrong password", "127.0.20.2");
    const page2 = await consoleSignIn(` ${USERS.admin.toUpperCase()}`, "wrong password", "127.0.20.3");
    const page3 = await consoleSignIn(USERS.admin, PASSWORD, "127.0.20.4");
    expect([api1.status, page1.status, page2.status, page3.status]).toEqual([401, 401, 401, 429]);
    expect(page3.text).toContain("Rate limit exceeded");
    // The API's next sign-in for that email is in the same spent window.
    expect((await sendJson(emu.port, "POST", "/api/v1/jwt", { email: USERS.admin, password: PASSWORD }, { localAddress: "127.0.20.5" })).status).toBe(429);
  });

  it("the console's 2FA step counts under the email waiting for its code", async () => {
    await nextWindow();
    const first = await consoleSignIn(USERS.twoFactor, PASSWORD, "127.0.21.1");
    expect(first.status).toBe(200); // the code form
    let csrf = csrfOf(first.text);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      // The same browser (its cookies) from a fresh address each time: only the email's window is shared.
      const next = new ConsoleClient(emu.port, `127.0.21.${i + 2}`);
      for (const [name, value] of first.client.cookies) next.cookies.set(name, value);
      const res = await next.request("POST", "/sign-in/otp", { otp_attempt: "000000", _csrf: csrf });
      statuses.push(res.status);
      if (res.status !== 429) csrf = csrfOf(res.text);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});
