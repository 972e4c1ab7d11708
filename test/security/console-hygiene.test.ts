// Issue 26 findings 5, 10 and 12: the console's CSRF token is bound to the session (one from before sign-in
// is refused after it), console traffic counts under --rate-limit, nothing carrying credentials may be cached,
// cookies are Secure under an https public URL, framing is refused twice over, a pathological fault glob
// does not stall the emulator, and CONNECT gets a JSON answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { PASSWORD, TOKENS, USERS, api, startTestEmulator } from "../emulator/helpers.js";
import { ConsoleClient, send, sendJson, sendRaw } from "./helpers.js";

describe("the console (default options)", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => emu?.close());

  it("a CSRF token obtained before sign-in is refused after it; the session's own token works", async () => {
    const browser = new ConsoleClient(emu.port);
    const anonymous = await browser.csrf("/sign-in");
    await browser.signIn(USERS.admin, PASSWORD);
    const refused = await browser.request("POST", "/settings/api/tokens", { name: "planted", _csrf: anonymous });
    expect(refused.status).toBe(403);
    const ok = await browser.request("POST", "/settings/api/tokens", { name: "mine", _csrf: await browser.csrf("/settings/api") });
    expect(ok.status).toBe(201);
  });

  it("pages refuse framing with X-Frame-Options beside frame-ancestors", async () => {
    const res = await send(emu.port, "GET", "/sign-in");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  it("responses carrying credentials are Cache-Control: no-store", async () => {
    const jwt = await sendJson(emu.port, "POST", "/api/v1/jwt", { email: USERS.owner, password: PASSWORD });
    expect(jwt.status).toBe(200);
    expect(jwt.headers["cache-control"]).toBe("no-store");
    const token = await sendJson(emu.port, "POST", "/api/v1/auth", { email: USERS.owner, password: PASSWORD, name: "cache" });
    expect(token.status).toBe(201);
    expect(token.headers["cache-control"]).toBe("no-store");
    const hook = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.owner,
      body: { url: "https://hooks.example/cache", enabled_events: ["site.created"] },
    });
    expect(hook.status).toBe(201);
    expect(hook.headers.get("cache-control")).toBe("no-store");
  });

  it("CONNECT is answered with a JSON error", async () => {
    const res = await sendRaw(emu.port, `CONNECT 127.0.0.1:${emu.port} HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\n\r\n`);
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: "Method CONNECT not allowed" });
  });

  it("a 14-segment fault glob does not stall matching requests", async () => {
    const glob = "/**a".repeat(14);
    const set = await api(emu, "POST", "/__emulator/faults", { body: { rules: [{ path: glob, status: 503 }] } });
    expect(set.status).toBe(200);
    try {
      // A path of many segments that nearly matches: the old regular expression backtracked for many seconds
      // on it, blocking every request meanwhile (the test's timeout is what fails then).
      const path = `${"/a".repeat(30)}b`;
      const res = await send(emu.port, "GET", path, { headers: { authorization: `token ${TOKENS.owner}` } });
      expect(res.status).toBe(404);
      const ok = await api(emu, "GET", "/me", { token: TOKENS.owner });
      expect(ok.status).toBe(200);
    } finally {
      await api(emu, "DELETE", "/__emulator/faults");
    }
  }, 5_000);
});

describe("the console under --rate-limit 3/60 and an https public URL", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ rateLimit: { limit: 3, windowSeconds: 60 }, loginThrottle: null, publicUrl: "https://siteops.example" });
  });
  afterAll(async () => emu?.close());

  it("console requests count against the client's address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(emu.port, "GET", "/sign-in", { localAddress: "127.8.0.1" })).status);
    const last = await send(emu.port, "GET", "/sign-in", { localAddress: "127.8.0.1" });
    expect([...statuses, last.status]).toEqual([200, 200, 200, 429, 429]);
    expect(last.text).toContain("Rate limit exceeded");
  });

  it("the session and _csrf cookies are Secure", async () => {
    const browser = new ConsoleClient(emu.port, "127.8.0.2");
    const page = await browser.request("GET", "/sign-in");
    const csrfCookie = (page.headers["set-cookie"] ?? []).find((c) => c.startsWith("_csrf="));
    expect(csrfCookie).toMatch(/;\s*Secure/i);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const signedIn = await browser.request("POST", "/sign-in", { email: USERS.admin, password: PASSWORD, _csrf: token });
    expect(signedIn.status).toBe(303);
    const session = (signedIn.headers["set-cookie"] ?? []).find((c) => c.startsWith("siteops_session="));
    expect(session).toMatch(/;\s*Secure/i);
  });
});
