// `siteops auth login|status|logout` and where credentials come from: a 0600 config file per profile and base
// URL, the environment winning over it, two-factor logins, and the token never printed.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER_TOKEN, OTP_SECRET, PASSWORD, startTestEmulator, totp, type TestEmulator } from "../core/helpers.js";
import { json, runCli, sandbox, transcripts, type Sandbox } from "./helpers.js";

let emu: TestEmulator;
const boxes: Sandbox[] = [];
const createdTokens: string[] = [];

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  for (const b of boxes) b.cleanup();
  await emu.close();
  for (const text of transcripts) {
    expect(text).not.toContain(OWNER_TOKEN);
    expect(text).not.toContain(PASSWORD);
    for (const token of createdTokens) expect(text).not.toContain(token);
  }
});

function box(): Sandbox {
  const b = sandbox();
  boxes.push(b);
  return b;
}

function savedToken(b: Sandbox, profile = "default"): string | undefined {
  return (JSON.parse(readFileSync(b.configFile, "utf8")) as { profiles: Record<string, { api_token?: string }> }).profiles[profile]?.api_token;
}

describe("auth", () => {
  it("--with-token saves the token 0600 for that base URL; status shows who, never the token", async () => {
    const b = box();
    const login = await runCli(["auth", "login", "--base-url", emu.url, "--with-token"], { env: b.env, input: `${OWNER_TOKEN}\n` });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+ as owner@acme\.test \(profile "default"/);
    expect(statSync(b.configFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(b.configFile)).mode & 0o777).toBe(0o700);
    expect(savedToken(b)).toBe(OWNER_TOKEN);

    const status = await runCli(["auth", "status", "--json"], { env: b.env });
    expect(status.code).toBe(0);
    expect(json(status)).toMatchObject({
      profile: "default",
      base_url: emu.url,
      token_source: "config",
      token: "sot_********",
      user: { email: "owner@acme.test" },
    });
    const human = await runCli(["auth", "status"], { env: b.env });
    expect(human.stdout).toMatch(/user\towner@acme\.test \(Olive Owner, owner\)/);
    expect(json<{ name: string }[]>(await runCli(["sites", "list", "--json"], { env: b.env })).map((s) => s.name)).toContain("Blog");

    // A token given with --with-token may be shared (a CI secret): logout forgets it without revoking it.
    const logout = await runCli(["auth", "logout"], { env: b.env });
    expect(logout.code).toBe(0);
    expect(savedToken(b)).toBeUndefined();
    expect((await emu.client({ apiToken: OWNER_TOKEN }).me()).email).toBe("owner@acme.test");
    const after = await runCli(["sites", "list"], { env: b.env });
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/not logged in to http:\/\/127\.0\.0\.1:\d+ \(profile "default"\): run siteops auth login/);
  });

  it("email and password create a token for this machine, which logout revokes", async () => {
    const b = box();
    const login = await runCli(["auth", "login", "--base-url", emu.url, "--email", "owner@acme.test", "--password-stdin"], { env: b.env, input: PASSWORD });
    expect(login.code).toBe(0);
    const token = savedToken(b)!;
    createdTokens.push(token);
    expect(token).toMatch(/^sot_/);
    expect(token).not.toBe(OWNER_TOKEN);
    expect((await runCli(["me", "--json=email"], { env: b.env })).stdout).toContain("owner@acme.test");
    const logout = await runCli(["auth", "logout"], { env: b.env });
    expect(logout.stderr).toMatch(/the token was revoked/);
    const revoked = await emu
      .client({ apiToken: token })
      .me()
      .catch((e: unknown) => e);
    expect((revoked as { status?: number }).status).toBe(401);
  });

  it("a wrong password says to check the email and password, not auth status", async () => {
    const b = box();
    const r = await runCli(["auth", "login", "--base-url", emu.url, "--email", "owner@acme.test", "--password-stdin"], {
      env: b.env,
      input: "not-the-password",
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/401.*Check the email and password\.\n$/);
    expect(r.stderr).not.toContain("auth status");
    expect(existsSync(b.configFile)).toBe(false); // nothing saved
  });

  it("asks for --otp when the user has two-factor authentication, and logs in with it", async () => {
    const b = box();
    const args = ["auth", "login", "--base-url", emu.url, "--email", "2fa@acme.test", "--password-stdin"];
    const without = await runCli(args, { env: b.env, input: PASSWORD });
    expect(without.code).toBe(3);
    expect(without.stderr).toMatch(/two-factor authentication: pass --otp CODE/);
    const withOtp = await runCli([...args, "--otp", totp(OTP_SECRET, emu.now())], { env: b.env, input: PASSWORD });
    expect(withOtp.code).toBe(0);
    createdTokens.push(savedToken(b)!);
    expect(json(await runCli(["me", "--json=email"], { env: b.env }))).toEqual({ email: "2fa@acme.test" });
  });

  it("keeps profiles apart, and never sends a profile's token to another base URL", async () => {
    const b = box();
    await runCli(["auth", "login", "--profile", "acme", "--base-url", emu.url, "--with-token"], { env: b.env, input: OWNER_TOKEN });
    expect((await runCli(["sites", "list"], { env: b.env })).code).toBe(3); // "default" is not logged in
    expect((await runCli(["sites", "list", "--profile", "acme"], { env: b.env })).code).toBe(0);
    expect((await runCli(["sites", "list"], { env: { ...b.env, SITEOPS_PROFILE: "acme" } })).code).toBe(0);
    const elsewhere = await runCli(["sites", "list", "--profile", "acme"], { env: { ...b.env, SITEOPS_BASE_URL: "http://127.0.0.1:9" } });
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toMatch(/not logged in to http:\/\/127\.0\.0\.1:9 \(profile "acme"\)/);
  });

  it("SITEOPS_BASE_URL and SITEOPS_API_TOKEN win over the config file, which is then not read", async () => {
    const b = box();
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(path.dirname(b.configFile), { recursive: true, mode: 0o700 });
    writeFileSync(b.configFile, "{ not json", { mode: 0o600 });
    const r = await runCli(["me", "--json=email"], { env: { ...b.env, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: OWNER_TOKEN } });
    expect(r.code).toBe(0);
    const refused = await runCli(["auth", "status"], { env: { ...b.env, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: "sot_revokedOrWrong00000000" } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/SITEOPS_API_TOKEN is refused by http/);
  });
});
