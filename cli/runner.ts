// Turns a declared command (spec.ts) into a runnable one: finds the subcommand, answers --help, parses the
// flags, builds the context, traps Ctrl-C/SIGTERM, and turns whatever goes wrong into one line on stderr and
// an exit code (exit-codes.ts). Never a stack trace.

import { setMaxListeners } from "node:events";
import { parseArgv } from "./args.js";
import { nearest } from "./did-you-mean.js";
import type { Command } from "./command.js";
import { createContext, type Context } from "./context.js";
import { exitCodeOf, UsageError } from "./exit-codes.js";
import { groupHelp, leafHelp, wantsHelp } from "./help.js";
import { errorLine } from "./output/format.js";
import { styleFor, colorEnabled } from "./output/style.js";
import { trapInterrupts } from "./interrupts.js";
import { allFlags, isGroup, type CommandSpec, type LeafSpec } from "./spec.js";

export interface DefinedCommand extends Command {
  spec: CommandSpec;
}

export function defineCommand(spec: CommandSpec): DefinedCommand {
  return {
    spec,
    summary: spec.summary,
    run: (args, typed) => runSpec(spec, args, typed),
  };
}

/** Messages name the command as the user typed it (`siteops snapshot create`, an alias); the context keeps the
 * declared path. */
async function runSpec(spec: CommandSpec, args: string[], typed = spec.name): Promise<number> {
  const path = `siteops ${typed}`;
  if (!isGroup(spec)) return runLeaf(path, spec, args, `siteops ${spec.name}`);
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? process.stderr : process.stdout).write(`${groupHelp(path, spec)}\n`);
    return name === undefined ? 2 : 0;
  }
  const leaf = spec.subcommands.find((s) => s.name === name || s.aliases?.includes(name));
  if (!leaf) {
    const names = spec.subcommands.map((s) => s.name);
    const best = nearest(
      name,
      spec.subcommands.flatMap((s) => [s.name, ...(s.aliases ?? [])]),
    );
    const hint = best ? `did you mean ${best}? ` : "";
    printError(new UsageError(`unknown command ${JSON.stringify(name)} for ${path} (${hint}commands: ${names.join(", ")})`));
    return 2;
  }
  return runLeaf(`${path} ${name}`, leaf, rest, `siteops ${spec.name} ${leaf.name}`);
}

async function runLeaf(path: string, leaf: LeafSpec, args: string[], declared: string): Promise<number> {
  if (wantsHelp(args)) {
    process.stdout.write(`${leafHelp(path, leaf)}\n`);
    return 0;
  }
  const interrupts = trapInterrupts();
  // Every site in flight listens on the signal through its requests and waits: not a leak.
  setMaxListeners(0, interrupts.signal);
  let ctx: Context | undefined;
  try {
    const parsed = parseArgv(args, allFlags(leaf), leaf.args ?? [], path);
    ctx = createContext({
      env: process.env,
      stdout: stdoutStream,
      stderr: () => process.stderr,
      stdin: () => process.stdin,
      signal: interrupts.signal,
      commandPath: declared,
      argv: args,
      parsed,
      jsonFields: leaf.jsonFields,
    });
    return await leaf.run(ctx, parsed);
  } catch (err) {
    printError(err, ctx?.secrets);
    return exitCodeOf(err);
  } finally {
    interrupts.dispose();
    await ctx?.close();
  }
}

/** process.stdout, which ends the run quietly when the reader went away (`siteops sites list | head -1`). */
function stdoutStream(): NodeJS.WriteStream {
  const stream = process.stdout;
  if (stream.listenerCount("error") === 0) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  return stream;
}

export function printError(err: unknown, secrets: readonly string[] = []): void {
  const style = styleFor(colorEnabled(process.stderr, process.env, process.argv.includes("--no-color")));
  process.stderr.write(`${style.red("error:")} ${errorLine(err, secrets)}\n`);
}
