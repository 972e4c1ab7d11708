// `siteops provider install [--dir DIR]`: copies the bundled Terraform provider into Terraform's implied
// local mirror, so that a plain `terraform init` finds `source = "siteops/siteops"` offline.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Command } from "../command.js";

const HOSTNAME = "registry.terraform.io";
const NAMESPACE = "siteops";
const TYPE = "siteops";

const HELP = `usage: siteops provider install [--dir DIR]

Installs the siteops Terraform provider (built by \`npm run build\`) where Terraform looks for providers
without a registry:

  DIR/${HOSTNAME}/${NAMESPACE}/${TYPE}/<version>/<os>_<arch>/terraform-provider-${TYPE}_v<version>

  --dir DIR   plugin directory (default: ~/.terraform.d/plugins, Terraform's implied local mirror;
              use a directory named in a filesystem_mirror block of your CLI config instead if you have one)

Then, in your configuration:
  terraform {
    required_providers {
      siteops = { source = "${NAMESPACE}/${TYPE}" }
    }
  }`;

/** The package root: the nearest directory above this file with a package.json named "siteops". */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, "package.json");
    if (existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === "siteops") return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the siteops package root");
    dir = parent;
  }
}

export function terraformPlatform(platform = process.platform, arch = process.arch): string {
  const os = platform === "win32" ? "windows" : platform;
  const cpu = arch === "x64" ? "amd64" : arch === "ia32" ? "386" : arch;
  return `${os}_${cpu}`;
}

export interface InstallResult {
  dir: string;
  launcher: string;
  version: string;
}

/** Copies dist/provider into the plugin directory; returns where the launcher went. */
export function installProvider(pluginDir: string, root = packageRoot()): InstallResult {
  const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  const built = path.join(root, "dist", "provider");
  const launcherName = `terraform-provider-${TYPE}_v${version}`;
  if (!existsSync(path.join(built, launcherName))) {
    throw new Error(`the provider is not built (${path.relative(process.cwd(), path.join(built, launcherName)) || built} is missing): run \`npm run build\` first`);
  }
  const dir = path.join(pluginDir, HOSTNAME, NAMESPACE, TYPE, version, terraformPlatform());
  // Replace, not merge: a stale bundle next to a new launcher would be worse than none.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(built)) {
    copyFileSync(path.join(built, file), path.join(dir, file));
    if (file === launcherName) chmodSync(path.join(dir, file), 0o755);
  }
  return { dir, launcher: path.join(dir, launcherName), version };
}

const command: Command = {
  summary: "install the Terraform provider into Terraform's local plugin directory",
  async run(args) {
    const [sub, ...rest] = args;
    if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
      console.log(HELP);
      return sub ? 0 : 2;
    }
    if (sub !== "install") {
      console.error(`siteops provider: unknown subcommand "${sub}"\n\n${HELP}`);
      return 2;
    }
    const { values } = parseArgs({ args: rest, options: { dir: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const pluginDir = path.resolve(values.dir ?? path.join(homedir(), ".terraform.d", "plugins"));
    const result = installProvider(pluginDir);
    console.log(`installed siteops/siteops ${result.version} at ${result.launcher}`);
    console.error(
      `Use it with source = "${NAMESPACE}/${TYPE}" in required_providers and run \`terraform init\`. ` +
        "After reinstalling the same version, remove its entry from .terraform.lock.hcl (or run `terraform init -upgrade`).",
    );
    return 0;
  },
};

export default command;
