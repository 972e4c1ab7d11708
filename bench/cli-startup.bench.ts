// Start-up of the CLI: from spawning `node bin/siteops.js sites list --json` until its first request reaches the
// emulator, against spawning `node -e 0` until it exits; 20 of each, interleaved, medians. Target: <= 2x.
// bin/siteops.js keeps V8's compiled code between runs (the warm-up runs fill it, as a user's first run does);
// for reference, the same without that cache, and with the credentials read from a config file. (The package no
// longer ships the unbundled ESM graph, dist/src/cli, the bundle replaced: it is not measured any more.)
// Needs `npm run build`. Run: npm run bench -- cli-startup   (BENCH_SAMPLES=1 prints every run)
// CLI_STARTUP_BEFORE=<checkout>/bin/siteops.js adds another build's entry point as a contender in the same
// run (a before/after of a change: build the older commit's CLI in a worktree and point at its bin).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seededEmulator } from "./lib/seeded-emulator.js";
import { median, ratio } from "./lib/processes.js";

const RUNS = 20;
const WARMUP = 2;
const TOKEN = "sot_benchCliStartup0000000001";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin/siteops.js");

const emu = await seededEmulator(TOKEN, 1, 0);

// The first request of a run is noticed on the emulator's HTTP server, before Fastify handles it.
let onFirstRequest: (() => void) | undefined;
emu.app.server.prependListener("request", () => {
  const notify = onFirstRequest;
  onFirstRequest = undefined;
  notify?.();
});

const dir = mkdtempSync(path.join(tmpdir(), "siteops-bench-cli-"));
mkdirSync(path.join(dir, "siteops"), { mode: 0o700 });
writeFileSync(path.join(dir, "siteops", "config.json"), JSON.stringify({ profiles: { default: { base_url: emu.url, api_token: TOKEN } } }), { mode: 0o600 });
const baseEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", XDG_CACHE_HOME: path.join(dir, "cache") };
const envAuth = { ...baseEnv, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: TOKEN };
const configAuth = { ...baseEnv, XDG_CONFIG_HOME: dir };

function timeNodeExit(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", "0"], { env: baseEnv, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve(performance.now() - started));
  });
}

/** ms from spawn until the first request of `args` reaches the emulator. */
function timeFirstRequest(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let elapsed: number | undefined;
    onFirstRequest = () => {
      elapsed = performance.now() - started;
    };
    const child = spawn(process.execPath, args, { env, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (elapsed === undefined || code !== 0) reject(new Error(`${args.join(" ")} exited (${code}) ${elapsed === undefined ? "without a request" : ""}`));
      else resolve(elapsed);
    });
  });
}

const COMMAND = ["sites", "list", "--json"];
const cases: { label: string; run: () => Promise<number> }[] = [
  { label: "node -e 0, spawn to exit", run: timeNodeExit },
  { label: "siteops sites list --json (bin/siteops.js, bundle), spawn to first request", run: () => timeFirstRequest([BIN, ...COMMAND], envAuth) },
  { label: "the same, credentials from the config file", run: () => timeFirstRequest([BIN, ...COMMAND], configAuth) },
  {
    label: "reference: no compile cache (SITEOPS_NO_COMPILE_CACHE=1)",
    run: () => timeFirstRequest([BIN, ...COMMAND], { ...envAuth, SITEOPS_NO_COMPILE_CACHE: "1" }),
  },
];
const before = process.env.CLI_STARTUP_BEFORE;
if (before) cases.push({ label: `before: ${before}`, run: () => timeFirstRequest([before, ...COMMAND], envAuth) });

try {
  for (let i = 0; i < WARMUP; i++) for (const c of cases) await c.run();
  const samples = cases.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) for (const [j, c] of cases.entries()) samples[j]!.push(await c.run());
  if (process.env.BENCH_SAMPLES) for (const [j, c] of cases.entries()) console.log(c.label, samples[j]!.map((x) => x.toFixed(0)).join(" "));
  console.log(`| process | median ms (${RUNS} runs) | min ms | max ms |`);
  console.log("|---|---|---|---|");
  for (const [j, c] of cases.entries()) {
    const xs = samples[j]!;
    console.log(`| ${c.label} | ${median(xs).toFixed(1)} | ${Math.min(...xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`);
  }
  const base = median(samples[0]!);
  console.log(`\nsiteops sites list --json start to first request / node -e 0: ${ratio(median(samples[1]!), base)} (target <= 2x)`);
  console.log(`with the config file / node -e 0: ${ratio(median(samples[2]!), base)}`);
  console.log(`no compile cache / node -e 0: ${ratio(median(samples[3]!), base)} (reference)`);
  if (before) {
    console.log(`before (${before}) / node -e 0: ${ratio(median(samples[4]!), base)}`);
    console.log(`after / before: ${ratio(median(samples[1]!), median(samples[4]!))}`);
  }
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
