// The options a person gives a rollout, declared once: each one's name as a CLI flag and as an action input, what it
// is, its default and how it is read and checked. The CLI's flags and help (cli/commands/upgrade/rollout.ts) and the
// action's inputs (action/src/input-rollout.ts; action.yml checked against it by test/action/rollout-inputs.test.ts)
// are derived from ROLLOUT_OPTIONS, and both read their values through readRolloutSettings (rollout-settings.ts): one
// set of defaults, one set of checks, each problem naming the option as that surface spells it.

import { formatDurationText } from "../../common/format.js";
import { DEFAULT_CHECK_BUDGET_MS, DEFAULT_ROLLOUT_GATES, ROLLOUT_GATES } from "./rollout-gates.js";
import { DEFAULT_WAVES } from "./rollout-plan.js";
import type { RolloutSettings } from "./rollout-types.js";
import { DEFAULT_PAGE_TIMEOUT_MS, DEFAULT_VIEWPORTS, DEFAULT_VISUAL_THRESHOLD } from "./visual-settings.js";

/** Pipelines opened and followed at a time within a wave unless `concurrency` says otherwise. */
export const DEFAULT_ROLLOUT_CONCURRENCY = 8;
/** The most sites in flight at a time within a wave. */
export const MAX_ROLLOUT_CONCURRENCY = 64;
/** How long a wave may take (pipelines, then checks) unless `waveTimeout` says otherwise. */
export const DEFAULT_WAVE_TIMEOUT_MS = 60 * 60_000;
/** How long to wait for a health check after an upgrade unless `healthWait` says otherwise. */
export const DEFAULT_HEALTH_WAIT_MS = 10 * 60_000;
/** How long a pipeline may sit in a state siteops does not know, nothing changing, unless `unknownStateWait` says
 * otherwise: long enough for a slow pre-upgrade snapshot, well short of a wave's hour. */
export const DEFAULT_UNKNOWN_STATE_WAIT_MS = 10 * 60_000;
/** The `http` gate's path unless `checkPaths` says otherwise. */
export const DEFAULT_CHECK_PATH = "/";
/** A wave fails on its first failure unless `maxFailures` says otherwise. */
export const DEFAULT_MAX_FAILURES = "0";
/** The longest any duration option may be unless its declaration says otherwise. */
export const DAY_MS = 24 * 60 * 60_000;

/** What an option's value is, which says how it is read and checked. */
export type RolloutOptionKind =
  | "version"
  | "waves"
  | "budget"
  | "gates"
  | "paths"
  | "duration"
  | "count"
  | "boolean"
  | "viewports"
  | "selectors"
  | "percent"
  | "file";

/** One option as a person writes it. */
export interface RolloutOptionDeclaration {
  /** The setting it gives. */
  key: keyof RolloutSettings | "wp" | "php" | "dryRun";
  /** The CLI's flag, without dashes. */
  flag: string;
  /** The CLI's one-letter flag. */
  short?: string;
  /** The GitHub Action's input. */
  input: string;
  /** The value's placeholder in the CLI's help. */
  value?: string;
  kind: RolloutOptionKind;
  /** What it is, for the CLI's help and the action's input description (the default is added by each). */
  description: string;
  /** Given several times (the CLI) or as a list (the action: commas or newlines). */
  list?: boolean;
  /** Durations: the action's inputs take a number of this unit (`pause-minutes: 10`); the CLI's flags a duration. */
  unit?: "seconds" | "minutes";
  /** Durations: 0 is allowed (off). Counts: the least. */
  min?: number;
  /** Durations (ms) and counts: the most. */
  max?: number;
  /** The default, in the setting's own terms (ms for durations); undefined: none. */
  default?: string | number | boolean | readonly string[];
}

/** Every option of `siteops upgrade rollout` and `command: rollout`, in the order help lists them. */
export const ROLLOUT_OPTIONS: readonly RolloutOptionDeclaration[] = [
  { key: "wp", flag: "to-wp", input: "wp-version", value: "X.Y", kind: "version", description: "the WordPress version to upgrade to (major.minor, e.g. 6.8)" },
  { key: "php", flag: "to-php", input: "php-version", value: "X.Y", kind: "version", description: "the PHP version to upgrade to (major.minor, e.g. 8.3)" },
  {
    key: "waves",
    flag: "waves",
    input: "waves",
    value: "LIST",
    kind: "waves",
    default: DEFAULT_WAVES,
    description:
      "the waves, cumulative: each the number (10) or share (10%) of the sites that need the upgrade covered by its end, the last 100%; the sites go in a stable order (by id and target), so every run picks the same canaries",
  },
  {
    key: "maxFailures",
    flag: "max-failures",
    input: "max-failures",
    value: "N|P%",
    kind: "budget",
    default: DEFAULT_MAX_FAILURES,
    description: "failed sites a wave may have and still let the next start: a number (2), or a share (10%) of the sites the wave upgrades",
  },
  {
    key: "gates",
    flag: "gate",
    input: "gates",
    value: "LIST",
    kind: "gates",
    list: true,
    default: DEFAULT_ROLLOUT_GATES,
    description: `what each site is judged on: ${ROLLOUT_GATES.join(", ")} (the pipeline's outcome always counts; health: a health check after the upgrade is healthy; http: GET of each check path on the site's URL answers below 400, without a WordPress fatal-error page, within the check budget; visual: each check path shot before the pipeline is opened and after it succeeded changes no more than the visual threshold, in the machine's Chrome or Chromium)`,
  },
  {
    key: "checkPaths",
    flag: "check-path",
    input: "check-paths",
    value: "PATH",
    kind: "paths",
    list: true,
    default: [DEFAULT_CHECK_PATH],
    description: "the paths of each site's URL the http gate asks for and the visual gate shoots",
  },
  {
    key: "checkBudget",
    flag: "check-budget",
    input: "check-budget-seconds",
    value: "DURATION",
    kind: "duration",
    unit: "seconds",
    max: 10 * 60_000,
    default: DEFAULT_CHECK_BUDGET_MS,
    description: "the response-time budget of each HTTP check",
  },
  {
    key: "pause",
    flag: "pause",
    input: "pause-minutes",
    value: "DURATION",
    kind: "duration",
    unit: "minutes",
    min: 0,
    max: DAY_MS,
    default: 0,
    description: "the wait between a wave that passed and the next",
  },
  {
    key: "requireApproval",
    flag: "require-approval",
    input: "require-approval",
    kind: "boolean",
    default: false,
    description: "open each pipeline awaiting approval (siteops upgrade approve); its wave waits for it",
  },
  {
    key: "concurrency",
    flag: "concurrency",
    short: "c",
    input: "concurrency",
    value: "N",
    kind: "count",
    min: 1,
    max: MAX_ROLLOUT_CONCURRENCY,
    default: DEFAULT_ROLLOUT_CONCURRENCY,
    description: `sites of a wave upgraded at a time, 1 to ${MAX_ROLLOUT_CONCURRENCY}`,
  },
  {
    key: "waveTimeout",
    flag: "timeout",
    input: "timeout-minutes",
    value: "DURATION",
    kind: "duration",
    unit: "minutes",
    max: DAY_MS,
    default: DEFAULT_WAVE_TIMEOUT_MS,
    description: "the time for each wave, its pipelines then its checks; no pipeline is opened after it",
  },
  {
    key: "healthWait",
    flag: "health-wait",
    input: "health-wait-minutes",
    value: "DURATION",
    kind: "duration",
    unit: "minutes",
    max: DAY_MS,
    default: DEFAULT_HEALTH_WAIT_MS,
    description: "how long to wait for a health check after a site's upgrade",
  },
  {
    key: "unknownStateWait",
    flag: "unknown-state-wait",
    input: "unknown-state-wait-minutes",
    value: "DURATION",
    kind: "duration",
    unit: "minutes",
    max: DAY_MS,
    default: DEFAULT_UNKNOWN_STATE_WAIT_MS,
    description:
      "how long a pipeline may sit in a state siteops does not know, with no change to it or its site, before the site fails for it (the site's versions reaching the target pass it at once)",
  },
  {
    key: "viewports",
    flag: "viewport",
    input: "viewports",
    value: "NAME",
    kind: "viewports",
    list: true,
    default: DEFAULT_VIEWPORTS.map((v) => v.name),
    description: "the visual gate: the viewports each path is shot in: desktop (1280x800), mobile (390x844), WIDTHxHEIGHT or mobile:WIDTHxHEIGHT",
  },
  {
    key: "visualIgnore",
    flag: "visual-ignore",
    input: "visual-ignore",
    value: "SELECTOR",
    kind: "selectors",
    list: true,
    description: "the visual gate: CSS selectors painted over in both shots: dates, carousels, ads (one per flag; the action's input: one per line)",
  },
  {
    key: "visualThreshold",
    flag: "visual-threshold",
    input: "visual-threshold",
    value: "PERCENT",
    kind: "percent",
    default: DEFAULT_VISUAL_THRESHOLD,
    description: "the visual gate: the share of a page's pixels that may change, in percent, before the site fails",
  },
  {
    key: "visualTimeout",
    flag: "visual-timeout",
    input: "visual-timeout-seconds",
    value: "DURATION",
    kind: "duration",
    unit: "seconds",
    min: 1,
    max: 10 * 60_000,
    default: DEFAULT_PAGE_TIMEOUT_MS,
    description: "the visual gate: how long one page may take to load, settle and be shot",
  },
  {
    key: "browser",
    flag: "browser",
    input: "browser",
    value: "PATH",
    kind: "file",
    description:
      "the visual gate: the Chrome or Chromium to drive (by default $SITEOPS_BROWSER, else google-chrome or chromium on PATH; nothing is downloaded)",
  },
  {
    key: "artifacts",
    flag: "artifacts",
    input: "artifacts",
    value: "DIR",
    kind: "file",
    description:
      "the visual gate: the folder its pictures (before, after, diff per site, path and viewport) and HTML reports go in; a rerun given the same folder compares with the pictures taken before the upgrade (by default: the CLI's, a folder of the job's own under its state directory; the action's, siteops-visual in the workspace)",
  },
  {
    key: "dryRun",
    flag: "dry-run",
    input: "dry-run",
    kind: "boolean",
    default: false,
    description: "show the waves and their sites, and the sites already at the target; open nothing",
  },
];

/** The declaration of the option that gives `key`. */
export function rolloutOption(key: RolloutOptionDeclaration["key"]): RolloutOptionDeclaration {
  return ROLLOUT_OPTIONS.find((o) => o.key === key)!;
}

/** How a surface writes a duration: `text` (the CLI: `90s`, `10m`, `1h30m`) or `units` (the action: a number of the
 * option's unit). */
export type DurationStyle = "text" | "units";

/** The default as a surface writes it (`1h` or `60`), or undefined when the option has none. */
export function defaultText(option: RolloutOptionDeclaration, style: DurationStyle): string | undefined {
  const d = option.default;
  if (d === undefined) return undefined;
  if (option.kind === "duration") return style === "text" ? formatDurationText(d as number) : String((d as number) / unitMs(option));
  return Array.isArray(d) ? d.join(",") : String(d);
}

/** What one of a duration option's units is in ms (the action's inputs are numbers of it). */
export function unitMs(option: RolloutOptionDeclaration): number {
  return option.unit === "seconds" ? 1000 : 60_000;
}
