// Issue 12 "login throttling": failed sign-ins (password and 2FA code, on POST /jwt and POST /auth) are
// counted per user and per client address; past the limit every attempt on that key is 429 with
// Retry-After until the lock ends (the right password too), and a success clears the user's count.
// Issue 38 item 4: a flood of unknown emails (the tables full of live counters, the shared overflow
// counters locked) no longer locks out every user: a known user keeps a counter of its own.
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { DEFAULT_LOGIN_THROTTLE } from "../../emulator/options.js";
import { OTP_SECRET, PASSWORD, USERS, advanceClock, startTestEmulator } from "../emulator/helpers.js";
import { sendJson } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => emu?.close());

const login = (email: string, password: string, localAddress = "127.0.0.1", extra: Record<string, string> = {}) =>
  sendJson(emu.port, "POST", "/api/v1/jwt", { email, password, ...extra }, { localAddress });

/** Moves past any lock of an earlier test. */
const afterLocks = () => advanceClock(emu, DEFAULT_LOGIN_THROTTLE.windowSeconds + 1);

describe("per user (the documented default: 10 failures in 15 minutes)", () => {
  it("answers 429 with Retry-After after 10 failures, even to the right password, until the lock ends", async () => {
    await afterLocks();
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++) statuses.push((await login(USERS.admin, `wrong ${i}`, `127.0.1.${i + 1}`)).status);
    expect(statuses).toEqual(Array(DEFAULT_LOGIN_THROTTLE.perUser).fill(401));

    const locked = await login(USERS.admin, PASSWORD, "127.0.2.1");
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(DEFAULT_LOGIN_THROTTLE.windowSeconds);
    expect(locked.body).toEqual({ error: `Too many failed login attempts. Try again in ${retryAfter} seconds.` });

    // POST /auth is the same sign-in.
    const viaAuth = await sendJson(emu.port, "POST", "/api/v1/auth", { email: USERS.admin, password: PASSWORD }, { localAddress: "127.0.2.2" });
    expect(viaAuth.status).toBe(429);

    await advanceClock(emu, retryAfter);
    expect((await login(USERS.admin, PASSWORD, "127.0.2.3")).status).toBe(200);
  });

  it("counts unknown emails the same way (a 429 does not reveal whether an account exists)", async () => {
    await afterLocks();
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++) expect((await login("ghost@a.example", "nope", `127.0.3.${i + 1}`)).status).toBe(401);
    expect((await login("GHOST@a.example", "nope", "127.0.4.1")).status).toBe(429);
  });

  it("a success clears the user's count", async () => {
    await afterLocks();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser - 1; i++) expect((await login(USERS.member, "wrong", `127.0.5.${i + 1}`)).status).toBe(401);
      expect((await login(USERS.member, PASSWORD, "127.0.6.1")).status).toBe(200);
    }
  });

  it("wrong 2FA codes count too", async () => {
    await afterLocks();
    const good = await generate({ secret: OTP_SECRET, epoch: Math.floor(emu.context.clock.nowMs() / 1000) });
    const wrong = good === "000000" ? "111111" : "000000";
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++) {
      expect((await login(USERS.twoFactor, PASSWORD, `127.0.7.${i + 1}`, { otp_attempt: wrong })).status).toBe(401);
    }
    expect((await login(USERS.twoFactor, PASSWORD, "127.0.8.1", { otp_attempt: good })).status).toBe(429);
  });
});

describe("per client address", () => {
  it("locks an address after 50 failures across any emails; other addresses are not affected", async () => {
    await afterLocks();
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perAddress; i++) expect((await login(`spray${i}@a.example`, "nope", "127.0.9.9")).status).toBe(401);
    const locked = await login(USERS.owner, PASSWORD, "127.0.9.9");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    expect((await login(USERS.owner, PASSWORD, "127.0.9.10")).status).toBe(200);
  });
});

describe("the web console's sign-in", () => {
  /** Signs in through the console's form (GET for the CSRF cookie and token, then the POST). */
  async function consoleSignIn(email: string, password: string): Promise<{ status: number; retryAfter: string | null; text: string }> {
    const base = `http://127.0.0.1:${emu.port}`;
    const form = await fetch(`${base}/sign-in`);
    const cookies = form.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const r = await fetch(`${base}/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: cookies, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
    });
    return { status: r.status, retryAfter: r.headers.get("retry-after"), text: await r.text() };
  }

  it("shares the API's throttle: a user locked through the API is refused in the page, and failures in the page count", async () => {
    await afterLocks();
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++) expect((await login(USERS.member, `wrong ${i}`, `127.0.10.${i + 1}`)).status).toBe(401);
    const locked = await consoleSignIn(USERS.member, PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    expect(locked.text).toContain("Too many failed login attempts.");

    await afterLocks();
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++) expect((await consoleSignIn(USERS.member, `wrong ${i}`)).status).toBe(401);
    expect((await login(USERS.member, PASSWORD, "127.0.11.1")).status).toBe(429);
  });
});

describe("a flood of unknown emails from many addresses (issue 38 item 4)", () => {
  let flooded: RunningEmulator;
  beforeAll(async () => {
    flooded = await startTestEmulator();
  });
  afterAll(async () => flooded?.close());

  const floodLogin = (email: string, password: string, localAddress: string) =>
    sendJson(flooded.port, "POST", "/api/v1/jwt", { email, password }, { localAddress });

  it("a known user signs in with the right password from a fresh address, and its own counter still throttles it", async () => {
    // Each failed sign-in costs a scrypt, so the tables are filled through the call the sign-in routes make
    // for a 401 (as table-bounds.test.ts does): 10,000 unknown emails from 10,000 addresses fill both tables
    // with live counters.
    const throttle = flooded.context.loginThrottle;
    for (let i = 0; i < 10_000; i++) throttle.failed({ email: `flood${i}@attacker.example`, userId: null, address: `127.12.${i >> 8}.${i & 255}` });
    // Over HTTP, ten more unknown emails from fresh addresses lock the shared email counter...
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++)
      expect((await floodLogin(`late${i}@attacker.example`, "nope", `127.14.0.${i + 1}`)).status).toBe(401);
    expect((await floodLogin("newcomer@attacker.example", "nope", "127.14.1.1")).status).toBe(429);
    // ...and 50 failures from yet more addresses lock the shared address counter.
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perAddress; i++) {
      throttle.failed({ email: `flood${i}@attacker.example`, userId: null, address: `127.13.0.${i + 1}` });
    }
    expect((await floodLogin("newcomer@attacker.example", "nope", "127.14.1.2")).status).toBe(429);

    // Known users, right password, fresh addresses: signed in.
    expect((await floodLogin(USERS.member, PASSWORD, "127.15.0.1")).status).toBe(200);
    expect((await floodLogin(USERS.admin.toUpperCase(), PASSWORD, "127.15.0.2")).status).toBe(200);

    // The owner's own counter still locks a brute force on the owner, from fresh addresses too...
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++) expect((await floodLogin(USERS.owner, `wrong ${i}`, `127.16.0.${i + 1}`)).status).toBe(401);
    const locked = await floodLogin(USERS.owner, PASSWORD, "127.16.1.1");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    // ...and only the owner: the member still signs in.
    expect((await floodLogin(USERS.member, PASSWORD, "127.16.1.2")).status).toBe(200);
  });
});

describe("settings", () => {
  it("loginThrottle: null turns it off", async () => {
    const open = await startTestEmulator({ loginThrottle: null });
    try {
      for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser + 2; i++) {
        expect((await sendJson(open.port, "POST", "/api/v1/jwt", { email: USERS.owner, password: "wrong" })).status).toBe(401);
      }
    } finally {
      await open.close();
    }
  });
});
