// `siteops provider install [--dir DIR] [--executable [--from DIR]]`: puts the Terraform provider into
// Terraform's implied local mirror (or another plugin directory), so that a plain `terraform init` finds
// `source = "siteops/siteops"` offline: the Node.js launcher this package carries, or the single executable
// for this platform from a release directory (`npm run build:release`), checked against its SHA256SUMS. Its
// flags are declared once (installDeclaration): --help, the parser and shell completion derive from them.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { writeFileExclusive } from "../../../common/private-file.js";
import { type FlagSpec, flagBool, flagString, parseArgv } from "../../args.js";
import type { Command } from "../../command.js";
import { leafHelp, wantsHelp } from "../../help.js";
import { packageRoot } from "../../../common/package-root.js";
import { allFlags, type GroupDeclaration, type LeafDeclaration } from "../../spec.js";

const HOSTNAME = "registry.terraform.io";
const NAMESPACE = "siteops";
const TYPE = "siteops";

const INSTALL_FLAGS = [
  {
    name: "dir",
    type: "string",
    value: "DIR",
    description:
      "plugin directory (default: ~/.terraform.d/plugins, Terraform's implied local mirror; use a directory named in a filesystem_mirror block of your CLI config instead if you have one)",
  },
  { name: "executable", type: "boolean", description: "install the single executable instead of the Node.js launcher" },
  {
    name: "from",
    type: "string",
    value: "DIR",
    description: `with --executable: where the release files are, \`terraform-provider-${TYPE}_<version>_<os>_<arch>.zip\` and \`terraform-provider-${TYPE}_<version>_SHA256SUMS\`, as downloaded from a release or made by \`npm run build:release\` in a source checkout (default: dist/release/ of this package)`,
  },
  {
    name: "platform",
    type: "string",
    value: "OS_ARCH",
    description:
      "with --executable: the platform of the machine that will run Terraform, if not this one (e.g. linux_amd64, for a configuration's own terraform.d/plugins that a remote agent will use)",
  },
] as const satisfies readonly FlagSpec[];

type InstallFlag = (typeof INSTALL_FLAGS)[number]["name"];

const installDeclaration: LeafDeclaration = {
  name: "install",
  summary: "install the Terraform provider into Terraform's local plugin directory",
  usage: "[--dir DIR] [--executable [--from DIR] [--platform OS_ARCH]]",
  // Blocks indented by four spaces, between blank lines: verbatim in a terminal and in docs/cli-reference.md.
  description: `Installs the siteops Terraform provider of this package's version where Terraform looks for providers
without a registry. By default that is the provider this package carries (dist/provider/), which runs on
Node.js >= 22.13 on the machine that runs Terraform: SITEOPS_NODE when set (a node executable), else the node on
Terraform's PATH, else the Node.js that ran this install:

    DIR/${HOSTNAME}/${NAMESPACE}/${TYPE}/<version>/<os>_<arch>/terraform-provider-${TYPE}_v<version>

With --executable it is the single executable for this platform instead, which needs no Node.js: the
release zip, checked against the release's SHA256SUMS and installed as it is (Terraform unpacks it):

    DIR/${HOSTNAME}/${NAMESPACE}/${TYPE}/terraform-provider-${TYPE}_<version>_<os>_<arch>.zip

Then, in your configuration:

    terraform {
      required_providers {
        ${TYPE} = { source = "${NAMESPACE}/${TYPE}" }
      }
    }`,
  flags: INSTALL_FLAGS,
  examples: ["siteops provider install", "siteops provider install --executable --from ./release --platform linux_amd64 --dir ./terraform.d/plugins"],
  standalone: true,
};

/** `siteops provider` as --help, shell completion and docs/cli-reference.md know it. */
const providerDeclaration: GroupDeclaration = {
  name: "provider",
  summary: installDeclaration.summary,
  subcommands: [installDeclaration],
};

/** `siteops provider install`'s help: the only subcommand's, also for `siteops provider --help`. */
const HELP = leafHelp("siteops provider install", installDeclaration);

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

function packageVersion(root: string): string {
  return (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
}

/** Where the two kinds of install of one version and platform go; installing one removes the other. */
function installPaths(pluginDir: string, version: string, platform: string): { unpacked: string; packed: string } {
  const typeDir = path.join(pluginDir, HOSTNAME, NAMESPACE, TYPE);
  return { unpacked: path.join(typeDir, version, platform), packed: path.join(typeDir, `terraform-provider-${TYPE}_${version}_${platform}.zip`) };
}

/** Copies dist/provider into the plugin directory, the launcher with `node` as its fallback; returns where it went. */
export function installProvider(pluginDir: string, root = packageRoot(), node = process.execPath): InstallResult {
  const version = packageVersion(root);
  const built = path.join(root, "dist", "provider");
  const launcherName = `terraform-provider-${TYPE}_v${version}`;
  if (!existsSync(path.join(built, launcherName))) {
    throw new Error(
      `the provider is not built (${path.relative(process.cwd(), path.join(built, launcherName)) || built} is missing): run \`npm run build\` first`,
    );
  }
  const { unpacked: dir, packed } = installPaths(pluginDir, version, terraformPlatform());
  // Replace, not merge: a stale bundle next to a new launcher would be worse than none.
  rmSync(dir, { recursive: true, force: true });
  rmSync(packed, { force: true });
  mkdirSync(dir, { recursive: true });
  // Each file as every CLI writer writes (common/private-file.ts): a link planted in a shared plugin directory
  // never receives the provider's code.
  for (const file of readdirSync(built)) {
    const bytes = readFileSync(path.join(built, file));
    const content = file === launcherName ? withFallbackNode(bytes.toString("utf8"), node) : bytes;
    writeFileExclusive(path.join(dir, file), content, { mode: file === launcherName ? 0o755 : 0o644 });
  }
  return { dir, launcher: path.join(dir, launcherName), version };
}

/** The packed launcher's empty fallback (scripts/build-provider.mjs, launcherScript): the package names no Node.js. */
const NO_FALLBACK = 'FALLBACK_NODE=""';

/**
 * The launcher as installed: the Node.js that runs this install becomes its fallback, for a Terraform whose PATH
 * has no node (an IDE, a service); SITEOPS_NODE and the PATH's node still come first (docs/node-versions.md).
 */
export function withFallbackNode(launcher: string, node: string): string {
  const lines = launcher.split("\n");
  const at = lines.indexOf(NO_FALLBACK);
  if (at < 0) throw new Error(`the provider's launcher has no ${NO_FALLBACK} line: run \`npm run build\` again`);
  lines[at] = `FALLBACK_NODE='${node.replaceAll("'", "'\\''")}'`;
  return lines.join("\n");
}

export interface ExecutableInstallResult {
  zip: string;
  version: string;
  platform: string;
}

/**
 * Installs the single executable for `platform` from a release directory: its zip, after checking the zip's
 * SHA-256 against the release's SHA256SUMS (a truncated download or a zip of another build is refused).
 */
export function installExecutable(pluginDir: string, releaseDir?: string, root = packageRoot(), platform = terraformPlatform()): ExecutableInstallResult {
  const version = packageVersion(root);
  const from = releaseDir ?? path.join(root, "dist", "release");
  const zipName = `terraform-provider-${TYPE}_${version}_${platform}.zip`;
  const sumsName = `terraform-provider-${TYPE}_${version}_SHA256SUMS`;
  const shown = (file: string) => (path.relative(process.cwd(), file).startsWith("..") ? file : path.relative(process.cwd(), file));
  const zipFile = path.join(from, zipName);
  if (!existsSync(zipFile)) {
    const prefix = `terraform-provider-${TYPE}_${version}_`;
    const present = existsSync(from) ? readdirSync(from).filter((f) => f.startsWith(prefix) && f.endsWith(".zip")) : [];
    const hint = present.length
      ? ` (the release there has ${present.map((f) => f.slice(prefix.length, -".zip".length)).join(", ")})`
      : releaseDir
        ? ""
        : " (run `npm run build:release` in a source checkout, or pass --from DIR with a release's files)";
    throw new Error(`no single executable for ${platform}: ${shown(zipFile)} is missing${hint}`);
  }
  const sumsFile = path.join(from, sumsName);
  if (!existsSync(sumsFile)) throw new Error(`cannot check ${zipName}: ${shown(sumsFile)} is missing`);
  const listed = readFileSync(sumsFile, "utf8")
    .split("\n")
    .map((line) => /^([0-9a-f]{64}) [ *]?(.+)$/.exec(line.trim()))
    .find((m) => m?.[2] === zipName)?.[1];
  if (!listed) throw new Error(`${shown(sumsFile)} does not list ${zipName}`);
  const zip = readFileSync(zipFile);
  const actual = createHash("sha256").update(zip).digest("hex");
  if (actual !== listed) throw new Error(`${shown(zipFile)} does not match ${sumsName} (SHA-256 ${actual}, listed ${listed}): download it again`);
  const { unpacked, packed } = installPaths(pluginDir, version, platform);
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(path.dirname(packed), { recursive: true });
  writeFileExclusive(packed, zip, { mode: 0o644 });
  return { zip: packed, version, platform };
}

/** The install flags by their declared names (a UsageError for a bad command line). */
function installFlags(args: readonly string[]) {
  const parsed = parseArgv(args, allFlags(installDeclaration), [], "siteops provider install");
  const text = (name: InstallFlag) => flagString(parsed, name);
  const on = (name: InstallFlag) => flagBool(parsed, name) === true;
  return { dir: text("dir"), executable: on("executable"), from: text("from"), platform: text("platform") };
}

const command: Command = {
  summary: providerDeclaration.summary,
  spec: providerDeclaration,
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
    if (wantsHelp(rest)) {
      console.log(HELP);
      return 0;
    }
    let flags: ReturnType<typeof installFlags>;
    try {
      flags = installFlags(rest);
    } catch (err) {
      // Bad flags are a usage error (exit 2, as for every siteops command), found before anything is installed.
      console.error(`error: ${(err as Error).message}`);
      return 2;
    }
    for (const flag of ["from", "platform"] as const) {
      if (flags[flag] !== undefined && !flags.executable) {
        console.error(`siteops provider install: --${flag} is about the single executable; use it with --executable`);
        return 2;
      }
    }
    const { platform, from } = flags;
    if (platform !== undefined && !/^[a-z0-9]+_[a-z0-9]+$/.test(platform)) {
      console.error(`siteops provider install: --platform must look like linux_amd64 (OS_ARCH), not "${platform}"`);
      return 2;
    }
    const pluginDir = path.resolve(flags.dir ?? path.join(homedir(), ".terraform.d", "plugins"));
    if (flags.executable) {
      const result = installExecutable(pluginDir, from === undefined ? undefined : path.resolve(from), undefined, platform);
      console.log(`installed siteops/siteops ${result.version} (single executable, ${result.platform}) at ${result.zip}`);
    } else {
      const result = installProvider(pluginDir);
      console.log(`installed siteops/siteops ${result.version} at ${result.launcher}`);
    }
    console.error(
      `Use it with source = "${NAMESPACE}/${TYPE}" in required_providers and run \`terraform init\`. ` +
        "After reinstalling the same version, remove its entry from .terraform.lock.hcl (or run `terraform init -upgrade`).",
    );
    return 0;
  },
};

export default command;
