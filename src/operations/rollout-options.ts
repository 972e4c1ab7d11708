// The options a person gives a rollout, declared once: each one's name as a CLI flag and as an action input, what it
// is, its default and how it is read and checked. The CLI's flags and help (cli/commands/upgrade/rollout.ts) and the
// action's inputs (action/src/input-rollout.ts; action.yml checked against it by test/action/rollout-inputs.test.ts)
// are derived from ROLLOUT_OPTIONS, and both read their values through readRolloutSettings: one set of defaults,
// one set of checks, each problem naming the option as that surface spells it.

import { formatDurationText, parseDurationText } from "../../common/format.js";
import { DEFAULT_CHECK_BUDGET_MS, DEFAULT_ROLLOUT_GATES, ROLLOUT_GATES, type RolloutGate } from "./rollout-gates.js";
import { DEFAULT_WAVES, type FailureBudget, parseFailureBudget, parseWaves, RolloutSpecError, type WaveSpec } from "./rollout-plan.js";
import type { RolloutSettings } from "./rollout-types.js";
import {
  DEFAULT_PAGE_TIMEOUT_MS,
  DEFAULT_VIEWPORTS,
  DEFAULT_VISUAL_CONCURRENCY,
  DEFAULT_VISUAL_THRESHOLD,
  MAX_VISUAL_PATHS,
  parseSelector,
  parseThreshold,
  parseViewports,
  type VisualSettings,
  VisualSettingsError,
} from "./visual-settings.js";
import { checkPathProblem } from "./site-requests.js";

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
const DAY_MS = 24 * 60 * 60_000;

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

/** The options only the visual gate reads: given without it, they are a mistake to say. */
const VISUAL_KEYS = ["viewports", "visualIgnore", "visualThreshold", "visualTimeout", "browser", "artifacts"] as const;

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

function unitMs(option: RolloutOptionDeclaration): number {
  return option.unit === "seconds" ? 1000 : 60_000;
}

/** A rollout's settings as read, and whether it is a dry run. */
export interface ReadRolloutSettings {
  settings: RolloutSettings;
  dryRun: boolean;
}

/**
 * Reads every option through `read` (its raw values: several for a list given several times, `"true"`/`"false"` for
 * a boolean; undefined when not given) and checks it. Every problem is collected, each a line naming the option as
 * `label` spells it (`--max-failures`, `'max-failures'`); with any problem the settings are not to be used.
 */
export function readRolloutSettings(
  read: (option: RolloutOptionDeclaration) => readonly string[] | undefined,
  label: (option: RolloutOptionDeclaration) => string,
  style: DurationStyle,
): ReadRolloutSettings & { problems: string[] } {
  const problems: string[] = [];
  const name = (key: RolloutOptionDeclaration["key"]) => label(rolloutOption(key));
  const one = (key: RolloutOptionDeclaration["key"]) => read(rolloutOption(key))?.at(-1)?.trim() || undefined;
  const items = (key: RolloutOptionDeclaration["key"]) =>
    (read(rolloutOption(key)) ?? []).flatMap((v) =>
      v
        .split(/[,\n]/)
        .map((w) => w.trim())
        .filter(Boolean),
    );

  const version = (key: "wp" | "php") => {
    const v = one(key);
    if (v !== undefined && !/^\d+\.\d+$/.test(v)) problems.push(`${name(key)} must be a major.minor version such as 6.8 (got ${quote(v)})`);
    return v;
  };
  const wp = version("wp");
  const php = version("php");
  if (wp === undefined && php === undefined) problems.push(`give the target: ${name("wp")} X.Y and/or ${name("php")} X.Y`);

  const spec = <T>(key: "waves" | "maxFailures", parse: (text: string) => T, fallback: T): T => {
    try {
      return parse(one(key) ?? String(rolloutOption(key).default));
    } catch (err) {
      if (!(err instanceof RolloutSpecError)) throw err;
      problems.push(`${name(key)}: ${err.message}`);
      return fallback;
    }
  };
  const waves: WaveSpec[] = spec("waves", parseWaves, [{ percent: 100 }]);
  const maxFailures: FailureBudget = spec("maxFailures", parseFailureBudget, { count: 0 });

  const gateWords = items("gates");
  const badGate = gateWords.find((g) => !(ROLLOUT_GATES as readonly string[]).includes(g));
  if (badGate !== undefined) problems.push(`${name("gates")} must name ${ROLLOUT_GATES.join(", ")} (got ${quote(badGate)})`);
  const gates = gateWords.length ? [...new Set(gateWords as RolloutGate[])] : [...DEFAULT_ROLLOUT_GATES];
  const paths = items("checkPaths");
  for (const p of paths) {
    const problem = checkPathProblem(p);
    if (problem) problems.push(`${name("checkPaths")} ${problem} (got ${quote(p)})`);
  }
  const visual = gates.includes("visual");
  if (paths.length && !gates.includes("http") && !visual)
    problems.push(`${name("checkPaths")} is for the http and visual gates: add http or visual to ${name("gates")}`);
  if (visual && paths.length > MAX_VISUAL_PATHS)
    problems.push(`${name("checkPaths")}: at most ${MAX_VISUAL_PATHS} paths with the visual gate (each is a shot per viewport, before and after)`);
  for (const key of VISUAL_KEYS)
    if (read(rolloutOption(key)) !== undefined && !visual) problems.push(`${name(key)} is for the visual gate: add visual to ${name("gates")}`);
  const checked = <T>(key: RolloutOptionDeclaration["key"], parse: () => T, fallback: T): T => {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof VisualSettingsError)) throw err;
      problems.push(`${name(key)} ${err.message}`);
      return fallback;
    }
  };
  const viewports = checked("viewports", () => parseViewports(items("viewports")), [...DEFAULT_VIEWPORTS]);
  // A selector may hold commas (`.a, .b`): one per flag, or one per line of the action's input.
  const visualIgnore = (read(rolloutOption("visualIgnore")) ?? [])
    .flatMap((v) => v.split("\n"))
    .filter((v) => v.trim() !== "")
    .map((v) => checked("visualIgnore", () => parseSelector(v), ""))
    .filter(Boolean);
  const thresholdText = one("visualThreshold");
  const visualThreshold =
    thresholdText === undefined ? DEFAULT_VISUAL_THRESHOLD : checked("visualThreshold", () => parseThreshold(thresholdText), DEFAULT_VISUAL_THRESHOLD);

  const duration = (key: RolloutOptionDeclaration["key"]): number => {
    const option = rolloutOption(key);
    const fallback = option.default as number;
    const text = one(key);
    if (text === undefined) return fallback;
    const min = option.min ?? 0;
    const max = option.max ?? DAY_MS;
    if (style === "units") {
      const n = /^[+]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
      const ms = Math.round(n * unitMs(option));
      if (!Number.isFinite(n) || (min === 0 ? ms < 0 : ms <= 0) || ms > max) {
        problems.push(
          `${label(option)} must be a number of ${option.unit} ${min === 0 ? "from 0" : "above 0"} to ${max / unitMs(option)} (got ${quote(text)})`,
        );
        return fallback;
      }
      return ms;
    }
    const ms = parseDurationText(text);
    if (ms === undefined) problems.push(`${label(option)}: ${quote(text)} is not a duration (use a number and a unit: 90s, 30m, 12h, 2d; or 1h30m)`);
    else if (ms === 0 && min !== 0) problems.push(`${label(option)}: the duration must be above 0 (got ${quote(text)})`);
    else if (ms > max) problems.push(`${label(option)}: at most ${formatDurationText(max)} (got ${quote(text)})`);
    else return ms;
    return fallback;
  };

  const count = (key: RolloutOptionDeclaration["key"]): number => {
    const option = rolloutOption(key);
    const text = one(key);
    if (text === undefined) return option.default as number;
    const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= option.min! && n <= option.max!)) {
      problems.push(`${label(option)} must be a whole number from ${option.min} to ${option.max} (got ${quote(text)})`);
      return option.default as number;
    }
    return n;
  };

  const flag = (key: RolloutOptionDeclaration["key"]): boolean => {
    const option = rolloutOption(key);
    const text = one(key);
    if (text === undefined) return option.default as boolean;
    if (/^true$/i.test(text)) return true;
    if (/^false$/i.test(text)) return false;
    problems.push(`${label(option)} must be true or false (got ${quote(text)})`);
    return option.default as boolean;
  };

  const settings: RolloutSettings = {
    target: { wp, php },
    waves,
    maxFailures,
    gates,
    checkPaths: paths.length ? paths : [DEFAULT_CHECK_PATH],
    checkBudget: duration("checkBudget"),
    pause: duration("pause"),
    requireApproval: flag("requireApproval"),
    concurrency: count("concurrency"),
    waveTimeout: duration("waveTimeout"),
    healthWait: duration("healthWait"),
    unknownStateWait: duration("unknownStateWait"),
    viewports,
    visualIgnore,
    visualThreshold,
    visualTimeout: duration("visualTimeout"),
    browser: one("browser"),
    artifacts: one("artifacts"),
  };
  return { settings, dryRun: flag("dryRun"), problems };
}

/** What a rollout's visual gate is told to shoot and how to judge it, from the rollout's settings (the CLI's and the
 * action's gate alike). */
export function rolloutVisualSettings(settings: RolloutSettings): VisualSettings {
  return {
    paths: settings.checkPaths,
    viewports: settings.viewports,
    ignore: settings.visualIgnore,
    threshold: settings.visualThreshold,
    timeoutMs: settings.visualTimeout,
    concurrency: DEFAULT_VISUAL_CONCURRENCY,
  };
}

function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}
