// Issue 38 item 10 (the cookie part): under an https public URL the console's cookies are Secure, and so is
// every Set-Cookie that clears one (sign-out's session cookie, the 2FA sign-in's pending cookie): a clearing
// cookie without the attributes of the one it clears is a different cookie to a strict browser.
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { OTP_SECRET, PASSWORD, USERS, startTestEmulator } from "../emulator/helpers.js";
import { ConsoleClient } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ loginThrottle: null, publicUrl: "https://siteops.example" });
});
afterAll(async () => emu?.close());

/** The Set-Cookie line of `name` in an answer. */
function setCookie(res: { headers: Record<string, string | string[] | undefined> }, name: string): string | undefined {
  const lines = res.headers["set-cookie"];
  return (Array.isArray(lines) ? lines : lines ? [lines] : []).find((c) => c.startsWith(`${name}=`));
}

describe("clearing a console cookie under an https public URL", () => {
  it("sign-out's Set-Cookie clearing the session is Secure, HttpOnly and SameSite=Lax like the sign-in's", async () => {
    const browser = new ConsoleClient(emu.port);
    const signedIn = await browser.request("POST", "/sign-in", { email: USERS.admin, password: PASSWORD, _csrf: await browser.csrf("/sign-in") });
    expect(setCookie(signedIn, "siteops_session")).toMatch(/;\s*Secure/i);
    const out = await browser.request("POST", "/sign-out", { _csrf: await browser.csrf("/sites") });
    expect(out.status).toBe(303);
    const cleared = setCookie(out, "siteops_session");
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);
    expect(cleared).toMatch(/;\s*Secure/i);
    expect(cleared).toMatch(/;\s*HttpOnly/i);
    expect(cleared).toMatch(/;\s*SameSite=Lax/i);
  });

  it("the 2FA sign-in's pending cookie is set and cleared Secure", async () => {
    const browser = new ConsoleClient(emu.port);
    const asked = await browser.request("POST", "/sign-in", { email: USERS.twoFactor, password: PASSWORD, _csrf: await browser.csrf("/sign-in") });
    const pending = (asked.headers["set-cookie"] as string[] | undefined)?.find((c) => !c.startsWith("_csrf="));
    expect(pending).toMatch(/;\s*Secure/i);
    const name = pending!.slice(0, pending!.indexOf("="));
    const code = await generate({ secret: OTP_SECRET, epoch: Math.floor(emu.context.clock.nowMs() / 1000) });
    const done = await browser.request("POST", "/sign-in/otp", { otp_attempt: code, _csrf: await browser.csrf("/sign-in") });
    expect(done.status).toBe(303);
    const cleared = setCookie(done, name);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);
    expect(cleared).toMatch(/;\s*Secure/i);
  });
});
