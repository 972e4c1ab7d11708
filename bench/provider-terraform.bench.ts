// Benchmark 2: real terraform against the emulator (its own process), six contenders side by side:
//   terraform alone   200 terraform_data (Terraform's built-in resource), no provider block, no provider
//                     installed: Terraform by itself, the floor the target is set against
//   data + siteops    the same 200 terraform_data with the siteops provider block: Terraform also starts our
//                     provider once, for its schema (it neither configures nor calls a provider no resource uses)
//   siteops_noop      this provider serving a resource with siteops_site's schema that makes no API call
//                     (bench build only, bench/lib/provider-noop.ts): the plugin protocol floor
//   siteops_site      ours: the provider, the API client and the emulator
//   go_noop, go_site  the Go peer (bench/go-peer/, built from Debian's packages by bench/lib/go-peer.ts, which
//                     installs them on a fresh machine): a Go provider on go-plugin and gRPC with siteops_site's
//                     schema, doing siteops_noop's nothing and siteops_site's creates and reads; BENCH_GO=0 leaves
//                     it out
// Scenarios: `terraform apply` creating 200 (targets: <= 3x Terraform alone in every round, <= 1.3x
// siteops_noop) and a no-op `terraform plan` with 1,000 in state (target <= 2.5x data + siteops; skipped with
// BENCH_PLAN=0). The summary also gives siteops_noop / go_noop and siteops_site / go_site, and the CPU per
// resource of the providers and of the emulator apart: figures an emulator change cannot move. BENCH_ROUNDS rounds (default 5), contenders interleaved in an order that rotates each
// round and runs backwards every other round (roundOrder); per-round ratios, medians with the min-max range;
// the load average after each round; `node -e 0` (the machine's speed of the moment) just before and after each
// timed apply (lib/machine-speed.ts); the CPU of Terraform, the providers, the emulator and the rest of the
// machine during each run.
// BENCH_BEFORE=<checkout> adds a fifth contender, "siteops_site before": siteops_site with the provider built from
// that checkout and its own emulator (also from there), so a change is measured against the tree before it in
// the same rounds; the summary then gives before / terraform alone and site / before per round (a tree from before
// deletion_protection: BENCH_BEFORE_UNPROTECTED=1).
// BENCH_PROFILE=1 adds one profiled apply per contender (unminified build, CPU profiles of the provider and
// the emulator) and prints where their CPU went (bench/lib/provider-breakdown.ts; profiles kept in
// BENCH_PROFILE_DIR when set); BENCH_PROFILE=only skips the timed rounds.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnEmulator, TOKEN, type BenchEmulator } from "./lib/core-helpers.js";
import { probed, probeText, type Probe } from "./lib/machine-speed.js";
import { breakdown } from "./lib/provider-breakdown.js";
import { buildGoPeer, ensureGoToolchain, GO_PEER_TYPE } from "./lib/go-peer.js";
import { buildProvider, dataHcl, median, providerHcl, roundOrder, sitesHcl, spread, table, Workspace, type Run } from "./lib/provider-helpers.js";

const PROFILE = process.env.BENCH_PROFILE;
const ROUNDS = PROFILE === "only" ? 0 : Number(process.env.BENCH_ROUNDS ?? 5);
const PLAN = process.env.BENCH_PLAN !== "0";
const GO = process.env.BENCH_GO !== "0";
const APPLY_COUNT = 200;
const PLAN_COUNT = 1000;

const providerBlock = (url: string) => providerHcl(url, TOKEN);

interface Contender {
  name: string;
  /** The provider whose block the configuration has (Terraform installs and starts it): siteops or the Go peer. */
  provider?: string;
  /** `protect`: leave deletion_protection unset (on, as a user's sites are) instead of false (so that it destroys). */
  hcl(n: number, prefix: string, protect?: boolean): string;
  /** Another build of the provider and its emulator (BENCH_BEFORE); by default this tree's. */
  tree?: { ws: Workspace; emulator: BenchEmulator; cache: string };
}
const ALONE = "terraform alone";
const DATA = "data + siteops";
const GO_NOOP = "go_noop";
const GO_SITE = "go_site";
const CONTENDERS: Contender[] = [
  { name: ALONE, hcl: (n) => dataHcl(n) },
  { name: DATA, provider: "siteops", hcl: (n) => dataHcl(n) },
  { name: "siteops_noop", provider: "siteops", hcl: (n, prefix, protect) => sitesHcl("siteops_noop", n, prefix, !protect) },
  { name: "siteops_site", provider: "siteops", hcl: (n, prefix, protect) => sitesHcl("siteops_site", n, prefix, !protect) },
  ...(GO
    ? [
        { name: GO_NOOP, provider: GO_PEER_TYPE, hcl: (n: number, prefix: string, protect?: boolean) => sitesHcl(`${GO_PEER_TYPE}_noop`, n, prefix, !protect) },
        { name: GO_SITE, provider: GO_PEER_TYPE, hcl: (n: number, prefix: string, protect?: boolean) => sitesHcl(`${GO_PEER_TYPE}_site`, n, prefix, !protect) },
      ]
    : []),
];
const config = (c: Contender, url: string, n: number, prefix: string, protect = false) =>
  (c.provider ? providerHcl(url, TOKEN, c.provider) : "") + c.hcl(n, prefix, protect);

/** Each round runs every contender once, in roundOrder. */
async function rounds(run: (c: Contender) => Promise<Run>, loads: number[]): Promise<Map<string, Run[]>> {
  const out = new Map<string, Run[]>(CONTENDERS.map((c) => [c.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of roundOrder(CONTENDERS, r)) out.get(c.name)!.push(await run(c));
    loads.push(loadavg()[0]!);
  }
  return out;
}

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-tfbench-"));
const emulator = await spawnEmulator([]);
if (GO) ensureGoToolchain();
const goPeer = GO ? buildGoPeer(path.join(out, "go-peer")) : undefined;
const ws = new Workspace(await buildProvider(path.join(out, "build"), { bench: true }), goPeer ? [goPeer] : []);
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : undefined;
const before = BEFORE
  ? {
      ws: new Workspace(await buildProvider(path.join(out, "build-before"), { bench: true, root: BEFORE })),
      emulator: await spawnEmulator([], { root: BEFORE }),
      cache: path.join(out, "cache-before"),
    }
  : undefined;
const SITE_BEFORE = "siteops_site before";
// A tree from before deletion_protection (issue 36) does not know the attribute: BENCH_BEFORE_UNPROTECTED=1 leaves it out.
const beforeKnowsProtection = process.env.BENCH_BEFORE_UNPROTECTED !== "1";
if (before) {
  CONTENDERS.push({
    name: SITE_BEFORE,
    provider: "siteops",
    hcl: (n, prefix, protect) => sitesHcl("siteops_site", n, prefix, beforeKnowsProtection && !protect),
    tree: before,
  });
}
try {
  if (ROUNDS > 0) await timed();
  if (PROFILE === "1" || PROFILE === "only") {
    console.log(
      "\n" + (await breakdown({ out, count: APPLY_COUNT, providerBlock, contenders: CONTENDERS.filter((c) => !c.tree && c.name.startsWith("siteops_")) })),
    );
  }
} finally {
  ws.close();
  before?.ws.close();
  await emulator.close();
  await before?.emulator.close();
  rmSync(out, { recursive: true, force: true });
}

async function timed(): Promise<void> {
  const apply = ["apply", "-auto-approve", "-input=false"];
  const destroy = ["destroy", "-auto-approve", "-input=false", "-parallelism=50"];
  const plan = ["plan", "-input=false", "-detailed-exitcode"];
  // The provider's compiled-code cache (provider/compile-cache.ts) in a dir of this run, warmed by one apply
  // before the rounds, as it is for a user after the first command.
  const tree = (c: Contender) => c.tree ?? { ws, emulator, cache: path.join(out, "cache") };
  const opts = (c: Contender) => ({ emulatorPid: tree(c).emulator.pid, env: { XDG_CACHE_HOME: tree(c).cache } });
  const id = (name: string) => name.replace(/[^a-z_]+/g, "-");

  const applyDirs = new Map<string, string>();
  const planDirs = new Map<string, string>();
  for (const c of CONTENDERS) {
    const { ws: w, emulator: e } = tree(c);
    applyDirs.set(c.name, w.dir(`apply-${id(c.name)}`, { "main.tf": config(c, e.url, APPLY_COUNT, `apply-${id(c.name)}`) }));
    await w.terraform(applyDirs.get(c.name)!, ["init", "-input=false"]);
    if (!PLAN) continue;
    // The plan's configuration is a user's: deletion_protection unset (on), one attribute fewer for Terraform to
    // evaluate than the apply's, which turns it off to destroy between rounds.
    planDirs.set(c.name, w.dir(`plan-${id(c.name)}`, { "main.tf": config(c, e.url, PLAN_COUNT, `plan-${id(c.name)}`, true) }));
    await w.terraform(planDirs.get(c.name)!, ["init", "-input=false"]);
  }

  // One untimed apply and destroy per contender, so that round 1 is no one's first run: before, only
  // siteops_site warmed up, and round 1 was the worst site / terraform alone round in 4 of 6 runs on 2026-11-26.
  for (const c of CONTENDERS) {
    await tree(c).ws.terraform(applyDirs.get(c.name)!, apply, opts(c));
    await tree(c).ws.terraform(applyDirs.get(c.name)!, destroy, opts(c));
  }

  const applyLoads = [loadavg()[0]!];
  // node -e 0 just before and after each timed apply: the machine's speed beside the run (machine-speed.ts).
  const probes = new Map<string, Probe[]>(CONTENDERS.map((c) => [c.name, []]));
  const applies = await rounds(async (c) => {
    const { result: run, probe } = await probed(() => tree(c).ws.measure(applyDirs.get(c.name)!, apply, opts(c)));
    probes.get(c.name)!.push(probe);
    await tree(c).ws.terraform(applyDirs.get(c.name)!, destroy, opts(c));
    return run;
  }, applyLoads);

  const planLoads: number[] = [];
  let plans: Map<string, Run[]> | undefined;
  if (PLAN) {
    for (const c of CONTENDERS) await tree(c).ws.terraform(planDirs.get(c.name)!, [...apply, "-parallelism=50"], opts(c));
    planLoads.push(loadavg()[0]!);
    plans = await rounds((c) => tree(c).ws.measure(planDirs.get(c.name)!, plan, opts(c)), planLoads);
    for (const c of CONTENDERS) {
      const dir = planDirs.get(c.name)!;
      // Protection off (a change of state alone, no API call), then the destroy.
      writeFileSync(path.join(dir, "main.tf"), config(c, tree(c).emulator.url, PLAN_COUNT, `plan-${id(c.name)}`));
      await tree(c).ws.terraform(dir, [...apply, "-refresh=false", "-parallelism=50"], opts(c));
      await tree(c).ws.terraform(dir, destroy, opts(c));
    }
  }

  const wall = (runs: Map<string, Run[]>, name: string) => runs.get(name)!.map((r) => r.wallMs);
  // Per round ratios (the contenders of one round ran seconds apart), then their median and range.
  const perRound = (runs: Map<string, Run[]>, a: string, b: string) => {
    const y = wall(runs, b);
    return wall(runs, a).map((v, i) => v / y[i]!);
  };
  const ratio = (runs: Map<string, Run[]>, a: string, b: string) => `${spread(perRound(runs, a, b))}x`;
  const loads = (l: number[]) => `${Math.min(...l).toFixed(2)}-${Math.max(...l).toFixed(2)}`;

  console.log(`terraform apply/plan, ${ROUNDS} rounds interleaved, default -parallelism=10; emulator in its own process; node ${process.version}.`);
  console.log(`contenders: "${ALONE}" = ${APPLY_COUNT} terraform_data, no provider in the configuration; "${DATA}" = the same with the siteops provider`);
  console.log(`block (Terraform starts it for its schema); siteops_noop = the plugin protocol floor; siteops_site = ours.`);
  console.log(goPeer ? `${GO_NOOP}, ${GO_SITE} = the Go peer (${goPeer.goVersion}, Debian's go-plugin, gRPC, go-cty).\n` : "");
  console.log(
    table(
      [
        "scenario",
        "load (1 min)",
        ...CONTENDERS.map((c) => `${c.name} s`),
        `site / ${ALONE}`,
        `site / ${DATA}`,
        "site / noop",
        ...(goPeer ? [`noop / ${GO_NOOP}`, `site / ${GO_SITE}`, `${GO_SITE} / ${ALONE}`] : []),
        ...(before ? [`before / ${ALONE}`, "site / before"] : []),
        "targets",
      ],
      [
        [
          `apply creating ${APPLY_COUNT}`,
          loads(applyLoads),
          ...CONTENDERS.map((c) => spread(wall(applies, c.name), 1000)),
          ratio(applies, "siteops_site", ALONE),
          ratio(applies, "siteops_site", DATA),
          ratio(applies, "siteops_site", "siteops_noop"),
          ...(goPeer ? [ratio(applies, "siteops_noop", GO_NOOP), ratio(applies, "siteops_site", GO_SITE), ratio(applies, GO_SITE, ALONE)] : []),
          ...(before ? [ratio(applies, SITE_BEFORE, ALONE), ratio(applies, "siteops_site", SITE_BEFORE)] : []),
          `<= 3x ${ALONE} (every round), <= 1.3x noop`,
        ],
        ...(plans
          ? [
              [
                `no-op plan, ${PLAN_COUNT} in state`,
                loads(planLoads),
                ...CONTENDERS.map((c) => spread(wall(plans, c.name), 1000)),
                ratio(plans, "siteops_site", ALONE),
                ratio(plans, "siteops_site", DATA),
                ratio(plans, "siteops_site", "siteops_noop"),
                ...(goPeer ? [ratio(plans, "siteops_noop", GO_NOOP), ratio(plans, "siteops_site", GO_SITE), ratio(plans, GO_SITE, ALONE)] : []),
                ...(before ? [ratio(plans, SITE_BEFORE, ALONE), ratio(plans, "siteops_site", SITE_BEFORE)] : []),
                `<= 2.5x ${DATA}`,
              ],
            ]
          : []),
      ],
    ),
  );
  console.log("\nmedian (min-max) of the rounds; ratios are computed per round, then summarised.\n");

  // Every round of the apply: its load, the machine's speed beside the two runs the target compares, each
  // contender's wall time, and the ratios the targets are set on.
  const applyRatios = perRound(applies, "siteops_site", ALONE);
  console.log(
    table(
      [
        "apply round",
        "load after (1 min)",
        `node -e 0 ms before-after ${ALONE}`,
        "node -e 0 ms before-after siteops_site",
        "other processes' CPU s (max of the round)",
        ...CONTENDERS.map((c) => `${c.name} s`),
        `site / ${ALONE}`,
        `site / ${DATA}`,
        ...(before ? [`before / ${ALONE}`] : []),
      ],
      applyRatios.map((r, i) => [
        i + 1,
        applyLoads[i + 1]!.toFixed(2),
        probeText(probes.get(ALONE)![i]!),
        probeText(probes.get("siteops_site")![i]!),
        Math.max(...CONTENDERS.map((c) => applies.get(c.name)![i]!.otherCpuMs / 1000)).toFixed(2),
        ...CONTENDERS.map((c) => (applies.get(c.name)![i]!.wallMs / 1000).toFixed(2)),
        `${r.toFixed(2)}x`,
        `${perRound(applies, "siteops_site", DATA)[i]!.toFixed(2)}x`,
        ...(before ? [`${perRound(applies, SITE_BEFORE, ALONE)[i]!.toFixed(2)}x`] : []),
      ]),
    ),
  );
  const worst = Math.max(...applyRatios);
  console.log(
    `\napply of ${APPLY_COUNT} siteops_site vs ${ALONE}: worst round ${worst.toFixed(2)}x (target <= 3x in every round: ${worst <= 3 ? "met" : "NOT met"})${
      before ? `; before: worst round ${Math.max(...perRound(applies, SITE_BEFORE, ALONE)).toFixed(2)}x` : ""
    }\n`,
  );

  const cpu = (runs: Run[], f: (r: Run) => number) => spread(runs.map(f), 1000);
  const providerCpu = (r: Run) => r.providers.reduce((t, p) => t + p.cpuMs, 0);
  const rows: (string | number)[][] = [];
  for (const [scenario, count, runs] of [
    [`apply ${APPLY_COUNT}`, APPLY_COUNT, applies],
    ...(plans ? ([[`plan ${PLAN_COUNT}`, PLAN_COUNT, plans]] as const) : []),
  ] as const) {
    for (const c of CONTENDERS) {
      const rs = runs.get(c.name)!;
      rows.push([
        scenario,
        c.name,
        cpu(rs, (r) => r.terraformCpuMs),
        cpu(rs, providerCpu),
        c.provider
          ? spread(
              rs.map((r) => (providerCpu(r) * 1000) / count),
              1,
              0,
            )
          : "-",
        spread(
          rs.map((r) => (r.emulatorCpuMs * 1000) / count),
          1,
          0,
        ),
        c.provider
          ? `${median(rs.map((r) => r.providers.length))} x ${spread(
              rs.map((r) => median(r.providers.map((p) => p.readyCpuMs))),
              1,
              0,
            )} ms`
          : "-",
        cpu(rs, (r) => r.emulatorCpuMs),
        cpu(rs, (r) => r.otherCpuMs),
        c.provider
          ? spread(
              rs.map((r) => Math.max(0, ...r.providers.map((p) => p.maxRssKb))),
              1024,
              1,
            )
          : "-",
      ]);
    }
  }
  console.log(
    table(
      [
        "scenario",
        "contender",
        "terraform CPU s",
        "provider CPU s (all processes)",
        "provider CPU per resource us (starts included)",
        "emulator CPU per resource us",
        "provider processes x CPU to ready",
        "emulator CPU s",
        "other processes' CPU s",
        "provider peak RSS MiB",
      ],
      rows,
    ),
  );

  // Where siteops_site's extra time goes: the same RPCs, with and without the API behind them.
  const perRpc = (runs: Run[], rpc: string) => {
    const calls = median(runs.map((r) => r.providers.reduce((t, p) => t + (p.rpcs[rpc]?.calls ?? 0), 0)));
    const wallMs = median(runs.map((r) => r.providers.reduce((t, p) => t + (p.rpcs[rpc]?.wallMs ?? 0), 0)));
    return calls ? `${calls} x ${(wallMs / calls).toFixed(2)} ms` : "-";
  };
  const rpcColumns = [DATA, "siteops_noop", "siteops_site", ...(goPeer ? [GO_NOOP, GO_SITE] : [])];
  const rpcRow = (scenario: string, runs: Map<string, Run[]>, rpc: string) => [scenario, rpc, ...rpcColumns.map((c) => perRpc(runs.get(c)!, rpc))];
  const rpcRows = [
    rpcRow("apply", applies, "getProviderSchema"),
    rpcRow("apply", applies, "configureProvider"),
    rpcRow("apply", applies, "validateResourceConfig"),
    rpcRow("apply", applies, "planResourceChange"),
    rpcRow("apply", applies, "applyResourceChange"),
    ...(plans ? [rpcRow("plan", plans, "upgradeResourceState"), rpcRow("plan", plans, "readResource"), rpcRow("plan", plans, "planResourceChange")] : []),
  ];
  console.log("\nRPCs as the provider served them (calls x mean wall time from request decoded to reply built; medians of the rounds):\n");
  console.log(table(["scenario", "RPC", ...rpcColumns], rpcRows));
}
