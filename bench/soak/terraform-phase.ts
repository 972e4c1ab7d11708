// Soak phase 3: `terraform apply` of N siteops_site resources, an update of all of them, then `destroy`, with
// the built provider from a filesystem mirror in a temp dir (its own CLI config), under the faults. After
// each run the service's sites are checked against the configuration.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildProvider } from "../../test/provider/harness.js";
import { allSites } from "./core-phase.js";
import type { PhaseResult } from "./report.js";
import { peakSampler, rssOf, treeRss, type FaultedService } from "./service.js";

async function install(home: string): Promise<string> {
  const { dir, version } = await buildProvider();
  const pkg = path.join(home, "mirror/registry.terraform.io/siteops/siteops", version, "linux_amd64");
  mkdirSync(pkg, { recursive: true });
  cpSync(dir, pkg, { recursive: true });
  const cliConfig = path.join(home, "cli.tfrc");
  writeFileSync(
    cliConfig,
    `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(path.join(home, "mirror"))}
    include = ["registry.terraform.io/siteops/siteops"]
  }
  direct {
    exclude = ["registry.terraform.io/siteops/siteops"]
  }
}
`,
  );
  return cliConfig;
}

const config = (url: string, token: string, count: number, suffix: string) => `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}

provider "siteops" {
  base_url  = ${JSON.stringify(url)}
  api_token = ${JSON.stringify(token)}
}

resource "siteops_site" "soak" {
  count = ${count}
  name  = "soak-tf-\${count.index}${suffix}"
  url   = "https://soak-tf-\${count.index}.soak.test"
}
`;

export async function terraformPhase(service: FaultedService, count: number): Promise<PhaseResult> {
  const result: PhaseResult = { phase: `terraform: ${count} sites apply + update + destroy`, operations: 0, succeeded: 0, failed: 0, duplicates: 0, lost: 0, stale: 0, wallMs: 0, emulatorPeakRss: 0, clientPeakRss: 0, notes: [] };
  const home = mkdtempSync(path.join(tmpdir(), "siteops-soak-tf-"));
  const work = path.join(home, "work");
  mkdirSync(work);
  const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: await install(home), CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
  for (const k of Object.keys(env)) if (k.startsWith("SITEOPS_") || k.startsWith("TF_LOG")) delete env[k];
  let clientPeak = 0;
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn("terraform", args, { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
      const rss = peakSampler(() => treeRss(child.pid!));
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
      child.stderr.setEncoding("utf8").on("data", (c: string) => (out += c));
      child.once("exit", (code) => {
        clientPeak = Math.max(clientPeak, rss.stop());
        resolve({ code, out });
      });
    });
  /** One terraform run under the faults, then the service's soak-tf sites (read without them). */
  const step = async (label: string, args: string[]) => {
    await service.faultsOn();
    result.operations++;
    const r = await run(args);
    if (r.code === 0) result.succeeded++;
    else {
      result.failed++;
      const errors = r.out.split("\n").filter((l) => /Error/.test(l)).slice(0, 3);
      result.notes.push(`${label} exit ${r.code}: ${errors.join(" / ") || r.out.slice(-400)}`);
    }
    return { ok: r.code === 0, sites: (await allSites(service)).filter((s) => s.name.startsWith("soak-tf-")) };
  };
  /** Each configured name held exactly once. */
  const check = (sites: { name: string }[], suffix: string) => {
    for (let i = 0; i < count; i++) {
      const held = sites.filter((s) => s.name === `soak-tf-${i}${suffix}`).length;
      result.duplicates += Math.max(0, held - 1);
      if (held === 0) result.lost++;
    }
    const expected = new Set(Array.from({ length: count }, (_, i) => `soak-tf-${i}${suffix}`));
    result.duplicates += sites.filter((s) => !expected.has(s.name)).length; // left behind by a create carried out twice
  };
  const emulatorRss = peakSampler(() => rssOf(service.pid));
  const started = performance.now();
  try {
    writeFileSync(path.join(work, "main.tf"), config(service.url, service.token, count, ""));
    const init = await run(["init", "-no-color", "-input=false"]);
    if (init.code !== 0) throw new Error(`terraform init failed: ${init.out}`);
    const applied = await step("apply", ["apply", "-auto-approve", "-no-color", "-input=false"]);
    if (applied.ok) check(applied.sites, "");
    writeFileSync(path.join(work, "main.tf"), config(service.url, service.token, count, " (updated)"));
    const updated = await step("update", ["apply", "-auto-approve", "-no-color", "-input=false"]);
    if (updated.ok) check(updated.sites, " (updated)");
    const destroyed = await step("destroy", ["destroy", "-auto-approve", "-no-color", "-input=false"]);
    if (destroyed.ok) result.stale += destroyed.sites.length;
  } finally {
    result.wallMs = performance.now() - started;
    result.emulatorPeakRss = emulatorRss.stop();
    result.clientPeakRss = clientPeak;
    rmSync(home, { recursive: true, force: true });
  }
  return result;
}
