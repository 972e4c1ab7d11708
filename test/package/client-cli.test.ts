// A client and CLI user's path from the packed tarball: the README's install line (siteops alone, no peers),
// its client snippet against the emulator, require() from CommonJS, the CLI (--version, the emulator's
// missing-peers line), and `siteops provider install` + plain `terraform init/apply` of the README's HCL.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { NODE, PKG, Project, docBlock, npmInstallArgs, unexplainedWarnings } from "./helpers.js";
import { execFileSync } from "node:child_process";

const NODE_VERSION = execFileSync(NODE, ["--version"], { encoding: "utf8" }).trim();

const TOKEN = "sot_consumerPackageTest000001";
const seed = {
  accounts: [
    {
      name: "Consumer",
      users: [{ email: "c@consumer.test", password: "consumer-pass-1", name: "C", role: "owner" as const }],
      api_tokens: [{ token: TOKEN, user_email: "c@consumer.test" }],
      sites: [{ name: "Existing", url: "https://existing.example.com" }],
    },
  ],
};

describe("the packed package, installed for the client and the CLI", () => {
  let project: Project;
  let emulator: RunningEmulator;

  beforeAll(async () => {
    // The provider's install block (the client and the CLI need nothing beside the tarball either).
    const args = npmInstallArgs(docBlock("docs/terraform.md", "Terraform provider", "sh"));
    expect(args).toEqual([`../siteops/siteops-${PKG.version}.tgz`]);
    [project, emulator] = await Promise.all([Project.create("client", [...args, "@types/node@^22"]), startSeededEmulator(seed)]);
  }, 120_000);
  afterAll(async () => {
    await emulator?.close();
    project?.remove();
  });

  it("installs without a warning the README does not explain (no EBADENGINE on a supported Node)", () => {
    expect(unexplainedWarnings(project.installOutput)).toEqual([]);
  });

  it("runs the README's client snippet against the emulator", async () => {
    const snippet = docBlock("docs/client.md", "The API client (`siteops`)", "ts").replace("https://siteops.example.com", emulator.url);
    const r = await project.run("client.ts", snippet, { SITEOPS_API_TOKEN: TOKEN });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Existing \w+/m);
    const sites = await fetch(`${emulator.url}/api/v1/sites`, { headers: { authorization: `token ${TOKEN}` } });
    expect(((await sites.json()) as { name: string }[]).map((s) => s.name)).toContain("Company blog");
  });

  it("typechecks the client snippet without skipLibCheck", async () => {
    const r = await project.typecheck(["client.ts"]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 60_000);

  it("loads from CommonJS with require()", async () => {
    const r = await project.run("require.cjs", 'const { SiteOps, NotFoundError } = require("siteops");\nconsole.log(typeof SiteOps, typeof NotFoundError);\n');
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("function function");
  });

  it("runs on the Node.js under test (SITEOPS_TEST_NODE in the other legs of .ci/run)", async () => {
    const r = await project.run("version.mjs", "console.log(process.version);\n");
    expect(r.stdout.trim()).toBe(NODE_VERSION);
  });

  it("answers --version and --help", async () => {
    expect((await project.siteops(["--version"])).stdout.trim()).toBe(PKG.version);
    const help = await project.siteops(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: siteops <command>");
  });

  it("says in one line how to install the emulator's peers: the CLI exits 2, startEmulator throws it", async () => {
    const r = await project.siteops(["emulator", "--demo"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const peers = [
      "fastify",
      "@fastify/type-provider-typebox",
      "jose",
      "otplib",
      "typebox",
      "@fastify/cookie",
      "@fastify/csrf-protection",
      "@fastify/formbody",
    ];
    const expected = `siteops emulator: the emulator needs its optional peer dependencies (missing: ${peers.join(", ")}); install them with: npm i -D ${peers.map((p) => `${p}@${PKG.peerDependencies[p]}`).join(" ")}`;
    expect(r.stderr).toBe(`${expected}\n`);
    // The README shows the same line.
    expect(docBlock("emulator/README.md", "Running it from the installed package", "")).toContain(expected);
    // "siteops/emulator" imports without them, and startEmulator throws the same line.
    const inProcess = await project.run(
      "emulator-peers.mjs",
      'const { startEmulator } = await import("siteops/emulator");\nawait startEmulator().catch((err) => console.log(err.code, err.message));\n',
    );
    expect(inProcess.stderr).toBe("");
    expect(inProcess.stdout).toBe(`ERR_SITEOPS_EMULATOR_PEERS ${expected.replace(/^siteops emulator:/, "siteops/emulator:")}\n`);
  });

  it("installs the provider where a plain terraform init finds it, and applies the README's HCL", async () => {
    // No reset: the guide's HCL names another URL than the client snippet's site, so a reader can follow both.
    const r = await project.siteops(["provider", "install"]);
    expect(r.code, r.stderr).toBe(0);
    const work = path.join(project.dir, "tf");
    mkdirSync(work);
    writeFileSync(path.join(work, "main.tf"), docBlock("docs/terraform.md", "Terraform provider", "hcl"));
    // An empty CLI config: Terraform's implied local mirror (~/.terraform.d/plugins) is all it searches.
    writeFileSync(path.join(project.dir, "empty.tfrc"), "");
    const env = { TF_CLI_CONFIG_FILE: path.join(project.dir, "empty.tfrc"), TF_IN_AUTOMATION: "1", SITEOPS_BASE_URL: emulator.url, SITEOPS_API_TOKEN: TOKEN };
    const init = await project.exec("terraform", ["init", "-input=false", "-no-color"], { cwd: work, env });
    expect(init.code, init.stdout + init.stderr).toBe(0);
    // The one warning the README explains (section "Install" of the provider).
    expect(init.stdout + init.stderr).toContain("Incomplete lock file information for providers");
    const apply = await project.exec("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: work, env });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    // The site is protected from deletion by default: destroy is refused until deletion_protection = false is applied.
    const refused = await project.exec("terraform", ["destroy", "-auto-approve", "-input=false", "-no-color"], { cwd: work, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("deletion_protection is on");
    const hcl = readFileSync(path.join(work, "main.tf"), "utf8");
    writeFileSync(path.join(work, "main.tf"), hcl.replace(/(\n\s*url\s*=\s*"[^"]+")/, "$1\n  deletion_protection = false"));
    const off = await project.exec("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: work, env });
    expect(off.stdout, off.stdout + off.stderr).toContain("Apply complete! Resources: 0 added, 1 changed, 0 destroyed.");
    const destroy = await project.exec("terraform", ["destroy", "-auto-approve", "-input=false", "-no-color"], { cwd: work, env });
    expect(destroy.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
  }, 90_000);
});
