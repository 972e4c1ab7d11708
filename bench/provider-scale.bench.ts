// Benchmark 4: Terraform at 10,000 sites (issue 11), real terraform against the emulator in its own process.
//   - apply creating 1,000 siteops_site vs 1,000 terraform_data (target <= 3x), BENCH_ROUNDS interleaved
//   - no-op plan with 10,000 siteops_site in state vs 10,000 terraform_data (target <= 3x), interleaved;
//     then the same plan with -refresh=false, with -parallelism=50, and with -target of one site
//   - provider peak RSS during the plan at 1,000 and at 10,000 (target: 10,000 <= 1.5x 1,000), Terraform's
//     own peak beside it; the API requests each plan made (from the emulator's RateLimit-Remaining)
//   - data "siteops_sites" at 1,000 and at 10,000 sites: time and provider peak RSS
//   - the 10,000-site plan against the same data behind an emulator limited to 600 requests a minute
// It takes minutes (it creates 10,000 sites through Terraform). BENCH_SCALE (10000), BENCH_SCALE_SMALL (1000)
// and BENCH_ROUNDS (3) change the sizes and rounds.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnEmulator, TOKEN, type BenchEmulator } from "./core-helpers.js";
import { buildProvider, dataHcl as data, providerHcl, sitesHcl, spread, table, Workspace, type Run } from "./provider-helpers.js";

const BIG = Number(process.env.BENCH_SCALE ?? 10_000);
const SMALL = Number(process.env.BENCH_SCALE_SMALL ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The emulator counts requests per token with this (never reached) limit; its headers tell how many were made. */
const COUNTING_LIMIT = "100000000/86400";

const providerBlock = (url: string) => providerHcl(url, TOKEN);
const sites = (n: number, prefix: string) => sitesHcl("siteops_site", n, prefix);

const listing = `
data "siteops_sites" "all" {}
output "count" { value = length(data.siteops_sites.all.sites) }
`;

/** Requests the bench token has made so far, read from the emulator's RateLimit-Remaining (costs one). */
async function requestsMade(url: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/me`, { headers: { authorization: `token ${TOKEN}` } });
  await res.arrayBuffer();
  return Number(res.headers.get("ratelimit-limit")) - Number(res.headers.get("ratelimit-remaining"));
}

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-scale-"));
const db = path.join(out, "scale.db");
let emulator: BenchEmulator = await spawnEmulator([], { args: ["--db", db, "--rate-limit", COUNTING_LIMIT] });
const ws = new Workspace(await buildProvider(path.join(out, "build"), { bench: true }));
const apply = ["apply", "-auto-approve", "-input=false"];
const destroy = ["destroy", "-auto-approve", "-input=false", "-parallelism=50"];
const plan = ["plan", "-input=false", "-detailed-exitcode"];
const s = (ms: number) => (ms / 1000).toFixed(1);
const mib = (kb: number) => (kb / 1024).toFixed(1);
const providerPeakKb = (r: Run) => Math.max(0, ...r.providers.map((p) => p.maxRssKb));
const load = [loadavg()[0]!];

/** Runs and measures; also counts the API requests the run made. */
async function measured(dir: string, args: string[]): Promise<Run & { requests: number }> {
  const before = await requestsMade(emulator.url);
  const run = await ws.measure(dir, args, { emulatorPid: emulator.pid });
  return { ...run, requests: (await requestsMade(emulator.url)) - before - 1 };
}

try {
  const dirs = {
    smallSites: ws.dir("small-sites", { "main.tf": providerBlock(emulator.url) + sites(SMALL, "small") }),
    smallData: ws.dir("small-data", { "main.tf": providerBlock(emulator.url) + data(SMALL) }),
    bigSites: ws.dir("big-sites", { "main.tf": providerBlock(emulator.url) + sites(BIG, "big") }),
    bigData: ws.dir("big-data", { "main.tf": providerBlock(emulator.url) + data(BIG) }),
    listing: ws.dir("listing", { "main.tf": providerBlock(emulator.url) + listing }),
  };
  for (const d of Object.values(dirs)) await ws.terraform(d, ["init", "-input=false"]);

  // 1. apply creating SMALL, interleaved with terraform_data
  const applies: Record<string, Run[]> = { sites: [], data: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of r % 2 ? (["data", "sites"] as const) : (["sites", "data"] as const)) {
      const dir = k === "sites" ? dirs.smallSites : dirs.smallData;
      applies[k]!.push(await ws.measure(dir, apply, { emulatorPid: emulator.pid }));
      if (r < ROUNDS - 1) await ws.terraform(dir, destroy);
    }
  }
  load.push(loadavg()[0]!);

  // 2. SMALL in state: plan (memory at the small size) and the listing data source over SMALL sites
  const smallPlan = await measured(dirs.smallSites, plan);
  const smallDataPlan = await measured(dirs.smallData, plan);
  const smallListing = await measured(dirs.listing, ["apply", "-auto-approve", "-input=false", "-refresh=false"]);
  await ws.terraform(dirs.smallSites, destroy);
  await ws.terraform(dirs.smallData, destroy);

  // 3. BIG in state
  const created = await ws.measure(dirs.bigSites, [...apply, "-parallelism=50"], { emulatorPid: emulator.pid });
  await ws.terraform(dirs.bigData, [...apply, "-parallelism=50"]);
  const plans: Record<string, (Run & { requests: number })[]> = { sites: [], data: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of r % 2 ? (["data", "sites"] as const) : (["sites", "data"] as const)) plans[k]!.push(await measured(k === "sites" ? dirs.bigSites : dirs.bigData, plan));
  }
  const variants = {
    "-refresh=false": await measured(dirs.bigSites, [...plan, "-refresh=false"]),
    "-parallelism=50": await measured(dirs.bigSites, [...plan, "-parallelism=50"]),
    [`-target=siteops_site.s[${BIG - 1}]`]: await measured(dirs.bigSites, [...plan, `-target=siteops_site.s[${BIG - 1}]`]),
  };
  const dataVariants = { "-refresh=false": await measured(dirs.bigData, [...plan, "-refresh=false"]), "-parallelism=50": await measured(dirs.bigData, [...plan, "-parallelism=50"]) };
  const bigListing = await measured(dirs.listing, ["apply", "-auto-approve", "-input=false", "-refresh=false"]);
  load.push(loadavg()[0]!);

  // 4. the same data behind a rate limit of 600 requests a minute
  await emulator.close();
  emulator = await spawnEmulator([], { args: ["--db", db, "--rate-limit", "600/60"] });
  ws.dir("big-sites", { "main.tf": providerBlock(emulator.url) + sites(BIG, "big") });
  const limited = await ws.measure(dirs.bigSites, plan, { emulatorPid: emulator.pid });
  await emulator.close();
  emulator = await spawnEmulator([], { args: ["--db", db, "--rate-limit", COUNTING_LIMIT] });
  ws.dir("big-sites", { "main.tf": providerBlock(emulator.url) + sites(BIG, "big") });
  await ws.terraform(dirs.bigSites, destroy);
  await ws.terraform(dirs.bigData, destroy);

  const wall = (runs: Run[]) => spread(runs.map((r) => r.wallMs), 1000);
  const ratio = (a: Run[], b: Run[]) => `${spread(a.map((r, i) => r.wallMs / b[i]!.wallMs))}x`;
  console.log(`Terraform at scale: ${ROUNDS} rounds interleaved where timed against terraform_data; median (min-max).`);
  console.log(`Load average (1 min) at start, after the ${SMALL}-site applies, after the ${BIG}-site plans: ${load.map((l) => l.toFixed(2)).join(", ")}.\n`);
  console.log(
    table(
      ["scenario", "siteops_site s", "terraform_data s", "ratio", "target"],
      [
        [`apply creating ${SMALL}`, wall(applies.sites!), wall(applies.data!), ratio(applies.sites!, applies.data!), "<= 3x"],
        [`no-op plan, ${BIG} in state`, wall(plans.sites!), wall(plans.data!), ratio(plans.sites!, plans.data!), "<= 3x"],
        ...Object.entries(variants).map(([flag, run]) => [`plan ${flag}`, s(run.wallMs), flag in dataVariants ? s(dataVariants[flag as keyof typeof dataVariants].wallMs) : "-", flag in dataVariants ? `${(run.wallMs / dataVariants[flag as keyof typeof dataVariants].wallMs).toFixed(2)}x` : "-", ""]),
      ],
    ),
  );
  console.log(`\n(creating the ${BIG} sites with -parallelism=50 took ${s(created.wallMs)} s.)\n`);
  const mem = (name: string, site: Run & { requests: number }, tf: Run | undefined) => [name, mib(providerPeakKb(site)), mib(site.terraformPeakRssKb), tf ? mib(tf.terraformPeakRssKb) : "-", s(site.wallMs), site.requests];
  console.log(
    table(
      ["run", "provider peak RSS MiB", "terraform peak RSS MiB", "terraform peak RSS MiB (terraform_data)", "wall s", "API requests"],
      [
        mem(`no-op plan, ${SMALL} siteops_site`, smallPlan, smallDataPlan),
        mem(`no-op plan, ${BIG} siteops_site (median round)`, plans.sites![Math.floor(ROUNDS / 2)]!, plans.data![Math.floor(ROUNDS / 2)]),
        ...Object.entries(variants).map(([flag, run]) => mem(`plan ${flag}`, run, undefined)),
        mem(`data "siteops_sites", ${SMALL} sites`, smallListing, undefined),
        mem(`data "siteops_sites", ${BIG} sites`, bigListing, undefined),
      ],
    ),
  );
  const peakRatio = providerPeakKb(plans.sites![Math.floor(ROUNDS / 2)]!) / providerPeakKb(smallPlan);
  console.log(`\nprovider peak RSS, plan at ${BIG} / at ${SMALL}: ${peakRatio.toFixed(2)}x (target <= 1.5x); data source at ${BIG} / at ${SMALL}: ${(providerPeakKb(bigListing) / providerPeakKb(smallListing)).toFixed(2)}x`);
  console.log(`\nno-op plan of ${BIG} behind a limit of 600 requests/minute: ${s(limited.wallMs)} s, exit code ok; the plan needs ~${plans.sites![0]!.requests} requests, so the limit's floor is ${((plans.sites![0]!.requests / 600) * 60).toFixed(1)} s (requests / 10 per second) when they do not fit in one window.`);
} finally {
  ws.close();
  await emulator.close();
  rmSync(out, { recursive: true, force: true });
}
