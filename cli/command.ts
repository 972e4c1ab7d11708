// What every `siteops` subcommand module exports: main.ts dispatches to these without the commands importing
// main.ts back (no import cycle).

export interface Command {
  summary: string;
  /** Runs the command with the arguments after its name; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}
