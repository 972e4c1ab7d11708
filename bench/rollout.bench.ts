// Benchmark: an upgrade rollout of 1,000 sites in 3 waves (`1,10%,100%`) against the emulator in its own process with
// its rate limit on, with every gate (the pipeline's outcome, a health check after it, and an HTTP check of `/` on
// each site's URL: one loopback WordPress, test/support/wordpress-sites.ts), the selection included (the listing's
// pages): through the core's rolloutUpgrade in this process, and as `siteops upgrade rollout --all` (the built CLI,
// a job: its lock and its state file of every pipeline request). Reports the wall time against the rate floor,
// the requests a rollout must make at the allowed rate: the listing's pages, then per site its create, one read of
// its pipeline and one of its health checks; and the requests the core made (attempts, 429 answers included) at
// the same rate. Baseline in the same run, rounds interleaved: the same rollouts with the rate limit off (the time
// of the toolkit's own waits). The emulator completes a pipeline at once (--step-seconds 0): the service's own
// pipeline time is left out. The load (1-minute average) and `node -e 0` (the machine's speed of the moment) are
// recorded beside each run.
// `npm run bench -- rollout` (`npm run build` first, for the CLI's rows); env BENCH_SITES (1000), BENCH_RUNS (3
// rounds), BENCH_RATE_LIMIT (500/5), BENCH_CONCURRENCY (the default, 8, and 32: the core's), BENCH_CLI=0 (no CLI rows).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { SiteOps, type RequestLogEvent, type Site } from "../src/index.js";
import { parseWaves, rolloutUpgrade, type RolloutResult } from "../src/fleet.js";
import { startWordPressSite } from "../test/support/wordpress-sites.js";
import { spawnEmulator, TOKEN } from "./lib/core-helpers.js";
import { nodeStartMs } from "./lib/machine-speed.js";
import { median, spread, table } from "./lib/provider-helpers.js";

const SITES = Number(process.env.BENCH_SITES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT ?? "500/5";
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "8,32").split(",").map(Number);
const WAVES = "1,10%,100%";
const [LIMIT, WINDOW_S] = RATE_LIMIT.split("/").map(Number) as [number, number];
const RATE = LIMIT / WINDOW_S; // requests per second the limit allows
const PAGE = 100;
const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/siteops.js");
const CLI = process.env.BENCH_CLI !== "0" && existsSync(path.join(ROOT, "dist/cli/siteops.cjs"));

interface Config {
  limited: boolean;
  concurrency: number;
  /** Through the built CLI rather than the core in this process. */
  cli: boolean;
}
const keyOf = (c: Config): string => `${c.cli ? "cli" : "core"}/${c.limited}/${c.concurrency}`;

interface Measured {
  wallS: number;
  attempts: number;
  refused: number;
  paced: number;
  byKind: Record<string, number>;
  load: number;
  nodeMs: number;
}

/** What a request is, for the count by kind: "POST upgrade_pipelines", "GET health_checks", ... */
function kindOf(method: string, path: string): string {
  const p = path.split("?")[0]!.replace(/^\/api\/v1/, "");
  if (/^\/sites$/.test(p)) return `${method} sites`;
  if (/\/upgrade_pipelines$/.test(p)) return `${method} upgrade_pipelines${method === "GET" ? " (list)" : ""}`;
  if (/\/upgrade_pipelines\/[^/]+$/.test(p)) return `${method} upgrade_pipeline`;
  if (/\/health_checks$/.test(p)) return `${method} health_checks`;
  return `${method} ${p}`;
}

/** `siteops upgrade rollout --all` with a fresh state directory; rejects unless it exits 0 (every wave passed). */
async function cliRollout(url: string, concurrency: number): Promise<void> {
  const home = mkdtempSync(path.join(tmpdir(), "siteops-rollout-bench-"));
  try {
    const args = [BIN, "upgrade", "rollout", "--all", "--to-wp", "6.8", "--waves", WAVES, "--concurrency", String(concurrency)];
    const env = { PATH: process.env.PATH, HOME: home, SITEOPS_BASE_URL: url, SITEOPS_API_TOKEN: TOKEN, NO_COLOR: "1" };
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    if (code !== 0) throw new Error(`siteops upgrade rollout exited ${code}: ${stderr}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function run({ limited, concurrency, cli }: Config, wordpressUrl: string): Promise<Measured> {
  const sites = Array.from({ length: SITES }, (_, i) => ({
    name: `Site ${String(i + 1).padStart(5, "0")}`,
    url: `${wordpressUrl}/site-${i + 1}`,
    wp_version: "6.5",
  }));
  // A fresh emulator per run: its rate-limit window starts with the run, and every site is still at 6.5.
  const emulator = await spawnEmulator(sites, { args: limited ? ["--rate-limit", RATE_LIMIT] : [] });
  const m: Measured = { wallS: 0, attempts: 0, refused: 0, paced: 0, byKind: {}, load: loadavg()[0]!, nodeMs: nodeStartMs(3) };
  const logger = (e: RequestLogEvent): void => {
    if (e.kind === "rate_limit") m.paced++;
    if (e.kind !== "response") return;
    m.attempts++;
    if (e.status === 429) m.refused++;
    const k = kindOf(e.method, e.path);
    m.byKind[k] = (m.byKind[k] ?? 0) + 1;
  };
  try {
    const started = process.hrtime.bigint();
    if (cli) {
      await cliRollout(emulator.url, concurrency);
      m.wallS = Number(process.hrtime.bigint() - started) / 1e9;
      return m;
    }
    const client = new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN, logger });
    const listed: Site[] = [];
    for await (const s of client.sites.list({ per_page: PAGE })) listed.push(s);
    const result: RolloutResult = await rolloutUpgrade(client, listed, { target: { wp: "6.8" }, waves: parseWaves(WAVES), concurrency });
    m.wallS = Number(process.hrtime.bigint() - started) / 1e9;
    const passed = result.sites.filter((s) => s.outcome === "passed").length;
    if (result.outcome !== "done" || passed !== SITES) {
      const first = result.sites.find((s) => s.outcome !== "passed");
      throw new Error(`the rollout ended ${result.outcome} with ${passed} of ${SITES} passed; first other: ${first?.outcome} ${first?.failure?.message}`);
    }
  } finally {
    await emulator.close();
  }
  return m;
}

const pages = Math.ceil(SITES / PAGE);
const floorRequests = pages + 3 * SITES;
const floorS = floorRequests / RATE;
const wordpress = await startWordPressSite();
const configs: Config[] = [
  ...CONCURRENCY.flatMap((c) => [
    { limited: true, concurrency: c, cli: false },
    { limited: false, concurrency: c, cli: false },
  ]),
  ...(CLI
    ? [
        { limited: true, concurrency: 8, cli: true },
        { limited: false, concurrency: 8, cli: true },
      ]
    : []),
];
if (!CLI) console.error("rollout bench: no CLI rows (BENCH_CLI=0, or no dist/cli/siteops.cjs: npm run build)");
const results = new Map<string, Measured[]>(configs.map((c) => [keyOf(c), []]));
try {
  for (let round = 0; round < RUNS; round++) {
    // Interleaved, the order turned each round, so a slow phase of the VM falls on every configuration alike.
    const order = round % 2 ? [...configs].reverse() : configs;
    for (const c of order) {
      const m = await run(c, wordpress.url);
      results.get(keyOf(c))!.push(m);
      console.error(
        `round ${round + 1}: ${c.cli ? "CLI" : "core"}, rate limit ${c.limited ? "on" : "off"}, concurrency ${c.concurrency}: ${m.wallS.toFixed(1)} s, ${c.cli ? "" : `${m.attempts} attempts, ${m.refused} answered 429, `}load ${m.load.toFixed(2)}, node -e 0 ${m.nodeMs.toFixed(0)} ms`,
      );
    }
  }
} finally {
  await wordpress.close();
}

const rows = configs.map((c) => {
  const ms = results.get(keyOf(c))!;
  const walls = ms.map((m) => m.wallS);
  const made = c.cli ? Number.NaN : median(ms.map((m) => m.attempts));
  const counted = (v: string | number): string | number => (c.cli ? "(not counted)" : v);
  return [
    c.cli ? "siteops upgrade rollout" : "core rolloutUpgrade",
    c.limited ? RATE_LIMIT : "off",
    c.concurrency,
    spread(walls, 1, 1),
    c.limited ? spread(walls, floorS) : "",
    counted(made),
    c.limited ? counted(`${(made / RATE).toFixed(1)} s`) : "",
    counted(median(ms.map((m) => m.refused))),
    `${Math.min(...ms.map((m) => m.load)).toFixed(1)}-${Math.max(...ms.map((m) => m.load)).toFixed(1)}`,
    `${Math.min(...ms.map((m) => m.nodeMs)).toFixed(0)}-${Math.max(...ms.map((m) => m.nodeMs)).toFixed(0)}`,
  ];
});
console.log(
  `A rollout of ${SITES} sites in waves ${WAVES} to WordPress 6.8, gates pipeline, health, http; ${RUNS} rounds, median (range).\n` +
    `Rate floor: ${floorRequests} requests (${pages} listing pages + 3 per site: create, a pipeline read, a health read) at ${RATE} per s (${RATE_LIMIT}) = ${floorS.toFixed(1)} s.\n`,
);
console.log(
  table(
    ["run", "rate limit", "concurrency", "wall (s)", "vs rate floor", "attempts made", "attempts at the rate", "429 answers", "load (1 min)", "node -e 0 (ms)"],
    rows,
  ),
);
const kinds = results.get(keyOf({ cli: false, limited: true, concurrency: CONCURRENCY[0]! }))![0]!.byKind;
console.log(
  `\nRequests by kind (rate limit on, concurrency ${CONCURRENCY[0]}, round 1): ${Object.entries(kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(", ")}`,
);
