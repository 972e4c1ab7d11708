// Benchmark 4: Terraform at 10,000 sites (issue 11), real terraform against the emulator in its own process.
//   - apply creating 1,000 siteops_site vs 1,000 terraform_data (target <= 3x), BENCH_ROUNDS interleaved
//   - no-op plan with 10,000 siteops_site in state vs 10,000 terraform_data (target <= 3x), interleaved;
//     then the same plan with -refresh=false, with -parallelism=50, and with -target of one site
//   - provider peak RSS during the plan at 1,000 and at 10,000 (target: 10,000 <= 1.5x 1,000), Terraform's
//     own peak beside it; the API requests each run made (from the emulator's RateLimit-Remaining)
//   - data "siteops_sites" at 1,000 and at 10,000 sites: time and provider peak RSS
//   - the 10,000-site plan against the same data behind an emulator limited to 600 requests a minute
// The 10,000 sites are seeded into the emulator (seed file) and the two 10,000-resource states are written
// from the state of a real one-resource apply (bench/lib/provider-state.ts): an apply of 10,000 takes Terraform
// itself ~25 minutes here and is not what is measured. A plan of each must then find nothing to change.
// BENCH_SCALE (10000), BENCH_SCALE_SMALL (1000) and BENCH_ROUNDS (3) change the sizes and rounds.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { SiteOps } from "../src/index.js";
import { spawnEmulator, TOKEN, type BenchEmulator } from "./lib/core-helpers.js";
import { buildProvider, dataHcl as data, providerHcl, sitesHcl, spread, table, Workspace, type Run } from "./lib/provider-helpers.js";
import { writeCountState } from "./lib/provider-state.js";

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
const ws = new Workspace(await buildProvider(path.join(out, "build"), { bench: true }));
const apply = ["apply", "-auto-approve", "-input=false"];
const destroy = ["destroy", "-auto-approve", "-input=false", "-parallelism=50"];
const plan = ["plan", "-input=false", "-detailed-exitcode"];
const s = (ms: number) => (ms / 1000).toFixed(1);
const mib = (kb: number) => (kb / 1024).toFixed(1);
const providerPeakKb = (r: Run) => Math.max(0, ...r.providers.map((p) => p.maxRssKb));
const load = [loadavg()[0]!];
let emulator: BenchEmulator | undefined;

type Counted = Run & { requests: number };
/** Runs and measures; also counts the API requests the run made. */
async function measured(dir: string, args: string[]): Promise<Counted> {
  const before = await requestsMade(emulator!.url);
  const run = await ws.measure(dir, args, { emulatorPid: emulator!.pid });
  return { ...run, requests: (await requestsMade(emulator!.url)) - before - 1 };
}

/** Per-round order alternates so that neither contender always runs first. */
const pairs = (r: number) => (r % 2 ? (["data", "sites"] as const) : (["sites", "data"] as const));

try {
  // 1. SMALL: created through Terraform, on an emulator of their own.
  emulator = await spawnEmulator([], { args: ["--rate-limit", COUNTING_LIMIT] });
  const small = {
    sites: ws.dir("small-sites", { "main.tf": providerBlock(emulator.url) + sites(SMALL, "small") }),
    data: ws.dir("small-data", { "main.tf": providerBlock(emulator.url) + data(SMALL) }),
    listing: ws.dir("small-listing", { "main.tf": providerBlock(emulator.url) + listing }),
  };
  for (const d of Object.values(small)) await ws.terraform(d, ["init", "-input=false"]);
  const applies: Record<string, Run[]> = { sites: [], data: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of pairs(r)) {
      applies[k]!.push(await ws.measure(small[k], apply, { emulatorPid: emulator.pid }));
      if (r < ROUNDS - 1) await ws.terraform(small[k], destroy);
    }
  }
  const smallPlan = await measured(small.sites, plan);
  const smallDataPlan = await measured(small.data, plan);
  const smallListing = await measured(small.listing, [...apply, "-refresh=false"]);
  await emulator.close();
  load.push(loadavg()[0]!);

  // 2. BIG: seeded, with states written from real ones; a plan of each must find nothing to change.
  const db = path.join(out, "big.db");
  const seeded = Array.from({ length: BIG }, (_, i) => ({ name: `big ${i}`, url: `https://big-${i}.bench.example` }));
  const seeding = performance.now();
  emulator = await spawnEmulator(seeded, { args: ["--db", db, "--rate-limit", COUNTING_LIMIT] });
  const seedMs = performance.now() - seeding;
  const big = {
    sites: ws.dir("big-sites", { "main.tf": providerBlock(emulator.url) + sites(BIG, "big") }),
    data: ws.dir("big-data", { "main.tf": providerBlock(emulator.url) + data(BIG) }),
    listing: ws.dir("big-listing", { "main.tf": providerBlock(emulator.url) + listing }),
  };
  for (const d of Object.values(big)) await ws.terraform(d, ["init", "-input=false"]);
  const client = new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN });
  const byName = new Map<string, Record<string, unknown>>();
  for await (const site of client.sites.list({ per_page: 100 })) byName.set(site.name, { ...site });
  await client.close();
  await writeCountState(ws, big.sites, providerBlock(emulator.url) + sites(1, "template"), "siteops_site", BIG, (i) => {
    const { updated_at, ...attributes } = byName.get(`big ${i}`)!;
    return { attributes, private: { updated_at } };
  });
  await writeCountState(ws, big.data, providerBlock(emulator.url) + data(1), "terraform_data", BIG, (i) => ({
    attributes: { input: { value: `item ${i}`, type: "string" }, output: { value: `item ${i}`, type: "string" } },
  }));
  for (const d of [big.sites, big.data]) {
    const check = await ws.measure(d, plan);
    if (check.exitCode !== 0) throw new Error(`the written state of ${d} does not match its configuration (plan exit code ${check.exitCode})`);
  }

  const plans: Record<string, Counted[]> = { sites: [], data: [] };
  for (let r = 0; r < ROUNDS; r++) for (const k of pairs(r)) plans[k]!.push(await measured(big[k], plan));
  const variants: [string, Counted, Run | undefined][] = [];
  for (const flag of ["-refresh=false", "-parallelism=50"])
    variants.push([flag, await measured(big.sites, [...plan, flag]), await measured(big.data, [...plan, flag])]);
  variants.push([`-target=siteops_site.s[${BIG - 1}]`, await measured(big.sites, [...plan, `-target=siteops_site.s[${BIG - 1}]`]), undefined]);
  const bigListing = await measured(big.listing, [...apply, "-refresh=false"]);
  load.push(loadavg()[0]!);

  // 3. The same data behind a limit of 600 requests a minute.
  await emulator.close();
  emulator = await spawnEmulator([], { args: ["--db", db, "--rate-limit", "600/60"] });
  ws.dir("big-sites", { "main.tf": providerBlock(emulator.url) + sites(BIG, "big") });
  const limited = await ws.measure(big.sites, plan, { emulatorPid: emulator.pid });

  const wall = (runs: Run[]) =>
    spread(
      runs.map((r) => r.wallMs),
      1000,
    );
  const ratio = (a: Run[], b: Run[]) => `${spread(a.map((r, i) => r.wallMs / b[i]!.wallMs))}x`;
  console.log(`Terraform at scale: ${ROUNDS} rounds interleaved where timed against terraform_data; median (min-max).`);
  console.log(
    `Load average (1 min) at start, after the ${SMALL}-resource runs, after the ${BIG}-resource plans: ${load.map((l) => l.toFixed(2)).join(", ")}.\n`,
  );
  console.log(
    table(
      ["scenario", "siteops_site s", "terraform_data s", "ratio", "target"],
      [
        [`apply creating ${SMALL}`, wall(applies.sites!), wall(applies.data!), ratio(applies.sites!, applies.data!), "<= 3x"],
        [`no-op plan, ${BIG} in state`, wall(plans.sites!), wall(plans.data!), ratio(plans.sites!, plans.data!), "<= 3x"],
        ...variants.map(([flag, site, tf]) => [
          `plan ${flag}`,
          s(site.wallMs),
          tf ? s(tf.wallMs) : "-",
          tf ? `${(site.wallMs / tf.wallMs).toFixed(2)}x` : "-",
          "",
        ]),
      ],
    ),
  );
  console.log(`\n(${BIG} sites seeded into the emulator in ${s(seedMs)} s.)\n`);
  const mid = Math.floor(ROUNDS / 2);
  const mem = (name: string, site: Counted, tf: Run | undefined) => [
    name,
    mib(providerPeakKb(site)),
    mib(site.terraformPeakRssKb),
    tf ? mib(tf.terraformPeakRssKb) : "-",
    s(site.wallMs),
    site.requests,
  ];
  console.log(
    table(
      ["run", "provider peak RSS MiB", "terraform peak RSS MiB", "terraform peak RSS MiB, terraform_data", "wall s", "API requests"],
      [
        mem(`no-op plan, ${SMALL} siteops_site`, smallPlan, smallDataPlan),
        mem(`no-op plan, ${BIG} siteops_site (median round)`, plans.sites![mid]!, plans.data![mid]),
        ...variants.map(([flag, site]) => mem(`plan ${flag}`, site, undefined)),
        mem(`data "siteops_sites", ${SMALL} sites`, smallListing, undefined),
        mem(`data "siteops_sites", ${BIG} sites`, bigListing, undefined),
      ],
    ),
  );
  const planRss = providerPeakKb(plans.sites![mid]!) / providerPeakKb(smallPlan);
  const listingRss = providerPeakKb(bigListing) / providerPeakKb(smallListing);
  console.log(
    `\nprovider peak RSS, plan at ${BIG} / at ${SMALL}: ${planRss.toFixed(2)}x (target <= 1.5x); data source at ${BIG} / at ${SMALL}: ${listingRss.toFixed(2)}x`,
  );
  const needed = plans.sites![mid]!.requests;
  console.log(
    `\nno-op plan of ${BIG} behind 600 requests/minute: ${s(limited.wallMs)} s, exit code ${limited.exitCode} (0: no changes, no errors). ` +
      `It needs ${needed} requests: ${needed <= 600 ? "they fit in one window of the limit, so the limit's floor is 0 s" : `the limit's floor is ${((needed / 600) * 60).toFixed(0)} s`} ` +
      `(one GET per site would need ${BIG} requests: ${((BIG / 600) * 60).toFixed(0)} s at this limit).`,
  );
} finally {
  ws.close();
  await emulator?.close();
  rmSync(out, { recursive: true, force: true });
}
