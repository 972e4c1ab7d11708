// Issue 26 findings 4 and 11: raw control characters never reach stored data, whichever door they come in by
// (the API, the web console, a seed), and a seed that would lock a user out (a 2FA secret shorter than the
// OTP library accepts) is refused when it loads, naming the field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { PASSWORD, TOKENS, USERS, advanceClock, api, standardSeed, startTestEmulator } from "../emulator/helpers.js";
import { ConsoleClient } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => emu?.close());

const CONTROL = { ESC: "\x1b[2J", C1: "\x9b", NUL: "\x00", DEL: "\x7f", RLO: "\u202e", LRI: "\u2066" };

describe("site and webhook URLs", () => {
  for (const [what, ch] of Object.entries(CONTROL)) {
    it(`a site URL with ${what} in the path is refused`, async () => {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: `ctl ${what}`, url: `https://ctl.example/a${ch}b` } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ url: ["must not contain control characters"] });
    });

    it(`a webhook URL with ${what} in the path is refused`, async () => {
      const res = await api(emu, "POST", "/webhook_endpoints", {
        token: TOKENS.owner,
        body: { url: `https://hooks.example/x${ch}y`, enabled_events: ["site.created"] },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ url: ["must not contain control characters"] });
    });
  }

  it("a site URL changed to one with a control character is refused too", async () => {
    const created = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "ctl patch", url: "https://ctl-patch.example/" } });
    expect(created.status).toBe(201);
    const res = await api(emu, "PATCH", `/sites/${created.body.id}`, { token: TOKENS.owner, body: { url: "https://ctl-patch.example/\u202eevil" } });
    expect(res.status).toBe(422);
  });
});

describe("the web console refuses what the API refuses", () => {
  it("a token name with CR LF is refused and no token is made; activity never shows it", async () => {
    const browser = new ConsoleClient(emu.port);
    await browser.signIn(USERS.admin, PASSWORD);
    const name = "x\r\n::error::forged";
    const res = await browser.request("POST", "/settings/api/tokens", { name, _csrf: await browser.csrf("/settings/api") });
    expect(res.status).toBe(422);
    expect(res.text).toContain("must not contain control characters");
    expect(res.text).not.toMatch(/sot_[A-Za-z0-9]{20,}/);
    const tokens = await api(emu, "GET", "/auth", { token: TOKENS.admin });
    if (tokens.status === 200) expect(JSON.stringify(tokens.body)).not.toContain("forged");
    const logs = await api(emu, "GET", "/activity_logs?per_page=100", { token: TOKENS.owner });
    expect(JSON.stringify(logs.body)).not.toContain("::error::forged");
  });

  it("an approve comment with a newline and ESC is refused; the pipeline stays awaiting approval", async () => {
    const site = (
      await api(emu, "POST", "/sites", {
        token: TOKENS.owner,
        body: { name: "Approve me", url: "https://approve.example", wp_version: "6.4", php_version: "8.1" },
      })
    ).body;
    const pipeline = await api(emu, "POST", `/sites/${site.id}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.9" } });
    expect(pipeline.status).toBe(201);
    for (let i = 0; i < 20; i++) {
      const now = await api(emu, "GET", `/sites/${site.id}/upgrade_pipelines/${pipeline.body.id}`, { token: TOKENS.owner });
      if (now.body.status === "awaiting_approval") break;
      await advanceClock(emu, 60);
    }
    const browser = new ConsoleClient(emu.port);
    await browser.signIn(USERS.admin, PASSWORD);
    const res = await browser.request("POST", `/sites/${site.id}/pipelines/${pipeline.body.id}/approve`, {
      comment: "ok\n::error title=x::forged\x1b[2J",
      _csrf: await browser.csrf(`/sites/${site.id}`),
    });
    expect(res.status).toBe(422);
    const after = await api(emu, "GET", `/sites/${site.id}/upgrade_pipelines/${pipeline.body.id}`, { token: TOKENS.owner });
    expect(after.body.status).toBe("awaiting_approval");
    expect(JSON.stringify(after.body)).not.toContain("forged");
  });
});

describe("seeds", () => {
  it("a 10-byte 2FA secret is refused when the seed loads, with the field's path", async () => {
    const seed = standardSeed();
    const user = seed.accounts[0]!.users.find((u) => u.otp_secret)!;
    user.otp_secret = "JBSWY3DPEHPK3PXP"; // 16 base32 characters: 10 bytes
    const index = seed.accounts[0]!.users.indexOf(user);
    await expect(startEmulator({ port: 0, host: "127.0.0.1", seed })).rejects.toThrow(
      `seed: accounts[0].users[${index}].otp_secret is 10 bytes: it must be at least 16 bytes (26 base32 characters)`,
    );
  });
});
