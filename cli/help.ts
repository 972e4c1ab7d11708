// Help text, generated from the command declarations (spec.ts), and when a command line asks for it.

import { argUsage, type FlagSpec } from "./args.js";
import { allFlags, type GroupDeclaration, type LeafDeclaration } from "./spec.js";

/** Whether `args` ask for help (-h or --help before any `--`): answered before the flags are parsed. */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

function flagLine(flag: FlagSpec): [string, string] {
  const names = [flag.short ? `-${flag.short}, ` : "    ", `--${flag.name}`];
  if (flag.negatable) names.push(`, --no-${flag.name}`);
  let value = "";
  if (flag.type === "string") value = flag.optionalValue ? `[=${flag.value ?? "VALUE"}]` : ` ${flag.value ?? "VALUE"}`;
  const choices = flag.choices ? ` (${flag.choices.join("|")})` : "";
  return [`${names.join("")}${value}`, `${flag.description}${choices}${flag.multiple ? " (repeatable)" : ""}`];
}

function columns(rows: [string, string][], indent = "  "): string[] {
  const width = Math.min(32, Math.max(...rows.map(([a]) => a.length)));
  return rows.map(([a, b]) => (a.length > width ? `${indent}${a}\n${indent}${" ".repeat(width + 2)}${b}` : `${indent}${a.padEnd(width)}  ${b}`));
}

export function leafHelp(path: string, leaf: LeafDeclaration): string {
  const args = (leaf.args ?? []).map(argUsage).join(" ");
  const usage = leaf.usage ?? `${args ? `${args} ` : ""}[flags]`;
  const own = leaf.flags.map(flagLine);
  const common = allFlags(leaf)
    .filter((f) => !leaf.flags.includes(f))
    .map(flagLine);
  const lines = [`${leaf.summary}`, "", `usage: ${path} ${usage}`];
  if (leaf.description) lines.push("", leaf.description);
  if (own.length) lines.push("", "flags:", ...columns(own));
  lines.push("", "common flags:", ...columns(common));
  if (leaf.jsonFields) lines.push("", `JSON fields: ${leaf.jsonFields.join(", ")}`);
  if (leaf.examples?.length) lines.push("", "examples:", ...leaf.examples.map((e) => `  ${e}`));
  return lines.join("\n");
}

export function groupHelp(path: string, group: GroupDeclaration): string {
  const rows: [string, string][] = group.subcommands.map((s) => [s.name, s.summary]);
  return [group.summary, "", `usage: ${path} <command> [flags]`, "", "commands:", ...columns(rows), "", `${path} <command> --help shows its flags.`].join("\n");
}
