#!/usr/bin/env node
// Writes docs/cli-reference.md, the reference of every `siteops` command, flag, default and exit code, from the
// command declarations (CLI_DIR/registry.ts, spec.ts, exit-codes.ts), as cli/cli generates its manual. The two
// commands with their own parsers (emulator, provider) and `completion` are documented by their --help text.
// It also writes the command table of docs/cli.md (between its `<!-- BEGIN GENERATED: commands -->` markers), so
// the table a reader meets first cannot miss a command. scripts/check-generated-docs.mjs (CI) fails when a
// committed copy differs from what this writes.
//
//   node scripts/generate-cli-reference.mjs          write docs/cli-reference.md and docs/cli.md's table
//   (npm run generate:docs runs it with the action's README tables)
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where the CLI's sources live: the one place to change when they move. */
export const CLI_DIR = "cli";
export const CLI_REFERENCE = "docs/cli-reference.md";
export const CLI_GUIDE = "docs/cli.md";

/** The task guide (under docs/guides/) of a command, by the longest prefix of its name that has one. */
const GUIDES = {
  "snapshots create": "nightly-snapshots.md",
  "snapshots prune": "nightly-snapshots.md",
  "sites matrix": "large-fleets.md",
  "upgrade rollout": "upgrade-rollouts.md",
  vulns: "vulnerabilities.md",
  export: "terraform-adoption.md",
  visual: "visual-checks.md",
};

const cliModule = (file) => tsImport(pathToFileURL(path.join(ROOT, CLI_DIR, file)).href, import.meta.url);

/** `| a | b |` cells: pipes escaped, newlines folded. */
const sentence = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
const cell = (text) =>
  String(text)
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ");

/** The default a flag's description states ("(default 4)", "default: 30m", "default \"default\""), if any. */
function defaultOf(description) {
  const m = /\bdefault:?\s+("[^"]*"|[^;)]+)/i.exec(description);
  return m ? m[1].trim() : "";
}

function flagName(flag) {
  let name = `\`--${flag.name}`;
  if (flag.type === "string") name += flag.optionalValue ? `[=${flag.value ?? "VALUE"}]` : ` ${flag.value ?? "VALUE"}`;
  name += "`";
  if (flag.short) name = `\`-${flag.short}\`, ${name}`;
  if (flag.negatable) name += `, \`--no-${flag.name}\``;
  return name;
}

function flagTable(flags) {
  const rows = flags.map((f) => {
    const notes = [f.choices ? `one of ${f.choices.map((c) => `\`${c}\``).join(", ")}` : "", f.multiple ? "repeatable" : ""].filter(Boolean).join("; ");
    return `| ${flagName(f)} | ${cell(f.description)}${notes ? ` (${notes})` : ""} | ${cell(defaultOf(f.description))} |`;
  });
  return ["| flag | meaning | default |", "|---|---|---|", ...rows].join("\n");
}

function leafSection(level, pathName, leaf, allFlags, argUsage) {
  const args = (leaf.args ?? []).map(argUsage).join(" ");
  const lines = [`${"#".repeat(level)} \`${pathName}\``, "", sentence(leaf.summary), "", "```", `${pathName}${args ? ` ${args}` : ""} [flags]`, "```"];
  if (leaf.aliases?.length) lines.push("", `Also: ${leaf.aliases.map((a) => `\`${a}\``).join(", ")}.`);
  if (leaf.description) lines.push("", leaf.description.trim());
  const own = leaf.flags;
  const common = allFlags(leaf).filter((f) => !own.includes(f));
  if (own.length) lines.push("", flagTable(own));
  lines.push("", `Common flags: ${common.map((f) => `\`--${f.name}\``).join(", ")} ([below](#common-flags)).`);
  if (leaf.jsonFields) lines.push("", `JSON fields: ${leaf.jsonFields.map((f) => `\`${f}\``).join(", ")}.`);
  if (leaf.examples?.length) lines.push("", "Examples:", "", "```", ...leaf.examples, "```");
  return lines.join("\n");
}

/** `siteops <args> --help` from the sources, for the commands that are not declared (their own parsers). */
function helpOf(args) {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(CLI_DIR, "main.ts"), ...args, "--help"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  if (r.status !== 0) throw new Error(`siteops ${args.join(" ")} --help exited ${r.status}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** The exit codes with their doc comments (exit-codes.ts's EXIT). */
function exitCodes(EXIT) {
  const source = readFileSync(path.join(ROOT, CLI_DIR, "exit-codes.ts"), "utf8");
  const docs = new Map([...source.matchAll(/\/\*\*\s*([\s\S]*?)\s*\*\/\s*(\w+):\s*\d+/g)].map((m) => [m[2], m[1].replace(/\s*\n\s*\*?\s*/g, " ")]));
  return [
    "| code | name | meaning |",
    "|---|---|---|",
    ...Object.entries(EXIT).map(([name, code]) => `| ${code} | \`${name}\` | ${cell(docs.get(name) ?? "")} |`),
  ].join("\n");
}

/** The whole reference, as Markdown. */
export async function cliReference() {
  const { COMMANDS } = await cliModule("registry.ts");
  const { allFlags, isGroup } = await cliModule("spec.ts");
  const { argUsage } = await cliModule("args.ts");
  const { EXIT } = await cliModule("exit-codes.ts");
  const out = [
    "<!-- GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate:docs` (scripts/generate-cli-reference.mjs). -->",
    "# `siteops` command reference",
    "",
    "Every command, flag, default and exit code of `siteops`, generated from the command declarations in",
    `\`${CLI_DIR}/\` (the same ones \`--help\`, the parser and the shell completions are derived from). The guide is`,
    "[cli.md](cli.md), with a task guide per job under [guides/](guides/).",
    "",
    "```",
    "siteops <command> [<subcommand>] [flags]",
    "siteops <command> --help",
    "siteops --version",
    "```",
    "",
    "## Commands",
    "",
  ];
  const sections = [];
  for (const entry of COMMANDS) {
    const command = await entry.load();
    const aliases = entry.aliases.map((n) => `\`siteops ${n}\``).join(", ");
    if (!("spec" in command)) {
      out.push(`- [\`siteops ${entry.name}\`](#siteops-${entry.name}): ${command.summary}`);
      sections.push(`## \`siteops ${entry.name}\``, "", sentence(command.summary), "", "```", helpOf([entry.name]), "```", "");
      continue;
    }
    const spec = command.spec;
    out.push(`- [\`siteops ${spec.name}\`](#siteops-${spec.name}): ${spec.summary}`);
    if (!isGroup(spec)) {
      sections.push(leafSection(2, `siteops ${spec.name}`, { ...spec, aliases: entry.aliases }, allFlags, argUsage), "");
      continue;
    }
    sections.push(`## \`siteops ${spec.name}\``, "", `${sentence(spec.summary)}${aliases ? ` Also: ${aliases}.` : ""}`, "");
    for (const leaf of spec.subcommands) sections.push(leafSection(3, `siteops ${spec.name} ${leaf.name}`, leaf, allFlags, argUsage), "");
  }
  out.push("- [`siteops completion`](#siteops-completion): print a shell completion script (bash, zsh, fish)", "");
  sections.push("## `siteops completion`", "", "```", helpOf(["completion"]), "```", "");
  const sample = COMMANDS.find((e) => e.name === "sites");
  const leaf = sample && (await sample.load()).spec.subcommands[0];
  const common = allFlags(leaf).filter((f) => !leaf.flags.includes(f));
  out.push(...sections);
  out.push(
    "## Common flags",
    "",
    "Every declared command takes the global flags; commands that print service objects also take the output",
    "flags (`--json` and `--jsonl` only where the command lists JSON fields).",
    "",
    flagTable(common),
    "",
    "## Exit codes",
    "",
    "With several sites the most serious wins (130, then 3, then 4, then 1).",
    "",
    exitCodes(EXIT),
    "",
  );
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

/** GitHub's anchor of a reference heading such as "`siteops sites list`". */
const anchor = (title) =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** A guide's title: its first heading. */
const guideTitle = (file) => /^# (.+)$/m.exec(readFileSync(path.join(ROOT, "docs/guides", file), "utf8"))[1];

/** One row per command and subcommand: its name (linked to its reference section), what it does, its guide. */
export async function commandTable() {
  const { COMMANDS } = await cliModule("registry.ts");
  const { isGroup } = await cliModule("spec.ts");
  const rows = [];
  const row = (name, summary) => {
    const prefix = Object.keys(GUIDES)
      .filter((k) => name === k || name.startsWith(`${k} `))
      .sort((a, b) => b.length - a.length)[0];
    const guide = prefix ? `[${guideTitle(GUIDES[prefix])}](guides/${GUIDES[prefix]})` : "";
    rows.push(`| [\`siteops ${name}\`](cli-reference.md#${anchor(`siteops ${name}`)}) | ${cell(summary)} | ${guide} |`);
  };
  for (const entry of COMMANDS) {
    const command = await entry.load();
    if (!("spec" in command)) row(entry.name, command.summary);
    else if (!isGroup(command.spec)) row(entry.name, command.spec.summary);
    else for (const leaf of command.spec.subcommands) row(`${entry.name} ${leaf.name}`, leaf.summary);
  }
  row("completion", "print a shell completion script (bash, zsh, fish)");
  return ["| command | what it does | guide |", "|---|---|---|", ...rows].join("\n");
}

/** `page` with the table between its `commands` markers replaced; throws when a marker is missing. */
export function withCommandTable(page, table) {
  const begin = /<!-- BEGIN GENERATED: commands\b[^>]*-->/.exec(page);
  const end = "<!-- END GENERATED: commands -->";
  const e = page.indexOf(end);
  if (!begin || e < begin.index) throw new Error(`${CLI_GUIDE} has no "<!-- BEGIN GENERATED: commands ... -->" ... "${end}" markers`);
  return `${page.slice(0, begin.index + begin[0].length)}\n${table}\n${page.slice(e)}`;
}

/** docs/cli.md as it should be. */
export async function cliGuide() {
  return withCommandTable(readFileSync(path.join(ROOT, CLI_GUIDE), "utf8"), await commandTable());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(path.join(ROOT, CLI_REFERENCE), await cliReference());
  writeFileSync(path.join(ROOT, CLI_GUIDE), await cliGuide());
  console.error(`generate-cli-reference: wrote ${CLI_REFERENCE} and the command table of ${CLI_GUIDE}`);
}
