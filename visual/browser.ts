// The browser the pages are captured in: the machine's own Chrome or Chromium (nothing is downloaded), driven by
// playwright-core. Which one: `--browser PATH` (the action's `browser`), else $SITEOPS_BROWSER, else the first of the usual names on PATH
// and the usual install places (Chrome on GitHub's runners, the distribution's chromium, Chrome on macOS and
// Windows). Each way it can be missing ends in one line that says how to get it.

import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import type { HttpGateLookup } from "../src/fleet.js";
import { type GuardedProxy, type ProxyProblem, startGuardedProxy } from "./guarded-proxy.js";

/** Why the visual check cannot run at all: no browser, no playwright-core, a browser that does not start. */
export class VisualSetupError extends Error {
  override readonly name = "VisualSetupError";
  readonly code: "BROWSER_NOT_FOUND" | "PLAYWRIGHT_MISSING" | "BROWSER_FAILED";
  constructor(code: VisualSetupError["code"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Names looked up on PATH, in order: Chrome as GitHub's runners install it, then the distributions' Chromium. */
const ON_PATH = ["google-chrome", "google-chrome-stable", "chromium", "chromium-browser", "chrome"];

/** Where Chrome and Chromium install themselves outside PATH. */
function installPlaces(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform === "darwin") return ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"];
  if (platform === "win32")
    return [env.PROGRAMFILES, env["PROGRAMFILES(X86)"], env.LOCALAPPDATA]
      .filter((dir): dir is string => Boolean(dir))
      .map((dir) => path.join(dir, "Google", "Chrome", "Application", "chrome.exe"));
  return ["/opt/google/chrome/chrome", "/usr/lib/chromium/chromium", "/snap/bin/chromium"];
}

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** How to get a browser, in one phrase: what the error lines end with; `flag` as the surface names its option (the
 * CLI's `--browser`, the action's `'browser'`). */
export function howToGetABrowser(flag = "--browser"): string {
  return `install Chrome or Chromium (Debian, Ubuntu: apt-get install chromium; macOS: brew install --cask chromium) or give its path with ${flag} or SITEOPS_BROWSER`;
}

/**
 * The browser's executable: `explicit` (a flag or an input), else $SITEOPS_BROWSER, else the first found of the
 * usual names on PATH and install places. Throws a VisualSetupError (`BROWSER_NOT_FOUND`) saying how to get one.
 */
export function findBrowser(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  flag = "--browser",
): string {
  const given = explicit ?? (env.SITEOPS_BROWSER || undefined);
  if (given !== undefined) {
    const from = explicit !== undefined ? flag : "SITEOPS_BROWSER";
    if (!executable(given))
      throw new VisualSetupError("BROWSER_NOT_FOUND", `${from} ${JSON.stringify(given)} is not an executable file: ${howToGetABrowser(flag)}`);
    return given;
  }
  const dirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const suffixes = platform === "win32" ? [".exe", ""] : [""];
  for (const name of ON_PATH)
    for (const dir of dirs)
      for (const suffix of suffixes) {
        const file = path.join(dir, name + suffix);
        if (executable(file)) return file;
      }
  const placed = installPlaces(env, platform).find(executable);
  if (placed) return placed;
  throw new VisualSetupError("BROWSER_NOT_FOUND", `no Chrome or Chromium found (looked for ${ON_PATH.join(", ")} on PATH): ${howToGetABrowser(flag)}`);
}

/** The one line that says how to install playwright-core where this package finds it. */
export const HOW_TO_GET_PLAYWRIGHT =
  "the visual check drives the browser with playwright-core, an optional peer dependency of siteops (no browser is downloaded): install it beside siteops, npm i playwright-core (with a global siteops: npm i -g playwright-core)";

type Chromium = typeof import("playwright-core").chromium;

/** playwright-core's Chromium launcher, imported now (never at start-up). */
async function loadChromium(): Promise<Chromium> {
  try {
    return (await import("playwright-core")).chromium;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw new VisualSetupError("PLAYWRIGHT_MISSING", HOW_TO_GET_PLAYWRIGHT, { cause: err });
    throw err;
  }
}

/** A running browser and what it is. */
export interface VisualBrowser {
  readonly browser: Browser;
  /** `Chromium 156.0.8078.108` (the product and version the browser reports). */
  readonly version: string;
  readonly executable: string;
  /** Why the guarded proxy refused the host of `url`, or why its latest connection there failed (guarded-proxy.ts). */
  proxyProblem(url: string): ProxyProblem | undefined;
  close(): Promise<void>;
}

/**
 * Starts the browser headless: playwright-core first (what the package lacks is said before what the machine
 * lacks), then the executable (findBrowser). Playwright passes --no-sandbox by default (its chromiumSandbox option
 * is off): CI containers run as root, where Chromium's sandbox cannot start. /dev/shm is small in containers (64 MB
 * in Docker), too small for full-page shots: --disable-dev-shm-usage keeps shared memory in /tmp. Every request
 * goes through the guarded proxy (guarded-proxy.ts), loopback too: `<-loopback>` subtracts Chromium's implicit
 * bypass, which covers link-local literals (169.254/16, fe80::/10) besides loopback; the proxy allows loopback as
 * the HTTP gate does. `flag`: how the surface names the browser option in its messages (default `--browser`);
 * `lookup`: the proxy's resolver (node:dns's by default).
 */
export async function launchBrowser(
  explicit: string | undefined,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; flag?: string; lookup?: HttpGateLookup } = {},
): Promise<VisualBrowser> {
  const chromium = await loadChromium();
  const executablePath = findBrowser(explicit, options.env, process.platform, options.flag);
  const proxy: GuardedProxy = await startGuardedProxy(options.lookup);
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ["--disable-dev-shm-usage", "--hide-scrollbars", "--font-render-hinting=none", "--disable-lcd-text"],
      proxy: { server: proxy.server, bypass: "<-loopback>" },
      timeout: options.timeoutMs ?? 60_000,
    });
  } catch (err) {
    await proxy.close();
    const first = String((err as Error).message ?? err)
      .split("\n")
      .find((line) => line.trim() !== "");
    throw new VisualSetupError("BROWSER_FAILED", `the browser ${executablePath} did not start (${first?.trim()}): ${howToGetABrowser(options.flag)}`, {
      cause: err,
    });
  }
  browser.on("disconnected", () => void proxy.close());
  return {
    browser,
    version: `Chromium ${browser.version()}`,
    executable: executablePath,
    proxyProblem: (url) => proxy.problem(url),
    close: () => browser.close().finally(() => proxy.close()),
  };
}
