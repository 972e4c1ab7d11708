// The visual check in the CLI: its flags, declared and read once for `siteops visual capture|compare` and
// `siteops upgrade rollout --gate visual`, and its engine (visual/), loaded only when one of them runs. In the
// installed package the engine is its own module beside the bundle, dist/cli/visual.mjs (scripts/build-cli.mjs),
// which imports playwright-core from the user's install: none of it is read at start-up.

import { flagInt, flagList, flagString, type FlagSpec, type Parsed } from "./args.js";
import type { Context } from "./context.js";
import { parseDuration } from "./duration.js";
import { CliError, EXIT, UsageError } from "./exit-codes.js";
import {
  DEFAULT_PAGE_TIMEOUT_MS,
  DEFAULT_VISUAL_CONCURRENCY,
  DEFAULT_VISUAL_THRESHOLD,
  MAX_VISUAL_PATHS,
  parsePagePath,
  parseSelector,
  parseThreshold,
  parseViewports,
  VisualSettingsError,
  type VisualSettings,
} from "../src/fleet.js";
import type { VisualBrowser } from "../visual/index.js";

type Engine = typeof import("../visual/index.js");

/** How the pages are shot: the viewports and the masks (the baseline's, for `compare`). */
export const VISUAL_RULE_FLAGS: FlagSpec[] = [
  {
    name: "viewport",
    type: "string",
    multiple: true,
    value: "NAME",
    description: "desktop (1280x800), mobile (390x844), WIDTHxHEIGHT or mobile:WIDTHxHEIGHT (repeatable; default desktop and mobile)",
  },
  {
    name: "visual-ignore",
    type: "string",
    multiple: true,
    value: "SELECTOR",
    description: "a CSS selector painted over in every shot: dates, carousels, ads (repeatable)",
  },
];

export const VISUAL_THRESHOLD_FLAG: FlagSpec = {
  name: "visual-threshold",
  type: "string",
  value: "PERCENT",
  description: `the share of a page's pixels that may change before it fails, in percent (default ${DEFAULT_VISUAL_THRESHOLD})`,
};

/** The browser and the time a page may take. */
export const VISUAL_BROWSER_FLAGS: FlagSpec[] = [
  {
    name: "browser",
    type: "string",
    value: "PATH",
    description: "the Chrome or Chromium to drive (default $SITEOPS_BROWSER, else google-chrome or chromium on PATH)",
  },
  {
    name: "visual-timeout",
    type: "string",
    value: "DURATION",
    description: `how long one page may take to load, settle and be shot (default ${DEFAULT_PAGE_TIMEOUT_MS / 1000}s)`,
  },
];

/** A flag's value through one of visual/settings.ts's parsers: a refusal is a usage error naming the flag. */
function read<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof VisualSettingsError) throw new UsageError(`--${flag} ${err.message}`);
    throw err;
  }
}

/** --visual-threshold, in percent. */
export function thresholdOf(parsed: Parsed): number {
  const text = flagString(parsed, "visual-threshold");
  return text === undefined ? DEFAULT_VISUAL_THRESHOLD : read("visual-threshold", () => parseThreshold(text));
}

/** --visual-timeout and --concurrency (pages at a time; `concurrency: false` when the command's --concurrency
 * means something else, as the rollout's sites in flight). */
export function visualLimits(parsed: Parsed, options: { concurrency: boolean }): Pick<VisualSettings, "timeoutMs" | "concurrency"> {
  const timeout = flagString(parsed, "visual-timeout");
  return {
    timeoutMs: timeout === undefined ? DEFAULT_PAGE_TIMEOUT_MS : parseDuration(timeout, "--visual-timeout"),
    concurrency: (options.concurrency ? flagInt(parsed, "concurrency", 1, 32) : undefined) ?? DEFAULT_VISUAL_CONCURRENCY,
  };
}

/** Every visual setting from the flags: `paths` are the command's (--check-path), checked here. */
export function visualSettings(parsed: Parsed, paths: readonly string[], options: { concurrency: boolean }): VisualSettings {
  const checked = paths.map((p) => read("check-path", () => parsePagePath(p)));
  if (checked.length > MAX_VISUAL_PATHS) throw new UsageError(`--check-path: at most ${MAX_VISUAL_PATHS} paths per site (each is a shot per viewport)`);
  return {
    paths: checked.length ? [...new Set(checked)] : ["/"],
    viewports: read("viewport", () => parseViewports(flagList(parsed, "viewport"))),
    ignore: flagList(parsed, "visual-ignore").map((s) => read("visual-ignore", () => parseSelector(s))),
    threshold: thresholdOf(parsed),
    ...visualLimits(parsed, options),
  };
}

/** The engine (visual/), imported now. */
export function loadVisual(): Promise<Engine> {
  return import("../visual/index.js");
}

/** Finds and starts the browser (--browser, $SITEOPS_BROWSER, else the machine's); playwright-core or a browser
 * that is missing or does not start is one line and exit 2. Called before any request: nothing is asked of the
 * service for a check that cannot run. */
export async function startBrowser(ctx: Context, browser: string | undefined, engine: Engine): Promise<VisualBrowser> {
  try {
    return await engine.launchBrowser(browser, { env: ctx.env });
  } catch (err) {
    if (err instanceof engine.VisualSetupError) throw new CliError(err.message, EXIT.USAGE);
    throw err;
  }
}
