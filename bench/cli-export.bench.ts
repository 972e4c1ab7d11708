// Benchmark: `siteops export terraform` at 1,000 sites (issue 27, item 3), the built CLI (`npm run build` first)
// and real terraform against the emulator in its own process.
//   - the export's wall time and API requests, against `siteops sites list --json` over the same account (the
//     listing it cannot avoid), BENCH_ROUNDS interleaved
//   - `terraform plan` of the export (every object to import), map and blocks forms, against a plan creating as
//     many terraform_data (Terraform's own floor for that many resources), interleaved; requests per plan
// Requests are counted from the emulator's RateLimit headers under a limit never reached. BENCH_SITES (1000),
// BENCH_WEBHOOKS (5) and BENCH_ROUNDS (3) change the sizes and rounds.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnEmulator, TOKEN, type BenchEmulator } from "./lib/core-helpers.js";
import { buildProvider, dataHcl, providerHcl, ROOT, spread, table, Workspace, type Run } from "./lib/provider-helpers.js";

const SITES = Number(process.env.BENCH_SITES ?? 1000);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COUNTING_LIMIT = "100000000/86400";
const BIN = path.join(ROOT, "bin/siteops.js");
if (!existsSync(path.join(ROOT, "dist/cli/siteops.cjs"))) throw new Error("dist/cli/siteops.cjs is missing: run `npm run build` first");

/** Requests the bench token has made so far, read from the emulator's RateLimit headers (costs one). */
async function requestsMade(url: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/me`, { headers: { authorization: `token ${TOKEN}` } });
  await res.arrayBuffer();
  return Number(res.headers.get("ratelimit-limit")) - Number(res.headers.get("ratelimit-remaining"));
}

/** Runs the CLI to completion; its wall time in ms. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`siteops ${args.join(" ")} exited ${code}: ${stderr}`))));
  });
}

const out = mkdtempSync(path.join(tmpdir(), "siteops-export-bench-"));
const ws = new Workspace(await buildProvider(path.join(out, "build")));
const load = [loadavg()[0]!];
let emulator: BenchEmulator | undefined;
try {
  emulator = await spawnEmulator(
    Array.from({ length: SITES }, (_, i) => ({ name: `Site ${i + 1}`, url: `https://site-${i + 1}.bench.example` })),
    { args: ["--rate-limit", COUNTING_LIMIT] },
  );
  const url = emulator.url;
  for (let i = 0; i < WEBHOOKS; i++) {
    const res = await fetch(`${url}/api/v1/webhook_endpoints`, {
      method: "POST",
      headers: { authorization: `token ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `https://hooks-${i}.bench.example/siteops` }),
    });
    if (res.status !== 201) throw new Error(`webhook endpoint: ${res.status} ${await res.text()}`);
  }
  const env = { PATH: process.env.PATH, HOME: out, SITEOPS_BASE_URL: url, SITEOPS_API_TOKEN: TOKEN };
  const counted = async (run: () => Promise<number>) => {
    const before = await requestsMade(url);
    const ms = await run();
    return { ms, requests: (await requestsMade(url)) - before - 1 };
  };

  const dirs = {
    map: ws.dir("map", { "provider.tf": providerHcl(url, TOKEN) }),
    blocks: ws.dir("blocks", { "provider.tf": providerHcl(url, TOKEN) }),
    data: ws.dir("data", { "main.tf": dataHcl(SITES + WEBHOOKS) }),
  };
  const exports: { ms: number; requests: number }[] = [];
  const listings: { ms: number; requests: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const exportRun = () => counted(() => cli(["export", "terraform", "--out", `${dirs.map}/`, "--force"], env));
    const listRun = () => counted(() => cli(["sites", "list", "--json"], env));
    if (r % 2) {
      listings.push(await listRun());
      exports.push(await exportRun());
    } else {
      exports.push(await exportRun());
      listings.push(await listRun());
    }
  }
  await cli(["export", "terraform", "--form", "blocks", "--out", `${dirs.blocks}/`], env);
  for (const d of Object.values(dirs)) await ws.terraform(d, ["init", "-input=false"]);
  load.push(loadavg()[0]!);

  const plan = ["plan", "-input=false", "-detailed-exitcode", "-no-color"];
  const plans: Record<keyof typeof dirs, (Run & { requests: number })[]> = { map: [], blocks: [], data: [] };
  const order: (keyof typeof dirs)[] = ["map", "blocks", "data"];
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of r % 2 ? [...order].reverse() : order) {
      const before = await requestsMade(url);
      const run = await ws.measure(dirs[k], plan, { emulatorPid: emulator.pid });
      if (run.exitCode !== 2) throw new Error(`plan of ${k} found nothing to do (exit ${run.exitCode})`);
      plans[k].push({ ...run, requests: (await requestsMade(url)) - before - 1 });
    }
  }
  load.push(loadavg()[0]!);

  const objects = SITES + WEBHOOKS;
  const ms = (xs: { ms: number }[]) =>
    spread(
      xs.map((x) => x.ms),
      1000,
    );
  const wall = (xs: Run[]) =>
    spread(
      xs.map((x) => x.wallMs),
      1000,
    );
  const ratio = (a: number[], b: number[]) => `${spread(a.map((x, i) => x / b[i]!))}x`;
  console.log(`siteops export terraform at ${SITES} sites and ${WEBHOOKS} webhook endpoints: ${ROUNDS} rounds interleaved, median (min-max).`);
  console.log(
    `Load average (1 min) at start, after the exports, after the plans: ${load.map((l) => l.toFixed(2)).join(", ")} (2 cores, shared with other work).\n`,
  );
  console.log(
    table(
      ["run", "wall s", "baseline", "baseline wall s", "ratio", "API requests", "baseline requests"],
      [
        [
          "siteops export terraform (map form)",
          ms(exports),
          "siteops sites list --json",
          ms(listings),
          ratio(
            exports.map((x) => x.ms),
            listings.map((x) => x.ms),
          ),
          exports[0]!.requests,
          listings[0]!.requests,
        ],
        ...(["map", "blocks"] as const).map((k) => [
          `terraform plan of the export, ${k} form (${objects} to import)`,
          wall(plans[k]),
          `plan creating ${objects} terraform_data`,
          wall(plans.data),
          ratio(
            plans[k].map((x) => x.wallMs),
            plans.data.map((x) => x.wallMs),
          ),
          plans[k][0]!.requests,
          plans.data[0]!.requests,
        ]),
      ],
    ),
  );
} finally {
  ws.close();
  await emulator?.close();
  rmSync(out, { recursive: true, force: true });
}
