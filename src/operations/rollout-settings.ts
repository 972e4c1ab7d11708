// A rollout's options read and checked (readRolloutSettings), for the CLI's flags and the action's inputs alike, from
// the declarations of rollout-options.ts: each problem one line naming the option as the surface spells it; and what
// the visual gate is told from the settings (rolloutVisualSettings).

import { formatDurationText, parseDurationText } from "../../common/format.js";
import { DEFAULT_ROLLOUT_GATES, ROLLOUT_GATES, type RolloutGate } from "./rollout-gates.js";
import { type FailureBudget, parseFailureBudget, parseWaves, RolloutSpecError, type WaveSpec } from "./rollout-plan.js";
import { DAY_MS, DEFAULT_CHECK_PATH, type DurationStyle, rolloutOption, type RolloutOptionDeclaration, unitMs } from "./rollout-options.js";
import type { RolloutSettings } from "./rollout-types.js";
import {
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

/** The options only the visual gate reads: given without it, they are a mistake to say. */
const VISUAL_KEYS = ["viewports", "visualIgnore", "visualThreshold", "visualTimeout", "browser", "artifacts"] as const;

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
