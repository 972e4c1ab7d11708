// Shared by test/package/cdktn.test.ts and cdktf.test.ts: a CDK user's path from the packed tarball with the
// README's install line for that CDK, the README's stack snippet synthesized, then deployed with the
// provider that `siteops provider install` put in place and the guide's plain terraform lines against the
// emulator; the CDKTF project then moves to CDK Terrain with the README's commands, and Terraform sees no change.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";
import { TSX_LOADER } from "../support/paths.js";
import { NODE, Project, docBlock, npmInstallArgs, unexplainedWarnings } from "./helpers.js";

const TOKEN = "sot_consumerCdkPackageTest0001";
/** npm as the tests run it inside a consumer project: from the cache when it can, quietly, no scripts. */
const NPM_QUIET = { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_ignore_scripts: "true" };

export function describeCdkConsumer(flavor: "cdktn" | "cdktf", heading: string): void {
  describe(`the packed package, installed for ${heading}`, () => {
    let project: Project;
    let emulator: RunningEmulator;
    const stackDir = () => path.join(project.dir, "cdktf.out", "stacks", "sites");
    const tf = (...args: string[]) => {
      const env = { TF_CLI_CONFIG_FILE: path.join(project.dir, "empty.tfrc"), TF_IN_AUTOMATION: "1", SITEOPS_BASE_URL: emulator.url, SITEOPS_API_TOKEN: TOKEN };
      return project.exec("terraform", [...args, "-input=false", "-no-color"], { cwd: stackDir(), env });
    };

    beforeAll(async () => {
      const args = npmInstallArgs(docBlock("docs/cdk.md", heading, "sh"));
      [project, emulator] = await Promise.all([Project.create(flavor, [...args, "@types/node@^22"]), startSeededEmulator(ownerSeed("CDK", TOKEN))]);
      writeFileSync(path.join(project.dir, "empty.tfrc"), ""); // Terraform's implied local mirror only
    }, 120_000);
    afterAll(async () => {
      await emulator?.close();
      project?.remove();
    });

    it("installs with the README's line: no peer conflict, no unexplained warning", () => {
      expect(project.installOutput).not.toContain("ERESOLVE");
      expect(unexplainedWarnings(project.installOutput).filter((l) => !/EBADENGINE/.test(l))).toEqual([]);
      const pkg = JSON.parse(readFileSync(path.join(project.dir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining([flavor, "constructs", "siteops"]));
    });

    it("synthesizes the README's stack into plain Terraform JSON", async () => {
      const r = await project.run("main.ts", docBlock("docs/cdk.md", heading, "ts"));
      expect(r.code, r.stderr).toBe(0);
      const tf = JSON.parse(readFileSync(path.join(stackDir(), "cdk.tf.json"), "utf8")) as { resource: Record<string, Record<string, unknown>> };
      expect(Object.keys(tf.resource).sort()).toEqual(["siteops_site", "siteops_webhook_endpoint"]);
      expect(tf.resource.siteops_site!.blog).toMatchObject({ name: "Blog", url: "https://cdk-blog.example.com", wp_version: "6.5" });
    });

    it("typechecks the stack without skipLibCheck", async () => {
      const r = await project.typecheck(["main.ts"]);
      expect(r.stdout + r.stderr).toBe("");
      expect(r.code).toBe(0);
    }, 90_000);
    it("deploys it with `siteops provider install` and the guide's plain terraform lines", async () => {
      expect((await project.siteops(["provider", "install"])).code).toBe(0);
      // "Deploy with plain terraform" as written, but for the service and token (the emulator's), tsx (the
      // repository's loader: the install line has no tsx) and the confirmation (TF_CLI_ARGS_apply).
      const lines = docBlock("docs/cdk.md", "Deploy with plain terraform (no cdktf-cli)", "sh")
        .replace(/^export SITEOPS_BASE_URL=.*$/m, `export SITEOPS_BASE_URL=${emulator.url} SITEOPS_API_TOKEN=${TOKEN}`)
        .replace(/^npx tsx /m, `"${NODE}" --import "${TSX_LOADER}" `);
      const env = {
        TF_CLI_CONFIG_FILE: path.join(project.dir, "empty.tfrc"),
        TF_IN_AUTOMATION: "1",
        TF_CLI_ARGS_apply: "-auto-approve",
        TF_CLI_ARGS: "-no-color",
      };
      const r = await project.exec("bash", ["-c", `set -eo pipefail\n${lines}`], { env });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain("Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");
      // Only the output command shows the secret, and only it.
      const [applied, output] = [r.stdout.slice(0, r.stdout.indexOf("Apply complete!")), r.stdout.trimEnd().split("\n").at(-1)!];
      expect(applied).not.toMatch(/whsec_|sot_/);
      expect(output).toMatch(/^"whsec_[A-Za-z0-9+/=]+"$/);
    }, 90_000);

    if (flavor === "cdktf") {
      it("moves to CDK Terrain with the README's commands: the next plan shows no changes", async () => {
        const steps = docBlock("docs/cdk.md", "Moving from CDKTF to CDKTN", "sh")
          .trim()
          .split("\n")
          .map((l) => l.replace(/\s+#.*$/, ""));
        for (const step of steps) {
          const r = await project.exec("bash", ["-c", step], { env: NPM_QUIET });
          expect(r.code, `${step}\n${r.stdout}${r.stderr}`).toBe(0);
        }
        expect(readFileSync(path.join(project.dir, "main.ts"), "utf8")).toContain('from "siteops/cdktn"');
        const synth = await project.run("main.ts", readFileSync(path.join(project.dir, "main.ts"), "utf8"));
        expect(synth.code, synth.stderr).toBe(0);
        const plan = await tf("plan", "-detailed-exitcode");
        expect(plan.code, plan.stdout + plan.stderr).toBe(0);
        expect(plan.stdout).toContain("No changes.");
      }, 90_000);
    }

    it("destroys what it deployed, once the site's deletion protection is off", async () => {
      const main = readFileSync(path.join(project.dir, "main.ts"), "utf8");
      const off = main.replace('wpVersion: "6.5" }', 'wpVersion: "6.5", deletionProtection: false }');
      expect(off).not.toBe(main);
      const synth = await project.run("main.ts", off);
      expect(synth.code, synth.stderr).toBe(0);
      const apply = await tf("apply", "-auto-approve");
      expect(apply.stdout).toContain("Apply complete! Resources: 0 added, 1 changed, 0 destroyed.");
      const destroy = await tf("destroy", "-auto-approve");
      expect(destroy.stdout).toContain("Destroy complete! Resources: 2 destroyed.");
    }, 90_000);
  });
}
