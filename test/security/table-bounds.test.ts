// Issue 26 findings 2 and 3: the rate-limit windows and the login-throttle locks are kept in bounded tables,
// and filling a table from many source addresses must never forget a live window or a lock. Spraying is done
// from thousands of loopback source addresses (127.x.y.z binds) in bounded loops; an IPv6 client counts by
// its /64.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { clientAddressKey } from "../../emulator/expiring-table.js";
import { DEFAULT_LOGIN_THROTTLE } from "../../emulator/options.js";
import { PASSWORD, TOKENS, USERS, advanceClock, startTestEmulator } from "../emulator/helpers.js";
import { send, sendJson } from "./helpers.js";

/** `count` requests from distinct source addresses 127.<net>.x.y, `parallel` at a time. */
async function spray(count: number, net: number, request: (localAddress: string, i: number) => Promise<unknown>, parallel = 16): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      await request(`127.${net}.${(i >> 8) & 255}.${(i & 255) + 0}`, i);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

describe("the rate-limit table (--rate-limit 5/3600)", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ rateLimit: { limit: 5, windowSeconds: 3600 }, loginThrottle: null });
  });
  afterAll(async () => emu?.close());

  const me = (opts: { token?: string; localAddress?: string }) =>
    send(emu.port, "GET", "/api/v1/me", { localAddress: opts.localAddress, headers: opts.token ? { authorization: `token ${opts.token}` } : {} });

  it("10,050 unauthenticated requests from fresh addresses neither reset a user's window nor an address's, and new addresses share one window", async () => {
    for (let i = 0; i < 5; i++) expect((await me({ token: TOKENS.owner })).status).toBe(200);
    expect((await me({ token: TOKENS.owner })).status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await me({ localAddress: "127.3.0.1" })).status).toBe(401);
    expect((await me({ localAddress: "127.3.0.1" })).status).toBe(429);

    const statuses = new Map<number, number>();
    await spray(10_050, 1, async (localAddress) => {
      const { status } = await me({ localAddress });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    // The table took 10,000 - 2 keys; the rest counted in one shared window: 5 answered, then refused.
    expect(statuses.get(429)).toBeGreaterThan(0);

    const user = await me({ token: TOKENS.owner });
    expect(user.status).toBe(429);
    expect(Number(user.headers["retry-after"])).toBeGreaterThan(3000);
    expect((await me({ localAddress: "127.3.0.1" })).status).toBe(429);
    expect((await me({ localAddress: "127.4.0.1" })).status).toBe(429); // no room: a newcomer shares the spent window

    // Once the windows have ended there is room again.
    await advanceClock(emu, 3601);
    expect((await me({ localAddress: "127.4.0.2" })).status).toBe(401);
    expect((await me({ token: TOKENS.owner })).status).toBe(200);
  });
});

describe("the login-throttle table (the default 10 failures per user in 15 minutes)", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => emu?.close());

  const login = (email: string, password: string, localAddress: string) => sendJson(emu.port, "POST", "/api/v1/jwt", { email, password }, { localAddress });

  it("a locked user stays locked after 10,200 failures with fresh emails from 200 addresses", async () => {
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perUser; i++) expect((await login(USERS.admin, `wrong ${i}`, `127.5.0.${i + 1}`)).status).toBe(401);
    expect((await login(USERS.admin, PASSWORD, "127.5.1.1")).status).toBe(429);

    // Each failed sign-in costs a scrypt (~40 ms here), so 10,200 of them over HTTP would take minutes: the
    // table is filled through the same call the sign-in routes make for a 401 (services/login-throttle.ts),
    // with the addresses a spray from 200 sources gives; the lock and the sign-ins around it are HTTP.
    for (let i = 0; i < 10_200; i++) emu.context.loginThrottle.failed({ email: `spray${i}@attacker.example`, userId: null, address: `127.6.0.${i % 200}` });
    const sprayed = await login(`spray-http@attacker.example`, "nope", "127.6.1.1");
    expect([401, 429]).toContain(sprayed.status);

    const locked = await login(USERS.admin, PASSWORD, "127.5.1.2");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);

    await advanceClock(emu, DEFAULT_LOGIN_THROTTLE.windowSeconds + 1);
    expect((await login(USERS.admin, PASSWORD, "127.5.1.3")).status).toBe(200);
  });
});

describe("client address keys", () => {
  it("IPv6 counts by /64, IPv4-mapped IPv6 as IPv4, IPv4 by address", () => {
    expect(clientAddressKey("2001:db8:0:1::5")).toBe(clientAddressKey("2001:db8:0:1:ffff:ffff:ffff:ffff"));
    expect(clientAddressKey("2001:db8:0:1::5")).toBe(clientAddressKey("2001:DB8:0:1:0:0:0:6"));
    expect(clientAddressKey("2001:db8:0:1::5")).not.toBe(clientAddressKey("2001:db8:0:2::5"));
    expect(clientAddressKey("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(clientAddressKey("127.0.0.2")).not.toBe(clientAddressKey("127.0.0.3"));
  });
});
