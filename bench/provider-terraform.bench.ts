// Benchmarks 2 and 3: real terraform against the emulator (its own process), same run, side by side:
//   - `terraform apply` creating 200 siteops_site vs 200 terraform_data (target <= 3x)
//   - no-op `terraform plan` with 1,000 siteops_site in state vs 1,000 terraform_data (target <= 3x)
//   - peak RSS of the provider processes during the 1,000-site plans
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnEmulator, TOKEN } from "./core-helpers.js";
import { buildProvider, median, peakRssSampler, table, Workspace } from "./provider-helpers.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const APPLY_COUNT = 200;
const PLAN_COUNT = 1000;

const providerBlock = (url: string) => `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}

provider "siteops" {
  base_url  = "${url}"
  api_token = "${TOKEN}"
}
`;
const sites = (n: number, prefix: string) => `
resource "siteops_site" "s" {
  count = ${n}
  name  = "${prefix} \${count.index}"
  url   = "https://${prefix}-\${count.index}.bench.example"
}
`;
const data = (n: number) => `
resource "terraform_data" "d" {
  count = ${n}
  input = "item \${count.index}"
}
`;

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-tfbench-"));
const emulator = await spawnEmulator([]);
const ws = new Workspace(await buildProvider(out));
try {
  const apply = ["apply", "-auto-approve", "-input=false"];
  const destroy = ["destroy", "-auto-approve", "-input=false", "-parallelism=50"];
  const plan = ["plan", "-input=false", "-detailed-exitcode"];

  const siteDir = ws.dir("sites-200", { "main.tf": providerBlock(emulator.url) + sites(APPLY_COUNT, "apply") });
  const dataDir = ws.dir("data-200", { "main.tf": data(APPLY_COUNT) });
  await ws.terraform(siteDir, ["init", "-input=false"]);
  await ws.terraform(dataDir, ["init", "-input=false"]);

  const applySites: number[] = [];
  const applyData: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    applySites.push(await ws.terraform(siteDir, apply));
    await ws.terraform(siteDir, destroy);
    applyData.push(await ws.terraform(dataDir, apply));
    await ws.terraform(dataDir, destroy);
  }

  const bigSites = ws.dir("sites-1000", { "main.tf": providerBlock(emulator.url) + sites(PLAN_COUNT, "plan") });
  const bigData = ws.dir("data-1000", { "main.tf": data(PLAN_COUNT) });
  await ws.terraform(bigSites, ["init", "-input=false"]);
  await ws.terraform(bigData, ["init", "-input=false"]);
  await ws.terraform(bigSites, [...apply, "-parallelism=50"]);
  await ws.terraform(bigData, apply);

  const planSites: number[] = [];
  const planData: number[] = [];
  const rss = peakRssSampler("siteops-provider.cjs");
  for (let round = 0; round < ROUNDS; round++) {
    planSites.push(await ws.terraform(bigSites, plan, rss.sample));
    planData.push(await ws.terraform(bigData, plan));
  }
  await ws.terraform(bigSites, destroy);

  const s = (v: number[]) => (median(v) / 1000).toFixed(2);
  console.log(`terraform ${process.env.TF_VERSION ?? ""}apply/plan wall-clock seconds, median of ${ROUNDS} rounds, default -parallelism=10; emulator in its own process\n`);
  console.log(
    table(
      ["scenario", "siteops_site s", "terraform_data s", "ratio", "target"],
      [
        [`apply creating ${APPLY_COUNT}`, s(applySites), s(applyData), `${(median(applySites) / median(applyData)).toFixed(2)}x`, "<= 3x"],
        [`no-op plan, ${PLAN_COUNT} in state`, s(planSites), s(planData), `${(median(planSites) / median(planData)).toFixed(2)}x`, "<= 3x"],
      ],
    ),
  );
  console.log(`\npeak RSS of a provider process during the ${PLAN_COUNT}-site plans: ${(rss.peak() / 1024 / 1024).toFixed(1)} MiB`);
} finally {
  ws.close();
  await emulator.close();
  rmSync(out, { recursive: true, force: true });
}
