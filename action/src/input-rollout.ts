// The inputs of `command: rollout`, as `siteops upgrade rollout` takes them: the target ('wp-version',
// 'php-version'), the waves and their failure budget (read by the core's parseWaves and parseFailureBudget), the
// gates and their checks, the pauses and waits (in minutes or seconds, as the action's other times), and 'wave'
// for one job per wave. Each problem one line naming the input.

import {
  checkPathProblem,
  parseFailureBudget,
  parseWaves,
  ROLLOUT_GATES,
  RolloutSpecError,
  type FailureBudget,
  type RolloutGate,
  type RolloutTarget,
  type WaveSpec,
} from "../../src/fleet.js";
import { splitSites } from "./input-selection.js";
import { parseBoolean, parseNumber, parseVersion, quote } from "./input-values.js";

const DEFAULT_WAVES = "1,10%,100%";

export interface RolloutInputOptions {
  target: RolloutTarget;
  waves: WaveSpec[];
  /** As written, for the log and the summary. */
  wavesText: string;
  maxFailures: FailureBudget;
  gates: RolloutGate[];
  checkPaths: string[];
  /** In ms. */
  checkBudgetMs: number;
  pauseMs: number;
  healthWaitMs: number;
  requireApproval: boolean;
  /** Only this wave of the plan (1-based): one job per wave. Undefined: every wave, in this step. */
  wave: number | undefined;
  /** The waves and their sites in the log, the summary and `result`; nothing opened. */
  dryRun: boolean;
}

export function parseRolloutInputs(get: (name: string) => string | undefined, problems: string[]): RolloutInputOptions {
  const wp = parseVersion("wp-version", get("wp-version"), problems);
  const php = parseVersion("php-version", get("php-version"), problems);
  if (!wp && !php) problems.push("the rollout command needs 'wp-version' or 'php-version' (or both)");
  const spec = <T>(name: string, read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (err) {
      if (!(err instanceof RolloutSpecError)) throw err;
      problems.push(`'${name}' ${err.message}`);
      return fallback;
    }
  };
  const wavesText = get("waves") ?? DEFAULT_WAVES;
  const waves = spec("waves", () => parseWaves(wavesText), [{ percent: 100 }]);
  const maxFailures = spec("max-failures", () => parseFailureBudget(get("max-failures") ?? "0"), { count: 0 });
  const gateWords = splitSites(get("gates") ?? "");
  const bad = gateWords.find((g) => !(ROLLOUT_GATES as readonly string[]).includes(g));
  if (bad !== undefined) problems.push(`'gates' must name ${ROLLOUT_GATES.join(", ")} (got ${quote(bad)})`);
  const gates = gateWords.length ? [...new Set(gateWords as RolloutGate[])] : [...ROLLOUT_GATES];
  const checkPaths = splitSites(get("check-paths") ?? "");
  for (const p of checkPaths) {
    const problem = checkPathProblem(p);
    if (problem) problems.push(`'check-paths' ${problem === "must be a path starting with /" ? "must be paths starting with /" : problem} (got ${quote(p)})`);
  }
  if (checkPaths.length && !gates.includes("http")) problems.push("'check-paths' is for the http gate: add http to 'gates'");
  const number = (name: string, fallback: number, max: number, unit: string) =>
    parseNumber(name, get(name), fallback, problems, { min: 0, max, what: `a number of ${unit} from 0 to ${max}` }) ?? fallback;
  const wave = parseNumber("wave", get("wave"), undefined, problems, { min: 1, max: 20, integer: true, what: "a wave's number, from 1 to 20" });
  return {
    target: { wp, php },
    waves,
    wavesText,
    maxFailures,
    gates,
    checkPaths: checkPaths.length ? checkPaths : ["/"],
    checkBudgetMs: Math.round(number("check-budget-seconds", 5, 600, "seconds") * 1000),
    pauseMs: Math.round(number("pause-minutes", 0, 24 * 60, "minutes") * 60_000),
    healthWaitMs: Math.round(number("health-wait-minutes", 10, 24 * 60, "minutes") * 60_000),
    requireApproval: parseBoolean("require-approval", get("require-approval"), false, problems),
    wave,
    dryRun: parseBoolean("dry-run", get("dry-run"), false, problems),
  };
}
