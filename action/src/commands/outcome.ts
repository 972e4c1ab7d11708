// What a command gets from main besides the client and its inputs, and what it hands back: its outputs, and
// the line the step fails with, if it fails.

import type { RunInfo } from "../run-info.js";

export interface CommandContext {
  /** The GitHub run (repository, commit, run URL, actor). */
  run: RunInfo;
  /** Values that must never be printed (the token). */
  secrets: readonly string[];
  /** Aborted when the workflow run is cancelled. */
  signal: AbortSignal;
}

export interface CommandOutcome {
  /** Output name -> value; written even when the step fails, so later steps can inspect what happened. */
  outputs: Record<string, string>;
  /** Set: the step fails with this one line (after the outputs and the job summary are written). */
  failure?: string;
}
