// `siteops completion bash|zsh|fish`: the scripts complete commands, subcommands (through aliases), flags and
// flag values, as the command declarations list them. The bash script is run by bash with the words a user
// typed; zsh and fish scripts are checked by their shells' parsers when those shells are installed.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leafHelp } from "../../cli/help.js";
import { COMMANDS } from "../../cli/registry.js";
import { allFlags, type GroupDeclaration, isGroup, type LeafDeclaration } from "../../cli/spec.js";
import { runCli, sandbox, type Sandbox } from "./helpers.js";

let box: Sandbox;
// A shell missing here skips its test; in CI (.ci/run installs zsh and fish) it must be there, so it runs.
const missing = (cmd: string) => process.env.CI !== "true" && Boolean(spawnSync(cmd, ["--version"]).error);
const scripts: Record<string, string> = {};

beforeAll(async () => {
  box = sandbox();
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = await runCli(["completion", shell], { env: box.env });
    expect(r.code).toBe(0);
    scripts[shell] = path.join(box.dir, `siteops.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
});
afterAll(() => box.cleanup());

/** What bash offers after `words` (the last one is the word being completed). */
function bashComplete(...words: string[]): string[] {
  const line = ["siteops", ...words];
  const quoted = line.map((w) => `'${w}'`).join(" ");
  const out = execFileSync(
    "bash",
    ["-c", `source '${scripts.bash}'; COMP_WORDS=(${quoted}); COMP_CWORD=${line.length - 1}; _siteops; printf '%s\\n' "\${COMPREPLY[@]}"`],
    {
      cwd: box.dir,
      encoding: "utf8",
    },
  );
  return out.split("\n").filter(Boolean).sort();
}

describe("completion", () => {
  it("bash completes commands, subcommands through aliases, flags and their values", () => {
    expect(bashComplete("sn")).toEqual(["snapshots"]);
    expect(bashComplete("snapshot", "")).toEqual(["create", "delete", "get", "list", "prune"]);
    expect(bashComplete("snapshot", "create", "--co")).toEqual(["--concurrency", "--content-type"]);
    expect(bashComplete("snapshot", "create", "--trigger", "")).toEqual(["manual", "scheduled"]);
    expect(bashComplete("snapshot", "prune", "--site", "Blog", "--keep-")).toEqual([
      "--keep-daily",
      "--keep-hourly",
      "--keep-last",
      "--keep-monthly",
      "--keep-weekly",
      "--keep-yearly",
    ]);
    expect(bashComplete("sites", "ls", "--st")).toEqual(["--status"]);
    expect(bashComplete("upgrade", "open", "--no-")).toEqual(["--no-color", "--no-require-approval", "--no-wait"]);
    expect(bashComplete("provider", "")).toEqual(["install"]);
    // File names after a flag whose value is a FILE or a DIR (--upload, --lock, --report, --metrics-file, --out, ...).
    writeFileSync(path.join(box.dir, "dump.sql.gz"), "");
    expect(bashComplete("snapshot", "create", "--upload", "dump")).toEqual(["dump.sql.gz"]);
    expect(bashComplete("snapshot", "create", "--metrics-file", "dump")).toEqual(["dump.sql.gz"]);
    expect(bashComplete("export", "terraform", "--out", "dump")).toEqual(["dump.sql.gz"]);
    expect(bashComplete("export", "terraform", "--form", "")).toEqual(["blocks", "map"]);
  });

  it("completes every command's flags as its declaration lists them, the one its parser and --help derive from", async () => {
    for (const entry of COMMANDS) {
      const { spec } = await entry.load();
      const leaves: [string[], LeafDeclaration][] = isGroup(spec) ? spec.subcommands.map((leaf) => [[spec.name, leaf.name], leaf]) : [[[spec.name], spec]];
      for (const [words, leaf] of leaves) {
        const flags = allFlags(leaf).flatMap((f) => [`--${f.name}`, ...(f.negatable ? [`--no-${f.name}`] : [])]);
        expect(bashComplete(...words, "--"), words.join(" ")).toEqual([...flags].sort());
        const help = leafHelp(`siteops ${words.join(" ")}`, leaf);
        for (const flag of flags) expect(help, `${words.join(" ")} ${flag}`).toContain(flag);
      }
    }
    expect(bashComplete("emulator", "--profile", "")).toEqual(["default", "minimal"]);
    // A value is skipped when finding the command: the flags are still the emulator's after one.
    expect(bashComplete("emulator", "--port", "0", "--pro")).toEqual(["--profile"]);
    expect(bashComplete("emulator", "--profile", "minimal", "--al")).toEqual(["--allow-private-webhooks"]);
    expect(bashComplete("emulator", "--db", "dump")).toEqual(["dump.sql.gz"]);
    // --profile NAME of the API commands names a saved profile: no fixed values.
    expect(bashComplete("sites", "list", "--profile", "")).not.toContain("minimal");
  });

  it("the commands that run their own way (emulator, provider install) print their declaration's help and parse its flags, no others", async () => {
    const emulator = (await COMMANDS.find((e) => e.name === "emulator")!.load()).spec as LeafDeclaration;
    const provider = (await COMMANDS.find((e) => e.name === "provider")!.load()).spec as GroupDeclaration;
    const install = provider.subcommands.find((l) => l.name === "install")!;
    for (const [words, leaf, last] of [
      [["emulator"], emulator, ["--port", "abc"]],
      [["provider", "install"], install, ["--platform", "linux/arm64"]],
    ] as const) {
      const path = `siteops ${words.join(" ")}`;
      expect((await runCli([...words, "--help"], { env: box.env })).stdout.trimEnd()).toBe(leafHelp(path, leaf));
      // Every declared flag at once, then one whose value the command (not the parser) refuses: the parser took them all.
      const given = allFlags(leaf)
        .filter((f) => f.name !== "help" && f.name !== last[0].slice(2))
        .flatMap((f) => (f.type === "boolean" ? [`--${f.name}`] : [`--${f.name}`, f.choices?.[0] ?? "x"]));
      const all = await runCli([...words, ...given, ...last], { env: box.env });
      expect(all.code).toBe(2);
      expect(all.stderr).toContain(last[0]);
      expect(all.stderr).not.toMatch(/unknown flag/);
      const bogus = await runCli([...words, "--bogus"], { env: box.env });
      expect([bogus.code, bogus.stderr.trim()]).toEqual([2, `error: unknown flag --bogus for ${path}; see ${path} --help`]);
    }
  });

  it.skipIf(missing("zsh") || missing("fish"))("zsh and fish accept their scripts", () => {
    for (const [shell, check] of [
      ["zsh", ["-n"]],
      ["fish", ["--no-execute"]],
    ] as const) {
      const r = spawnSync(shell, [...check, scripts[shell]!], { encoding: "utf8" });
      expect(r.status, `${shell}: ${r.stderr}`).toBe(0);
    }
  });

  it.skipIf(missing("fish"))("fish completes the same", () => {
    const complete = (line: string) =>
      execFileSync("fish", ["-c", `source '${scripts.fish}'; complete -C '${line}'`], { encoding: "utf8" })
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0])
        .sort();
    expect(complete("siteops snapshot cr")).toEqual(["create"]);
    expect(complete("siteops snapshot create --trigger ")).toEqual(["manual", "scheduled"]);
    expect(complete("siteops sites ls --st")).toEqual(["--status"]);
    expect(complete("siteops emulator --profile ")).toEqual(["default", "minimal"]);
  });

  it.skipIf(missing("zsh"))("zsh offers the same words (compadd stubbed to print them)", () => {
    const complete = (...words: string[]) =>
      execFileSync(
        "zsh",
        [
          "-c",
          `compdef() { :; }; source '${scripts.zsh}'; compadd() { shift; print -l -- "$@" }; _files() { print FILES }; words=(siteops ${words.map((w) => `'${w}'`).join(" ")}); CURRENT=${words.length + 1}; _siteops`,
        ],
        { encoding: "utf8" },
      )
        .split("\n")
        .filter(Boolean)
        .sort();
    expect(complete("snapshot", "")).toEqual(["create", "delete", "get", "list", "prune"]);
    expect(complete("snapshot", "create", "--trigger", "")).toEqual(["manual", "scheduled"]);
    expect(complete("snapshot", "create", "--upload", "")).toEqual(["FILES"]);
  });

  it("rejects an unknown shell", async () => {
    const r = await runCli(["completion", "tcsh"], { env: box.env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('error: unknown shell "tcsh": one of bash, zsh, fish');
  });
});
