// Benchmark 2: real terraform against the emulator (its own process), three contenders side by side:
//   terraform_data   Terraform's built-in resource, in process: the floor of Terraform itself
//   siteops_noop     this provider serving a resource with siteops_site's schema that makes no API call
//                    (bench build only, bench/lib/provider-noop.ts): the plugin protocol floor
//   siteops_site     ours: the provider, the API client and the emulator
// Scenarios: `terraform apply` creating 200 (targets: <= 3x terraform_data, <= 1.3x siteops_noop) and a
// no-op `terraform plan` with 1,000 in state (target <= 2.5x terraform_data). BENCH_ROUNDS rounds (default
// 5), contenders interleaved in an order that rotates each round; medians with the min-max range; the CPU
// of Terraform, the providers, the emulator and the rest of the machine during each run.
// BENCH_PROFILE=1 adds one profiled apply per contender (unminified build, CPU profiles of the provider and
// the emulator) and prints where their CPU went (bench/lib/provider-breakdown.ts; profiles kept in
// BENCH_PROFILE_DIR when set); BENCH_PROFILE=only skips the timed rounds.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnEmulator, TOKEN } from "./lib/core-helpers.js";
import { breakdown } from "./lib/provider-breakdown.js";
import { buildProvider, dataHcl, median, providerHcl, sitesHcl, spread, table, Workspace, type Run } from "./lib/provider-helpers.js";

const PROFILE = process.env.BENCH_PROFILE;
const ROUNDS = PROFILE === "only" ? 0 : Number(process.env.BENCH_ROUNDS ?? 5);
const APPLY_COUNT = 200;
const PLAN_COUNT = 1000;

const providerBlock = (url: string) => providerHcl(url, TOKEN);

interface Contender {
  name: string;
  hcl(n: number, prefix: string): string;
}
const CONTENDERS: Contender[] = [
  { name: "terraform_data", hcl: (n) => dataHcl(n) },
  { name: "siteops_noop", hcl: (n, prefix) => sitesHcl("siteops_noop", n, prefix) },
  { name: "siteops_site", hcl: (n, prefix) => sitesHcl("siteops_site", n, prefix) },
];

/** Each round runs every contender once, starting one further along the list than the round before. */
async function rounds(run: (c: Contender) => Promise<Run>): Promise<Map<string, Run[]>> {
  const out = new Map<string, Run[]>(CONTENDERS.map((c) => [c.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < CONTENDERS.length; i++) {
      const c = CONTENDERS[(r + i) % CONTENDERS.length]!;
      out.get(c.name)!.push(await run(c));
    }
  }
  return out;
}

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-tfbench-"));
const emulator = await spawnEmulator([]);
const ws = new Workspace(await buildProvider(path.join(out, "build"), { bench: true }));
const load = [loadavg()[0]!];
try {
  if (ROUNDS > 0) await timed();
  if (PROFILE === "1" || PROFILE === "only") {
    console.log("\n" + (await breakdown({ out, count: APPLY_COUNT, providerBlock, contenders: CONTENDERS.filter((c) => c.name !== "terraform_data") })));
  }
} finally {
  ws.close();
  await emulator.close();
  rmSync(out, { recursive: true, force: true });
}

async function timed(): Promise<void> {
  const apply = ["apply", "-auto-approve", "-input=false"];
  const destroy = ["destroy", "-auto-approve", "-input=false", "-parallelism=50"];
  const plan = ["plan", "-input=false", "-detailed-exitcode"];
  const opts = { emulatorPid: emulator.pid };

  const applyDirs = new Map<string, string>();
  const planDirs = new Map<string, string>();
  for (const c of CONTENDERS) {
    applyDirs.set(c.name, ws.dir(`apply-${c.name}`, { "main.tf": providerBlock(emulator.url) + c.hcl(APPLY_COUNT, `apply-${c.name}`) }));
    planDirs.set(c.name, ws.dir(`plan-${c.name}`, { "main.tf": providerBlock(emulator.url) + c.hcl(PLAN_COUNT, `plan-${c.name}`) }));
    await ws.terraform(applyDirs.get(c.name)!, ["init", "-input=false"]);
    await ws.terraform(planDirs.get(c.name)!, ["init", "-input=false"]);
  }

  const applies = await rounds(async (c) => {
    const run = await ws.measure(applyDirs.get(c.name)!, apply, opts);
    await ws.terraform(applyDirs.get(c.name)!, destroy);
    return run;
  });
  load.push(loadavg()[0]!);

  for (const c of CONTENDERS) await ws.terraform(planDirs.get(c.name)!, [...apply, "-parallelism=50"]);
  const plans = await rounds((c) => ws.measure(planDirs.get(c.name)!, plan, opts));
  for (const c of CONTENDERS) await ws.terraform(planDirs.get(c.name)!, destroy);
  load.push(loadavg()[0]!);

  console.log(`terraform apply/plan, ${ROUNDS} rounds interleaved, default -parallelism=10; emulator in its own process.`);
  console.log(`load average (1 min) at start, after the applies, after the plans: ${load.map((l) => l.toFixed(2)).join(", ")}\n`);
  const wall = (runs: Map<string, Run[]>, name: string) => runs.get(name)!.map((r) => r.wallMs);
  const ratio = (runs: Map<string, Run[]>, a: string, b: string) => {
    // Per round ratios (the contenders of one round ran minutes apart at most), then their median and range.
    const x = wall(runs, a);
    const y = wall(runs, b);
    return `${spread(x.map((v, i) => v / y[i]!))}x`;
  };
  console.log(
    table(
      ["scenario", "terraform_data s", "siteops_noop s", "siteops_site s", "site / data", "site / noop", "targets"],
      [
        [
          `apply creating ${APPLY_COUNT}`,
          ...CONTENDERS.map((c) => spread(wall(applies, c.name), 1000)),
          ratio(applies, "siteops_site", "terraform_data"),
          ratio(applies, "siteops_site", "siteops_noop"),
          "<= 3x data, <= 1.3x noop",
        ],
        [
          `no-op plan, ${PLAN_COUNT} in state`,
          ...CONTENDERS.map((c) => spread(wall(plans, c.name), 1000)),
          ratio(plans, "siteops_site", "terraform_data"),
          ratio(plans, "siteops_site", "siteops_noop"),
          "<= 2.5x data",
        ],
      ],
    ),
  );
  console.log("\nmedian (min-max) of the rounds; ratios are computed per round, then summarised.\n");

  const cpu = (runs: Run[], f: (r: Run) => number) => spread(runs.map(f), 1000);
  const providerCpu = (r: Run) => r.providers.reduce((t, p) => t + p.cpuMs, 0);
  const rows: (string | number)[][] = [];
  for (const [scenario, runs] of [
    [`apply ${APPLY_COUNT}`, applies],
    [`plan ${PLAN_COUNT}`, plans],
  ] as const) {
    for (const c of CONTENDERS) {
      const rs = runs.get(c.name)!;
      rows.push([
        scenario,
        c.name,
        cpu(rs, (r) => r.terraformCpuMs),
        cpu(rs, providerCpu),
        cpu(rs, (r) => r.emulatorCpuMs),
        cpu(rs, (r) => r.otherCpuMs),
        spread(
          rs.map((r) => Math.max(0, ...r.providers.map((p) => p.maxRssKb))),
          1024,
          1,
        ),
      ]);
    }
  }
  console.log(
    table(
      ["scenario", "contender", "terraform CPU s", "provider CPU s (all processes)", "emulator CPU s", "other processes' CPU s", "provider peak RSS MiB"],
      rows,
    ),
  );

  // Where siteops_site's extra time goes: the same RPCs, with and without the API behind them.
  const perRpc = (runs: Run[], rpc: string) => {
    const calls = median(runs.map((r) => r.providers.reduce((t, p) => t + (p.rpcs[rpc]?.calls ?? 0), 0)));
    const wallMs = median(runs.map((r) => r.providers.reduce((t, p) => t + (p.rpcs[rpc]?.wallMs ?? 0), 0)));
    return calls ? `${calls} x ${(wallMs / calls).toFixed(2)} ms` : "-";
  };
  const rpcRow = (scenario: string, runs: Map<string, Run[]>, rpc: string) => [
    scenario,
    rpc,
    perRpc(runs.get("siteops_noop")!, rpc),
    perRpc(runs.get("siteops_site")!, rpc),
  ];
  const rpcRows = [
    rpcRow("apply", applies, "validateResourceConfig"),
    rpcRow("apply", applies, "planResourceChange"),
    rpcRow("apply", applies, "applyResourceChange"),
    rpcRow("plan", plans, "upgradeResourceState"),
    rpcRow("plan", plans, "readResource"),
    rpcRow("plan", plans, "planResourceChange"),
  ];
  console.log("\nRPCs as the provider served them (calls x mean wall time from request decoded to reply built; medians of the rounds):\n");
  console.log(table(["scenario", "RPC", "siteops_noop", "siteops_site"], rpcRows));
}
