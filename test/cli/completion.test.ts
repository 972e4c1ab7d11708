// `siteops completion bash|zsh|fish`: the scripts complete commands, subcommands (through aliases), flags and
// flag values. The bash script is run by bash with the words a user typed; zsh and fish scripts are checked by
// their shells' parsers when those shells are installed.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    // File names after --upload, --lock, --report and --out.
    writeFileSync(path.join(box.dir, "dump.sql.gz"), "");
    expect(bashComplete("snapshot", "create", "--upload", "dump")).toEqual(["dump.sql.gz"]);
    expect(bashComplete("export", "terraform", "--out", "dump")).toEqual(["dump.sql.gz"]);
    expect(bashComplete("export", "terraform", "--form", "")).toEqual(["blocks", "map"]);
  });

  it("completes the flags of the commands with their own parsers as their --help lists them, --profile's values only for the emulator", async () => {
    for (const [words, help] of [
      [["emulator"], ["emulator", "--help"]],
      [
        ["provider", "install"],
        ["provider", "install", "--help"],
      ],
    ]) {
      const listed = (await runCli(help, { env: box.env })).stdout.match(/--[a-z][a-z-]+/g)!;
      expect(bashComplete(...words, "--")).toEqual([...new Set([...listed, "--help"])].sort());
    }
    expect(bashComplete("emulator", "--profile", "")).toEqual(["default", "minimal"]);
    expect((await runCli(["emulator", "--help"], { env: box.env })).stdout).toContain("--profile default|minimal");
    // A value is skipped when finding the command: the flags are still the emulator's after one.
    expect(bashComplete("emulator", "--port", "0", "--pro")).toEqual(["--profile"]);
    expect(bashComplete("emulator", "--profile", "minimal", "--al")).toEqual(["--allow-private-webhooks"]);
    // --profile NAME of the API commands names a saved profile: no fixed values.
    expect(bashComplete("sites", "list", "--profile", "")).not.toContain("minimal");
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
