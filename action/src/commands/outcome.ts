// What a command hands back to main: its outputs, and the line the step fails with, if it fails.

export interface CommandOutcome {
  /** Output name -> value; written even when the step fails, so later steps can inspect what happened. */
  outputs: Record<string, string>;
  /** Set: the step fails with this one line (after the outputs and the job summary are written). */
  failure?: string;
}
