// Authentication against the emulator: JWT login (with TOTP two-factor), refresh rotation and reuse
// detection, revocation, expiry on the emulator clock, and API tokens for native clients.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "otplib";
import type { RunningEmulator } from "../../emulator/index.js";
import { OTP_SECRET, PASSWORD, TOKENS, USERS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const login = (email: string, password = PASSWORD, extra: Record<string, unknown> = {}) => api(emu, "POST", "/jwt", { body: { email, password, ...extra } });

/** The TOTP code for the emulator's clock, `offsetSteps` steps away. */
const otp = (offsetSteps = 0) => generate({ secret: OTP_SECRET, epoch: Math.floor(emu.context.clock.nowMs() / 1000) + offsetSteps * 30 });

describe("POST /jwt", () => {
  it("returns a JWT pair whose access token authenticates", async () => {
    const res = await login(USERS.owner);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 900 });
    expect(res.body.access_token.split(".")).toHaveLength(3);
    expect(res.body.refresh_token).toMatch(/^sor_/);
    const claims = JSON.parse(Buffer.from(res.body.access_token.split(".")[1], "base64url").toString());
    expect(Object.keys(claims).sort()).toEqual(["account_id", "exp", "iat", "jti", "sub"]);
    expect(claims.exp - claims.iat).toBe(900);

    const me = await api(emu, "GET", "/me", { token: `Bearer ${res.body.access_token}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: USERS.owner, role: "owner", current_account_id: claims.account_id });
  });

  it("answers 401 Invalid email or password for a wrong password and an unknown email alike", async () => {
    const wrong = await login(USERS.owner, "not the password");
    const unknown = await login("nobody@nowhere.example", PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Invalid email or password" });
    }
  });

  it("takes the email case-insensitively", async () => {
    expect((await login(USERS.owner.toUpperCase())).status).toBe(200);
  });

  it("validates the body (422 with field errors, not 500)", async () => {
    const res = await api(emu, "POST", "/jwt", { body: { email: USERS.owner } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ password: ["can't be blank"] });
  });

  it("issues distinct tokens on every login", async () => {
    const a = await login(USERS.admin);
    const b = await login(USERS.admin);
    expect(a.body.refresh_token).not.toBe(b.body.refresh_token);
    expect(a.body.access_token).not.toBe(b.body.access_token);
  });
});

describe("two-factor authentication (TOTP)", () => {
  it("requires otp_attempt: 422 otp_attempt_required", async () => {
    const res = await login(USERS.twoFactor);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("otp_attempt_required");
  });

  it("checks the password before asking for the code", async () => {
    const res = await login(USERS.twoFactor, "wrong password");
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Invalid email or password");
  });

  it("refuses a wrong code with 401 Incorrect verification code", async () => {
    const code = await otp();
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    for (const attempt of [wrong, "abc", "12345", "1234567"]) {
      const res = await login(USERS.twoFactor, PASSWORD, { otp_attempt: attempt });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("Incorrect verification code");
    }
  });

  it("accepts a code once; its replay and older codes are refused; the next step's code works", async () => {
    await advanceClock(emu, 60); // a fresh step, after any code used by another test
    const code = await otp();
    const ok = await login(USERS.twoFactor, PASSWORD, { otp_attempt: code });
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toBeTruthy();

    const replay = await login(USERS.twoFactor, PASSWORD, { otp_attempt: code });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe("Incorrect verification code");

    const previous = await login(USERS.twoFactor, PASSWORD, { otp_attempt: await otp(-1) });
    expect(previous.status).toBe(401);

    // The next step's code is within the +/-1 step drift and has not been used.
    const next = await login(USERS.twoFactor, PASSWORD, { otp_attempt: await otp(1) });
    expect(next.status).toBe(200);
  });

  it("refuses codes more than one step away", async () => {
    await advanceClock(emu, 300);
    for (const steps of [-3, 3]) {
      const res = await login(USERS.twoFactor, PASSWORD, { otp_attempt: await otp(steps) });
      expect(res.status).toBe(401);
    }
  });

  it("accepts a code one step in the past (clock drift)", async () => {
    await advanceClock(emu, 120);
    const res = await login(USERS.twoFactor, PASSWORD, { otp_attempt: await otp(-1) });
    expect(res.status).toBe(200);
  });
});

describe("POST /jwt/refresh", () => {
  it("rotates: a new pair, and the old refresh token is spent", async () => {
    const first = await login(USERS.owner);
    const second = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ token_type: "Bearer", expires_in: 900 });
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await api(emu, "GET", "/me", { token: `Bearer ${second.body.access_token}` })).status).toBe(200);

    const third = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: second.body.refresh_token } });
    expect(third.status).toBe(200);
  });

  it("detects reuse of a rotated token and revokes the whole family", async () => {
    const first = await login(USERS.owner);
    const second = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);

    const reuse = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: first.body.refresh_token } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.error).toBe("revoked token");

    // The legitimate latest token of the family is dead too, and so are the family's access tokens.
    const latest = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: second.body.refresh_token } });
    expect(latest.status).toBe(401);
    expect(latest.body.error).toBe("revoked token");
    const me = await api(emu, "GET", "/me", { token: `Bearer ${second.body.access_token}` });
    expect(me.status).toBe(401);
    expect(me.body.error).toBe("revoked token");

    // Another login (another family) is unaffected.
    expect((await login(USERS.owner)).status).toBe(200);
  });

  it("refuses an unknown refresh token without an Authorization header", async () => {
    const res = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: "sor_notarealtoken" } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("You need to sign in or sign up before continuing.");
  });
});

describe("POST /jwt/revoke", () => {
  it("revokes an access token: later requests with it are 401 revoked token", async () => {
    const pair = (await login(USERS.admin)).body;
    const bearer = `Bearer ${pair.access_token}`;
    const res = await api(emu, "POST", "/jwt/revoke", { token: bearer, body: { token: pair.access_token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: true });
    const me = await api(emu, "GET", "/me", { token: bearer });
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ error: "revoked token" });
  });

  it("revokes a refresh token: refreshing with it is 401", async () => {
    const pair = (await login(USERS.admin)).body;
    const other = (await login(USERS.admin)).body;
    const res = await api(emu, "POST", "/jwt/revoke", { token: `Bearer ${other.access_token}`, body: { token: pair.refresh_token } });
    expect(res.body).toEqual({ revoked: true });
    const refresh = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: pair.refresh_token } });
    expect(refresh.status).toBe(401);
    expect(refresh.body.error).toBe("revoked token");
  });

  it("answers 200 for an unknown token (RFC 7009) and does not let one user revoke another's", async () => {
    const mine = (await login(USERS.admin)).body;
    const theirs = (await login(USERS.owner)).body;
    const bearer = `Bearer ${mine.access_token}`;
    for (const token of ["garbage", "a.b.c", theirs.access_token, theirs.refresh_token]) {
      const res = await api(emu, "POST", "/jwt/revoke", { token: bearer, body: { token } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ revoked: true });
    }
    expect((await api(emu, "GET", "/me", { token: `Bearer ${theirs.access_token}` })).status).toBe(200);
    expect((await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: theirs.refresh_token } })).status).toBe(200);
  });

  it("needs authentication", async () => {
    const res = await api(emu, "POST", "/jwt/revoke", { body: { token: "x" } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("You need to sign in or sign up before continuing.");
  });
});

describe("expiry on the emulator clock", () => {
  it("expires access tokens after 900 s and refresh tokens after 7 days", async () => {
    const pair = (await login(USERS.owner)).body;
    const bearer = `Bearer ${pair.access_token}`;
    expect((await api(emu, "GET", "/me", { token: bearer })).status).toBe(200);

    await advanceClock(emu, 901);
    const expired = await api(emu, "GET", "/me", { token: bearer });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: "Signature has expired" });

    // The refresh token still works and gives a fresh access token.
    const refreshed = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: pair.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect((await api(emu, "GET", "/me", { token: `Bearer ${refreshed.body.access_token}` })).status).toBe(200);

    await advanceClock(emu, 7 * 86_400 + 1);
    const late = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: refreshed.body.refresh_token } });
    expect(late.status).toBe(401);
    expect(late.body.error).toBe("Signature has expired");
  });
});

describe("POST and DELETE /auth (API tokens for native clients)", () => {
  it("logs in with 201 {token, user}; the token works until DELETE /auth revokes it", async () => {
    const res = await api(emu, "POST", "/auth", { body: { email: USERS.member, password: PASSWORD, name: "My phone" } });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^sot_[A-Za-z0-9]{16,}$/);
    expect(res.body.user).toMatchObject({ email: USERS.member, name: "Mia Member", role: "member", two_factor_enabled: false });
    expect(res.body.user.id).toMatch(/^usr_/);

    const token = res.body.token as string;
    expect((await api(emu, "GET", "/me", { token })).status).toBe(200);
    const out = await api(emu, "DELETE", "/auth", { token });
    expect(out.status).toBe(204);
    expect(out.text).toBe("");
    const after = await api(emu, "GET", "/me", { token });
    expect(after.status).toBe(401);

    // Other tokens of that user are untouched.
    expect((await api(emu, "GET", "/me", { token: TOKENS.member })).status).toBe(200);
  });

  it("refuses wrong credentials and asks 2FA users for their code", async () => {
    const wrong = await api(emu, "POST", "/auth", { body: { email: USERS.member, password: "nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("Invalid email or password");
    const otpMissing = await api(emu, "POST", "/auth", { body: { email: USERS.twoFactor, password: PASSWORD } });
    expect(otpMissing.status).toBe(422);
    expect(otpMissing.body.error).toBe("otp_attempt_required");
    await advanceClock(emu, 90);
    const ok = await api(emu, "POST", "/auth", { body: { email: USERS.twoFactor, password: PASSWORD, otp_attempt: await otp() } });
    expect(ok.status).toBe(201);
    expect(ok.body.user.two_factor_enabled).toBe(true);
  });

  it("DELETE /auth with a JWT revokes that access token", async () => {
    const pair = (await login(USERS.owner)).body;
    const bearer = `Bearer ${pair.access_token}`;
    expect((await api(emu, "DELETE", "/auth", { token: bearer })).status).toBe(204);
    expect((await api(emu, "GET", "/me", { token: bearer })).body.error).toBe("revoked token");
  });

  it("needs authentication to log out", async () => {
    expect((await api(emu, "DELETE", "/auth")).status).toBe(401);
  });

  it("refuses unknown and malformed credentials with the docs/design.md message", async () => {
    for (const authorization of ["token sot_unknown0000000000000000", "Bearer not-a-jwt", "Basic abc", "token"]) {
      const res = await api(emu, "GET", "/me", { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "You need to sign in or sign up before continuing." });
    }
  });
});
