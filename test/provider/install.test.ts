// `siteops provider install`: the implied local mirror, then a plain `terraform init` (no CLI config).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import command, { installExecutable, installProvider, terraformPlatform, withFallbackNode } from "../../cli/commands/provider/index.js";
import { ROOT, Terraform, buildProvider } from "./harness.js";
import { removeDir, tempDir } from "../support/temp.js";

let tf: Terraform;
let scratch: string;
beforeAll(async () => {
  tf = await Terraform.start();
  scratch = tempDir("install");
});
afterAll(async () => {
  await tf?.close();
  removeDir(scratch);
});

describe("siteops provider install", () => {
  it("maps Node platforms to Terraform's", () => {
    expect(terraformPlatform("linux", "x64")).toBe("linux_amd64");
    expect(terraformPlatform("darwin", "arm64")).toBe("darwin_arm64");
    expect(terraformPlatform("win32", "x64")).toBe("windows_amd64");
  });

  it("explains itself and rejects unknown subcommands", async () => {
    // The command prints through console: capture it, so the test run shows none of it and it is checked.
    const out = vi.spyOn(console, "log").mockImplementation(() => {});
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await command.run(["frobnicate"])).toBe(2);
      expect(err.mock.calls.join("\n")).toContain('unknown subcommand "frobnicate"');
      expect(err.mock.calls.join("\n")).toContain("usage: siteops provider install [--dir DIR]");
      expect(await command.run(["install", "--help"])).toBe(0);
      expect(out.mock.calls.join("\n")).toContain("usage: siteops provider install [--dir DIR]");
      // True of an installed package too, where nobody runs the build.
      expect(out.mock.calls.join("\n")).not.toContain("built by `npm run build`");
      expect(out.mock.calls.join("\n")).toContain("--executable");
      expect(await command.run(["install", "--from", scratch])).toBe(2);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it("says where a single executable comes from when there is none", () => {
    const root = path.join(scratch, "no-release");
    mkdirSync(root);
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "siteops", version: "0.1.0" }));
    expect(() => installExecutable(path.join(scratch, "p"), undefined, root, "linux_amd64")).toThrow(
      /no single executable for linux_amd64: .*terraform-provider-siteops_0\.1\.0_linux_amd64\.zip is missing \(run `npm run build:release`/,
    );
    expect(() => installExecutable(path.join(scratch, "p"), root, root, "linux_amd64")).toThrow(/is missing$/);
  });

  it("quotes the fallback Node.js for sh, and refuses a launcher without the fallback line", () => {
    const launcher = '#!/bin/sh\nFALLBACK_NODE=""\nexec "$FALLBACK_NODE"\n';
    const node = path.join(scratch, "it's", "node");
    const installed = withFallbackNode(launcher, node);
    const shown = spawnSync("sh", ["-c", `${installed.split("\n")[1]}; printf %s "$FALLBACK_NODE"`], { encoding: "utf8" });
    expect(shown.stdout).toBe(node);
    expect(() => withFallbackNode("#!/bin/sh\n", node)).toThrow(/has no FALLBACK_NODE="" line: run `npm run build` again/);
  });

  it("fails clearly when the provider is not built", () => {
    const root = path.join(scratch, "unbuilt");
    mkdirSync(root);
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "siteops", version: "0.1.0" }));
    expect(() => installProvider(path.join(scratch, "p"), root)).toThrow(/run `npm run build` first/);
  });

  it("installs into ~/.terraform.d/plugins where a plain terraform init finds it offline", async () => {
    // A package root with a built dist/provider, as after `npm run build`.
    const { dir, version } = await buildProvider();
    const root = path.join(scratch, "pkg");
    mkdirSync(path.join(root, "dist"), { recursive: true });
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "siteops", version }));
    cpSync(dir, path.join(root, "dist", "provider"), { recursive: true });

    const home = path.join(scratch, "home");
    const result = installProvider(path.join(home, ".terraform.d", "plugins"), root);
    expect(result.launcher).toBe(
      path.join(home, ".terraform.d/plugins/registry.terraform.io/siteops/siteops", version, terraformPlatform(), `terraform-provider-siteops_v${version}`),
    );
    expect(statSync(result.launcher).mode & 0o111).not.toBe(0);
    // The launcher states the package's supported Node.js ("engines") and the SITEOPS_NODE it reads; the packed one
    // names no Node.js, the installed one this install's as its fallback.
    const engines = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
    const launcher = readFileSync(result.launcher, "utf8");
    expect(launcher).toContain(`with Node.js (${engines.replace(">=", ">= ")}): $SITEOPS_NODE when set`);
    expect(readFileSync(path.join(dir, `terraform-provider-siteops_v${version}`), "utf8")).toContain('\nFALLBACK_NODE=""\n');
    expect(launcher).toContain(`\nFALLBACK_NODE='${process.execPath}'\n`);
    // Run by hand where PATH has no node: the fallback runs the provider, which says it is a plugin.
    const byHand = spawnSync(result.launcher, [], { encoding: "utf8", env: { PATH: path.join(scratch, "empty") } });
    expect(byHand.stderr).toContain("This binary is a plugin. These are not meant to be executed directly.");

    // No provider_installation block at all: Terraform's implied local mirror.
    const emptyConfig = path.join(scratch, "empty.tfrc");
    writeFileSync(emptyConfig, "");
    const env = { HOME: home, TF_CLI_CONFIG_FILE: emptyConfig };
    tf.write(
      tf.providerBlock() +
        `
resource "siteops_site" "installed" {
  name = "Installed"
  url  = "https://installed.example.com"

  deletion_protection = false # destroyed below
}
`,
    );
    const init = await tf.run(["init", "-input=false", "-no-color"], { env });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`Installing siteops/siteops v${version}`);
    const apply = await tf.run(["apply", "-auto-approve", "-no-color"], { env });
    expect(apply.stdout).toContain("Apply complete! Resources: 1 added");
    const destroy = await tf.run(["destroy", "-auto-approve", "-no-color"], { env });
    expect(destroy.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
  });
});
