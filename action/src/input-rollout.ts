// The inputs of `command: rollout`: each an option of the core's declaration (ROLLOUT_OPTIONS: its input name, its
// default, how it is read and checked, durations as numbers of the unit its name says), read by the core's
// readRolloutSettings, as `siteops upgrade rollout` reads its flags; and `wave`, the action's own: one job per wave.

import { MAX_WAVES, readRolloutSettings, ROLLOUT_OPTIONS, type RolloutSettings } from "../../src/fleet.js";
import { parseNumber } from "./input-values.js";

/** The inputs the core's declaration names (inputs.ts: read by the rollout command only, but those it shares). */
export const ROLLOUT_INPUTS: readonly string[] = ROLLOUT_OPTIONS.map((o) => o.input);

export interface RolloutInputOptions {
  settings: RolloutSettings;
  /** Only this wave of the plan (1-based): one job per wave. Undefined: every wave, in this step. */
  wave: number | undefined;
  /** The waves and their sites in the log, the summary and `result`; nothing opened. */
  dryRun: boolean;
}

export function parseRolloutInputs(get: (name: string) => string | undefined, problems: string[]): RolloutInputOptions {
  const read = readRolloutSettings(
    (o) => {
      const value = get(o.input);
      return value === undefined ? undefined : [value];
    },
    (o) => `'${o.input}'`,
    "units",
  );
  problems.push(...read.problems);
  const wave = parseNumber("wave", get("wave"), undefined, problems, {
    min: 1,
    max: MAX_WAVES,
    integer: true,
    what: `a wave's number, from 1 to ${MAX_WAVES}`,
  });
  // Each wave's job must plan over the sites as they were before the rollout: listed afresh, the sites the earlier
  // waves' jobs upgraded have left the plan, and this job's wave would not be the plan's.
  if (wave !== undefined && get("sites-file") === undefined)
    problems.push(
      "'wave' needs 'sites-file': every wave's job plans over the same listing, taken before the rollout (siteops sites matrix --shards 1 --out sites in a first job); listed afresh, the sites the earlier waves upgraded have left the plan",
    );
  return { settings: read.settings, wave, dryRun: read.dryRun };
}
