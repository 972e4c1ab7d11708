// `siteops snapshot create --all --concurrency 8` over 500 sites, against the GitHub Action doing the same
// (`command: snapshot, site: all, concurrency: 8`: the same core, so the CLI should cost nothing extra) and
// against `--concurrency 1`, in one run, on one emulator whose captures take real time (two steps of
// STEP_SECONDS). Both poll every POLL_INTERVAL_MS. Targets: CLI / action >= 1x (speed), concurrency 8 /
// concurrency 1 >= 5x. Run: npm run bench -- cli-snapshot-all  (needs `npm run build`; BENCH_SITES=N to change
// the fleet size)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seededEmulator } from "./lib/seeded-emulator.js";
import { inputEnv, parseOutputs } from "../test/action/run-action.js";
import { median, ratio } from "./lib/processes.js";

const SITES = Number(process.env.BENCH_SITES ?? 500);
const STEP_SECONDS = 0.05;
const POLL_INTERVAL_MS = 25;
const REPEATS = 3;
const TOKEN = "sot_benchCliSnapshotAll0000001";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin/siteops.js");
const ACTION = path.join(ROOT, "action/dist/index.js");

const emu = await seededEmulator(TOKEN, SITES, STEP_SECONDS);
const dir = mkdtempSync(path.join(tmpdir(), "siteops-bench-cli-all-"));
mkdirSync(path.join(dir, "run"), { mode: 0o700 });

function run(cmd: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cmd, { env, stdio: ["ignore", "ignore", "ignore"] });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ ms: performance.now() - started, code }));
  });
}

async function cli(concurrency: number): Promise<number> {
  const report = path.join(dir, `cli-${concurrency}.json`);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    XDG_RUNTIME_DIR: path.join(dir, "run"),
    SITEOPS_BASE_URL: emu.url,
    SITEOPS_API_TOKEN: TOKEN,
    SITEOPS_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
  };
  const { ms, code } = await run([BIN, "snapshot", "create", "--all", "--concurrency", String(concurrency), "--quiet", "--report", report], env);
  const summary = (JSON.parse(readFileSync(report, "utf8")) as { summary: { completed: number } }).summary;
  if (code !== 0 || summary.completed !== SITES) throw new Error(`CLI concurrency ${concurrency}: exit ${code}, ${summary.completed} of ${SITES} completed`);
  return ms;
}

async function action(concurrency: number): Promise<number> {
  const output = path.join(dir, "action-output");
  writeFileSync(output, "");
  const env = {
    PATH: process.env.PATH ?? "",
    GITHUB_OUTPUT: output,
    SITEOPS_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    ...inputEnv({ command: "snapshot", "api-token": TOKEN, "base-url": emu.url, site: "all", concurrency: String(concurrency) }),
  };
  const { ms, code } = await run([ACTION], env);
  const outputs = parseOutputs(readFileSync(output, "utf8"));
  const done = Object.keys(JSON.parse(outputs["snapshot-ids"] ?? "{}") as object).length;
  if (code !== 0 || outputs.status !== "completed" || done !== SITES) throw new Error(`action concurrency ${concurrency}: exit ${code}, ${done} of ${SITES}`);
  return ms;
}

try {
  const cli8: number[] = [];
  const action8: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    cli8.push(await cli(8));
    action8.push(await action(8));
  }
  const cli1 = await cli(1);
  const row = (label: string, xs: number[]) => `| ${label} | ${(median(xs) / 1000).toFixed(2)} | ${((SITES * 1000) / median(xs)).toFixed(1)} | ${xs.map((x) => (x / 1000).toFixed(2)).join(", ")} |`;
  console.log(`| ${SITES} sites, capture ${2 * STEP_SECONDS * 1000} ms each, poll ${POLL_INTERVAL_MS} ms | median wall s | snapshots/s | runs (s) |`);
  console.log("|---|---|---|---|");
  console.log(row("siteops snapshot create --all --concurrency 8", cli8));
  console.log(row("GitHub Action, site: all, concurrency: 8", action8));
  console.log(row("siteops snapshot create --all --concurrency 1", [cli1]));
  console.log(`\nCLI speed / action speed at concurrency 8: ${ratio(median(action8), median(cli8))} (target >= 1x)`);
  console.log(`CLI concurrency 8 speed-up over concurrency 1: ${ratio(cli1, median(cli8))} (target >= 5x)`);
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
