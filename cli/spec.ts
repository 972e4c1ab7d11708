// How a `siteops` command is declared: its subcommands, flags, arguments and JSON fields. Help text, the
// parser, the shell completion scripts and docs/cli-reference.md are all derived from these declarations, so
// they cannot disagree; the emulator and provider commands, which run their own way, are declared the same.

import type { ArgSpec, FlagSpec, Parsed } from "./args.js";
import type { Context } from "./context.js";

/** What help, the parser, shell completion and docs/cli-reference.md read of a command: all but how it runs. */
export interface LeafDeclaration {
  name: string;
  aliases?: readonly string[];
  summary: string;
  /** More lines for --help. */
  description?: string;
  /** The usage line after the command's path when its flags depend on each other (`[--dir DIR] [--executable
   * [--from DIR]]`); default: its arguments, then `[flags]`. */
  usage?: string;
  flags: readonly FlagSpec[];
  args?: readonly ArgSpec[];
  examples?: readonly string[];
  /** The fields `--json=FIELDS` may select (the service object's); absent: the command has no --json. */
  jsonFields?: readonly string[];
  /** A command that runs without the service and its own way (emulator, provider install: `Command.run`, not
   * runner.ts): it takes its own flags and --help, none of the global or output flags. */
  standalone?: boolean;
}

/** A declared command that runner.ts runs: parsed against allFlags, with a context. */
export interface LeafSpec extends LeafDeclaration {
  run(ctx: Context, parsed: Parsed): Promise<number>;
}

export interface GroupDeclaration {
  /** Top-level names and their aliases are in registry.ts. */
  name: string;
  summary: string;
  subcommands: readonly LeafDeclaration[];
}

interface GroupSpec extends GroupDeclaration {
  subcommands: readonly LeafSpec[];
}

export type CommandDeclaration = LeafDeclaration | GroupDeclaration;
export type CommandSpec = LeafSpec | GroupSpec;

export function isGroup<T extends CommandDeclaration>(spec: T): spec is Extract<T, GroupDeclaration> {
  return "subcommands" in spec;
}

const HELP_FLAG: FlagSpec = { name: "help", short: "h", type: "boolean", description: "show this help" };

/** Flags every command that runs through runner.ts takes. */
const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: "profile", type: "string", value: "NAME", description: 'use the credentials saved under this profile (env SITEOPS_PROFILE; default "default")' },
  { name: "account", type: "string", value: "ID", description: "act in another account you belong to (env SITEOPS_ACCOUNT_ID)" },
  { name: "no-color", type: "boolean", description: "no colours (also NO_COLOR=1, or when not a terminal)" },
  HELP_FLAG,
];

/** Flags of the commands that print service objects. */
const OUTPUT_FLAGS: readonly FlagSpec[] = [
  { name: "json", type: "string", optionalValue: true, value: "FIELDS", description: "print JSON (lists: one array); --json=id,name keeps those fields" },
  { name: "jsonl", type: "boolean", description: "print one JSON object per line (streams big lists)" },
  { name: "quiet", short: "q", type: "boolean", description: "print nothing but failures" },
];

/** The flags a leaf parses: its own, then the output and global ones (a standalone command: --help only). */
export function allFlags(leaf: LeafDeclaration): FlagSpec[] {
  if (leaf.standalone) return [...leaf.flags, HELP_FLAG];
  return [...leaf.flags, ...(leaf.jsonFields ? OUTPUT_FLAGS : OUTPUT_FLAGS.filter((f) => f.name === "quiet")), ...GLOBAL_FLAGS];
}
