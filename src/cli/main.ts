// The `siteops` command: a table of subcommands, each loaded only when used so that
// `siteops emulator` does not pay for the provider and vice versa.
import { pathToFileURL } from "node:url";

export interface Command {
  summary: string;
  /** Runs the command with the arguments after its name; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {
  emulator: async () => (await import("./commands/emulator.js")).default,
  provider: async () => (await import("./commands/provider.js")).default,
};

function usage(): string {
  return [
    "usage: siteops <command> [options]",
    "",
    "commands:",
    "  emulator   run the Site Operations emulator (siteops emulator --help)",
    "  provider   install the Terraform provider (siteops provider install [--dir DIR] [--executable])",
    "",
    "siteops <command> --help shows the options of a command.",
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    const { existsSync, readFileSync } = await import("node:fs");
    // Source runs sit two levels below the package root, compiled ones (dist/src/cli) three.
    const file = ["../../package.json", "../../../package.json"]
      .map((rel) => new URL(rel, import.meta.url))
      .find((url) => existsSync(url));
    const pkg = file ? (JSON.parse(readFileSync(file, "utf8")) as { version?: string }) : {};
    console.log(pkg.version ?? "unknown");
    return 0;
  }
  const load = commands[name];
  if (!load) {
    console.error(`siteops: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    const command = await load();
    return await command.run(rest);
  } catch (err) {
    // One line, never a stack trace: the command's own errors already carry a clear message.
    console.error(`siteops ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

// Run directly (tsx src/cli/main.ts ...) as well as through bin/siteops.js.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
