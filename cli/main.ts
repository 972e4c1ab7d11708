// The `siteops` command: finds the command in the registry (each loaded only when used), and answers the
// top-level help, --version and `completion` itself. Exit codes: exit-codes.ts.
import { pathToFileURL } from "node:url";
import { VERSION } from "../common/version.js";
import { unsupportedNode } from "../common/node-support.js";
import { nearest } from "./did-you-mean.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { COMMANDS, findCommand, type Host } from "./registry.js";
import { defineCommand, printError, type DefinedCommand } from "./runner.js";
import type { LeafSpec } from "./spec.js";

let host: Host | undefined;

async function usage(): Promise<string> {
  const rows: [string, string][] = [];
  for (const entry of COMMANDS) rows.push([entry.name, (await entry.load(host)).summary]);
  rows.push(["completion", completion.summary]);
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    "siteops: WordPress sites on the Site Operations service, from any shell or cron.",
    "",
    "usage: siteops <command> [<subcommand>] [flags]",
    "",
    "commands:",
    ...rows.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`),
    "",
    "Start with: siteops auth login --base-url https://siteops.example.com",
    "The scheduled job: siteops snapshot create --all --trigger scheduled --quiet; siteops snapshot prune --all --keep-daily 7",
    "siteops <command> --help shows a command's subcommands and flags. Exit codes: 0 ok, 1 failed, 2 usage,",
    "3 authentication, 4 timed out, 75 locked by another run, 130 interrupted.",
  ].join("\n");
}

const completionLeaf: LeafSpec = {
  name: "completion",
  summary: "print a shell completion script (bash, zsh, fish)",
  flags: [],
  args: [{ name: "SHELL", required: true }],
  examples: [
    "siteops completion bash > ~/.local/share/bash-completion/completions/siteops",
    'siteops completion zsh > "${fpath[1]}/_siteops"',
    "siteops completion fish > ~/.config/fish/completions/siteops.fish",
  ],
  async run(ctx, parsed) {
    const { completionScript, SHELLS } = await import("./completion.js");
    const shell = parsed.args[0]!;
    if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`unknown shell ${JSON.stringify(shell)}: one of ${SHELLS.join(", ")}`);
    const declared = [];
    for (const entry of COMMANDS) declared.push({ spec: (await entry.load(host)).spec, aliases: entry.aliases });
    declared.push({ spec: completionLeaf, aliases: [] });
    ctx.stdout.write(completionScript(shell as (typeof SHELLS)[number], declared));
    return EXIT.OK;
  },
};
const completion: DefinedCommand = defineCommand(completionLeaf);

/** Runs `siteops ...argv`; resolves to the exit code. `entry` is what bin/siteops.js provides. */
export async function main(argv: string[], entry?: Host): Promise<number> {
  host = entry;
  const unsupported = unsupportedNode("siteops");
  if (unsupported) {
    process.stderr.write(`${unsupported}\n`);
    return EXIT.FAILED;
  }
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    if (name === "help" && rest.length) return main([...rest, "--help"]);
    (name ? process.stdout : process.stderr).write(`${await usage()}\n`);
    return name ? EXIT.OK : EXIT.USAGE;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  if (name === "completion") return completion.run(rest);
  const command = findCommand(name);
  if (!command) {
    const best = nearest(name, [...COMMANDS.flatMap((c) => [c.name, ...c.aliases]), "completion", "help", "version"]);
    printError(new UsageError(`unknown command ${JSON.stringify(name)}${best ? ` (did you mean ${best}?)` : ""}; see siteops --help`));
    return EXIT.USAGE;
  }
  try {
    return await (await command.load(host)).run(rest, name);
  } catch (err) {
    // The declared commands answer their own errors; this is for the others (emulator, provider).
    printError(new Error(`siteops ${name}: ${err instanceof Error ? err.message : String(err)}`));
    return EXIT.FAILED;
  }
}

// Run directly (tsx cli/main.ts ...) as well as through bin/siteops.js.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
