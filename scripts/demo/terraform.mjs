// Terraform for the demo: the provider bundled into a filesystem mirror in the demo's temp dir, a CLI config
// that points at it (the user's own config is not touched), and runs whose failures become one clear error.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export class DemoError extends Error {
  name = "DemoError";
}

const MIN_TERRAFORM = [1, 5];

function exec(file, args, options) {
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) => resolve({ error, stdout, stderr }));
  });
}

/** The terraform version on the PATH; a DemoError when there is none or it is too old. */
export async function terraformVersion() {
  const { error, stdout } = await exec("terraform", ["version", "-json"], { env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  if (error && error.code === "ENOENT") {
    throw new DemoError(
      "terraform is not on the PATH. Install Terraform 1.5 or later (https://developer.hashicorp.com/terraform/install) and run `npm run demo` again.",
    );
  }
  let version;
  try {
    version = JSON.parse(stdout).terraform_version;
  } catch {
    throw new DemoError(`\`terraform version -json\` failed: ${(error?.message ?? stdout).split("\n")[0]}`);
  }
  const [major, minor] = String(version).split(".").map(Number);
  if (major < MIN_TERRAFORM[0] || (major === MIN_TERRAFORM[0] && minor < MIN_TERRAFORM[1])) {
    throw new DemoError(`terraform ${version} is too old: the demo needs ${MIN_TERRAFORM.join(".")} or later.`);
  }
  return version;
}

/** Bundles the provider into `<dir>/mirror` and writes `<dir>/cli.tfrc` that installs it from there. */
export async function installProvider(root, dir) {
  const build = await import(pathToFileURL(path.join(root, "scripts/build-provider.mjs")).href);
  const version = build.providerVersion(root);
  const mirror = path.join(dir, "mirror");
  const pkg = path.join(mirror, "registry.terraform.io/siteops/siteops", version, `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`);
  mkdirSync(pkg, { recursive: true });
  await build.default({ root, outDir: pkg, quiet: true });
  const cliConfig = path.join(dir, "cli.tfrc");
  writeFileSync(
    cliConfig,
    `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(mirror)}
    include = ["registry.terraform.io/siteops/siteops"]
  }
  direct {
    exclude = ["registry.terraform.io/siteops/siteops"]
  }
}
`,
  );
  return { version, cliConfig };
}

/** The lines of terraform's error output that say what went wrong (the "Error:" blocks). */
function errorLines(text) {
  const lines = text.split("\n").map((l) => l.replace(/^[│╷╵]\s?/, "").trimEnd());
  const start = lines.findIndex((l) => l.startsWith("Error:"));
  return (start >= 0 ? lines.slice(start) : lines)
    .filter((l) => l.trim())
    .slice(0, 12)
    .join("\n  ");
}

export class Terraform {
  /** @param {string} cwd @param {Record<string, string>} env */
  constructor(cwd, env) {
    this.cwd = cwd;
    this.env = env;
  }

  async run(...args) {
    const { error, stdout, stderr } = await exec("terraform", [...args, "-no-color"], { cwd: this.cwd, env: this.env });
    if (error) throw new DemoError(`terraform ${args[0]} failed:\n  ${errorLines(stderr || stdout) || error.message}`);
    return stdout;
  }
}
