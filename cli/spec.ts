// How a `siteops` command is declared: its subcommands, flags, arguments and JSON fields. Help text, the
// parser and the shell completion scripts are all derived from these declarations, so they cannot disagree.

import type { ArgSpec, FlagSpec, Parsed } from "./args.js";
import type { Context } from "./context.js";

export interface LeafSpec {
  name: string;
  aliases?: readonly string[];
  summary: string;
  /** More lines for --help. */
  description?: string;
  flags: readonly FlagSpec[];
  args?: readonly ArgSpec[];
  examples?: readonly string[];
  /** The fields `--json=FIELDS` may select (the service object's); absent: the command has no --json. */
  jsonFields?: readonly string[];
  run(ctx: Context, parsed: Parsed): Promise<number>;
}

export interface GroupSpec {
  /** Top-level names and their aliases are in registry.ts. */
  name: string;
  summary: string;
  subcommands: readonly LeafSpec[];
}

export type CommandSpec = LeafSpec | GroupSpec;

export function isGroup(spec: CommandSpec): spec is GroupSpec {
  return "subcommands" in spec;
}

/** Flags every command takes. */
const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: "profile", type: "string", value: "NAME", description: 'use the credentials saved under this profile (env SITEOPS_PROFILE; default "default")' },
  { name: "account", type: "string", value: "ID", description: "act in another account you belong to (env SITEOPS_ACCOUNT_ID)" },
  { name: "no-color", type: "boolean", description: "no colours (also NO_COLOR=1, or when not a terminal)" },
  { name: "help", short: "h", type: "boolean", description: "show this help" },
];

/** Flags of the commands that print service objects. */
const OUTPUT_FLAGS: readonly FlagSpec[] = [
  { name: "json", type: "string", optionalValue: true, value: "FIELDS", description: "print JSON (lists: one array); --json=id,name keeps those fields" },
  { name: "jsonl", type: "boolean", description: "print one JSON object per line (streams big lists)" },
  { name: "quiet", short: "q", type: "boolean", description: "print nothing but failures" },
];

/** The flags a leaf parses: its own, then the output and global ones. */
export function allFlags(leaf: LeafSpec): FlagSpec[] {
  return [...leaf.flags, ...(leaf.jsonFields ? OUTPUT_FLAGS : OUTPUT_FLAGS.filter((f) => f.name === "quiet")), ...GLOBAL_FLAGS];
}
