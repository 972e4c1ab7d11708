// The generated references: docs/cli-reference.md covers every declared command, flag and exit code, and the
// action's README tables follow action.yml; scripts/check-generated-docs.mjs fails on a stale committed copy.
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../cli/exit-codes.js";
import { COMMANDS } from "../../cli/registry.js";
import { allFlags, isGroup } from "../../cli/spec.js";
// @ts-expect-error: plain .mjs scripts, no declarations
import { withActionTables } from "../../scripts/generate-action-readme.mjs";
// @ts-expect-error: plain .mjs scripts, no declarations
import { cliReference, commandTable, withCommandTable } from "../../scripts/generate-cli-reference.mjs";
import { removeDir, tempDir } from "../support/temp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("docs/cli-reference.md", () => {
  it("has a section for every command and subcommand, every flag, and every exit code", async () => {
    const reference: string = await cliReference();
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(reference).toContain(`## \`siteops ${entry.name}\``);
      if (!("spec" in command)) continue;
      const leaves = isGroup(command.spec) ? command.spec.subcommands.map((l) => [`siteops ${entry.name} ${l.name}`, l] as const) : [];
      for (const [title, leaf] of leaves) {
        const section = reference.slice(reference.indexOf(`### \`${title}\``));
        expect(section, title).not.toBe("");
        const own = section.slice(0, section.indexOf("\n### ", 1) === -1 ? undefined : section.indexOf("\n### ", 1));
        for (const flag of allFlags(leaf)) expect(own, `${title} --${flag.name}`).toContain(`--${flag.name}`);
      }
    }
    for (const code of Object.values(EXIT)) expect(reference).toMatch(new RegExp(`^\\| ${code} \\|`, "m"));
    expect(reference).toContain("| `-c`, `--concurrency N` | sites at a time, 1 to 64 (default 4) | 4 |");
  }, 180_000);
});

describe("docs/cli.md's command table", () => {
  it("has a row for every command and subcommand, linked to its reference section, and the job's guide", async () => {
    const table: string = await commandTable();
    const guide = readFileSync(path.join(ROOT, "docs/cli.md"), "utf8");
    expect(guide).toContain(table);
    for (const entry of COMMANDS) {
      const command = await entry.load();
      const names = "spec" in command && isGroup(command.spec) ? command.spec.subcommands.map((l) => `${entry.name} ${l.name}`) : [entry.name];
      for (const name of names) expect(table, name).toContain(`| [\`siteops ${name}\`](cli-reference.md#siteops-${name.replace(" ", "-")}) |`);
    }
    for (const name of ["upgrade rollout", "vulns apply", "vulns fix"])
      expect(table).toMatch(new RegExp(`siteops ${name}\`.*\\(guides/[a-z-]+\\.md\\) \\|$`, "m"));
  }, 180_000);

  it("is rewritten between its markers, the rest of the page kept, and names a missing marker", () => {
    const page = "# x\n<!-- BEGIN GENERATED: commands (how) -->\nold\n<!-- END GENERATED: commands -->\ntext\n";
    const out: string = withCommandTable(page, "| a |");
    expect(out).toBe("# x\n<!-- BEGIN GENERATED: commands (how) -->\n| a |\n<!-- END GENERATED: commands -->\ntext\n");
    expect(() => withCommandTable("# none\n", "| a |")).toThrow(/docs\/cli\.md has no "<!-- BEGIN GENERATED: commands/);
  });
});

describe("the action's README tables", () => {
  const yml = `inputs:\n  site:\n    description: "Which site. Default: all of them."\n  wait:\n    description: "Wait."\n    default: "true"\noutputs:\n  status:\n    description: "The status."\n`;
  const page =
    "# x\n<!-- BEGIN GENERATED: inputs (from action.yml) -->\nold\n<!-- END GENERATED: inputs -->\ntext\n<!-- BEGIN GENERATED: outputs -->\n<!-- END GENERATED: outputs -->\n";

  it("are rewritten between their markers from action.yml, the rest of the page kept", () => {
    const out: string = withActionTables(page, yml);
    expect(out).toContain("| `site` | no | all of them | Which site. |");
    expect(out).toContain("| `wait` | no | `true` | Wait. |");
    expect(out).toContain("| `status` | The status. |");
    expect(out).not.toContain("old");
    expect(out).toContain("-->\ntext\n");
    expect(withActionTables(out, yml)).toBe(out);
  });

  it("name the missing marker", () => {
    expect(() => withActionTables("# no markers\n", yml)).toThrow(/action\/README\.md has no "<!-- BEGIN GENERATED: inputs/);
  });
});

describe("scripts/check-generated-docs.mjs", () => {
  it("passes on the repository and fails, naming the file, line and command, on a stale reference", () => {
    const check = (root: string) => spawnSync(process.execPath, [path.join(root, "scripts/check-generated-docs.mjs")], { cwd: root, encoding: "utf8" });
    const ok = check(ROOT);
    expect(ok.status, ok.stderr).toBe(0);

    const dir = tempDir("generated-docs");
    try {
      for (const f of [
        "scripts",
        "src",
        "common",
        "wire",
        "cli",
        "visual",
        // cli/commands/export/keys-file.ts reads an earlier export through the provider's reader.
        "provider/export",
        "action/action.yml",
        "action/README.md",
        "docs/cli-reference.md",
        "docs/cli.md",
        "docs/guides",
        "package.json",
        "tsconfig.json",
      ]) {
        cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
      }
      symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
      const file = path.join(dir, "docs/cli-reference.md");
      writeFileSync(file, readFileSync(file, "utf8").replace("sites at a time, 1 to 64 (default 4)", "sites at a time"));
      const stale = check(dir);
      expect(stale.status).toBe(1);
      expect(stale.stderr).toMatch(/docs\/cli-reference\.md is stale \(line \d+: committed .*sites at a time \| .*\): run npm run generate:docs/);
    } finally {
      removeDir(dir);
    }
  }, 300_000);
});
