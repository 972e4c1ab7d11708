// What every `siteops` subcommand module exports: main.ts dispatches to these without the commands importing
// main.ts back (no import cycle).

import type { CommandDeclaration } from "./spec.js";

export interface Command {
  summary: string;
  /** Its declaration: --help, shell completion and docs/cli-reference.md are derived from it. */
  spec: CommandDeclaration;
  /** Runs the command with the arguments after its name; resolves to the process exit code. `typed` is the name
   * the user gave it (an alias: `snapshot`), which its messages repeat. */
  run(args: string[], typed?: string): Promise<number>;
}
