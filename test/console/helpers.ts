// Browser tests of the web console: Debian's Chromium driven by playwright-core (no browser download),
// one browser per test file, an emulator with the standard seed, sign-in helpers and screenshots under
// .tmp/console/. Without Chromium the tests skip with a message, except in CI (.ci/run installs it).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { generate } from "otplib";
import { chromium, type Browser, type Page } from "playwright-core";
import type { EmulatorOptions, RunningEmulator } from "../../emulator/index.js";
import { OTP_SECRET, PASSWORD, startTestEmulator } from "../emulator/helpers.js";
import { CHROMIUM, haveChromium as haveBrowser } from "../support/chromium.js";

export { PASSWORD, TOKENS, USERS } from "../emulator/helpers.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SCREENSHOTS = path.join(ROOT, ".tmp", "console");

/** True when the browser tests can run (test/support/chromium.ts: in CI a missing Chromium fails the file). */
export const haveChromium = (): boolean => haveBrowser("test/console");

export interface ConsoleEnv {
  emu: RunningEmulator;
  browser: Browser;
}

/** An emulator (the standard seed, or `options`' seed) and one Chromium for the file's tests, started before and
 * closed after them. */
export function useConsoleEnv(options: EmulatorOptions = {}): ConsoleEnv {
  const env = {} as ConsoleEnv;
  beforeAll(async () => {
    // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
    const browser = chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
    [env.emu, env.browser] = await Promise.all([startTestEmulator({ allowPrivateWebhookTargets: true, ...options }), browser]);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.emu?.close();
  });
  return env;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The current TOTP code on the emulator's clock. */
export function otpCode(emu: RunningEmulator, offsetSteps = 0): Promise<string> {
  return generate({ secret: OTP_SECRET, epoch: Math.floor(emu.context.clock.nowMs() / 1000) + offsetSteps * 30 });
}

/** Signs in through the form (and the 2FA form when `otp` is given); returns the page, on /sites. */
export async function signIn(page: Page, emu: RunningEmulator, email: string, opts: { password?: string; otp?: string } = {}): Promise<void> {
  await page.goto(`${emu.url}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(opts.password ?? PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (opts.otp !== undefined) {
    await page.getByLabel("Verification code").fill(opts.otp);
    await page.getByRole("button", { name: "Verify" }).click();
  }
  await page.waitForURL(`${emu.url}/sites`);
}

/** The page's own CSRF token (every signed-in page has one in its sign-out form). */
export function csrfOf(page: Page): Promise<string> {
  return page.locator('input[name="_csrf"]').first().inputValue();
}

/** A form post from inside the page (same origin, its cookies), as a hand-made form would send it. */
export function postForm(page: Page, url: string, fields: Record<string, string>): Promise<{ status: number; text: string }> {
  return page.evaluate(
    async ([u, f]) => {
      const res = await fetch(u, { method: "POST", body: new URLSearchParams(f), redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    [url, fields] as const,
  );
}
