// JWT login, renewal under the emulator clock, 2FA and logout, on each HTTP stack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, JwtAuth, OtpRequiredError, SiteOps, type RequestLogEvent } from "../../src/index.js";
import { OTP_SECRET, PASSWORD, startTestEmulator, totp, TRANSPORTS, type TestEmulator } from "./helpers.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;
  const clients: SiteOps[] = [];

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await env.close();
  });

  async function login(extra: Partial<Parameters<typeof SiteOps.login>[0]> = {}): Promise<SiteOps> {
    const so = await SiteOps.login({ baseUrl: env.url, email: "owner@acme.test", password: PASSWORD, transport, ...extra });
    clients.push(so);
    return so;
  }

  describe("JWT", () => {
    it("logs in with email and password and uses a Bearer token", async () => {
      const events: RequestLogEvent[] = [];
      const so = await login({ logger: (e) => events.push(e) });
      expect((await so.me()).email).toBe("owner@acme.test");
      const me = events.find((e) => e.kind === "response" && e.path === "/api/v1/me");
      expect(me?.kind === "response" && me.requestHeaders.authorization).toBe("Bearer [REDACTED]");
    });

    it("rejects a wrong password with AuthenticationError", async () => {
      const err = await login({ password: "wrong" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).error).toBe("Invalid email or password");
      expect((err as Error).message).not.toContain("wrong");
    });

    it("after expiry on the server clock, 20 concurrent calls trigger exactly one refresh", async () => {
      const events: RequestLogEvent[] = [];
      const so = await login({ logger: (e) => events.push(e) });
      await so.me();
      await env.advanceClock(901);
      const results = await Promise.all(Array.from({ length: 20 }, () => so.sites.list()));
      expect(results.every((page) => page.data.length >= 2)).toBe(true);
      const refreshes = events.filter((e) => e.kind === "response" && e.path === "/api/v1/jwt/refresh");
      expect(refreshes).toHaveLength(1);
      expect(refreshes[0].kind === "response" && refreshes[0].status).toBe(200);
      const unauthorized = events.filter((e) => e.kind === "response" && e.status === 401);
      expect(unauthorized.length).toBeGreaterThan(0);
      expect((so.credentials as JwtAuth).refreshCount).toBe(1);
    });

    it("refreshes proactively before the access token expires by its own clock", async () => {
      let now = Date.now();
      const tokens = await env.client().auth.createJwt({ email: "owner@acme.test", password: PASSWORD });
      const auth = new JwtAuth(tokens, { now: () => now });
      const events: RequestLogEvent[] = [];
      const so = env.client({ auth, logger: (e) => events.push(e) });
      await so.me();
      now += (tokens.expires_in - 30) * 1000; // inside the refresh margin, still valid
      await so.me();
      expect(auth.refreshCount).toBe(1);
      expect(events.filter((e) => e.kind === "response" && e.status === 401)).toHaveLength(0);
    });

    it("logout revokes the pair: the old tokens stop working", async () => {
      const tokens = await env.client().auth.createJwt({ email: "owner@acme.test", password: PASSWORD });
      const so = new SiteOps({ baseUrl: env.url, auth: new JwtAuth(tokens), transport });
      expect((await so.me()).email).toBe("owner@acme.test");
      await so.logout();
      const reuse = env.client({ auth: new JwtAuth(tokens) });
      await expect(reuse.me()).rejects.toBeInstanceOf(AuthenticationError);
      await expect(so.me()).rejects.toThrow("This client was closed");
    });
  });

  describe("two-factor authentication", () => {
    it("throws OtpRequiredError without a code, logs in with one", async () => {
      const err = await login({ email: "2fa@acme.test" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OtpRequiredError);
      expect((err as OtpRequiredError).status).toBe(422);
      const so = await login({ email: "2fa@acme.test", otp: totp(OTP_SECRET, env.now()) });
      expect((await so.me()).email).toBe("2fa@acme.test");
    });

    it("asks an otp callback only when the service requires a code", async () => {
      let asked = 0;
      const otp = () => {
        asked++;
        return totp(OTP_SECRET, env.now() + 30_000); // the next step: the current code was used above
      };
      const so = await login({ email: "2fa@acme.test", otp });
      expect(asked).toBe(1);
      expect((await so.me()).email).toBe("2fa@acme.test");
      await login({ otp });
      expect(asked).toBe(1);
    });
  });

  describe("native-client login (API token)", () => {
    it("creates an API token on login and revokes it on logout", async () => {
      const events: RequestLogEvent[] = [];
      const so = await SiteOps.login({
        baseUrl: env.url,
        email: "member@acme.test",
        password: PASSWORD,
        tokenType: "api_token",
        name: "laptop",
        logger: (e) => events.push(e),
      });
      expect(so.credentials?.scheme).toBe("token");
      expect((await so.me()).email).toBe("member@acme.test");
      await so.logout();
      const revoke = events.find((e) => e.kind === "response" && e.method === "DELETE" && e.path === "/api/v1/auth");
      expect(revoke?.kind === "response" && revoke.status).toBe(204);
    });
  });
});
