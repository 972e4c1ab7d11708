// `siteops snapshot create --all --concurrency 8` over 500 sites, against the GitHub Action doing the same
// (`command: snapshot, site: all, concurrency: 8`: the same core, so the CLI should cost nothing extra) and
// against `--concurrency 1`, in one run, on one emulator whose captures take real time (two steps of
// STEP_SECONDS). Both poll every POLL_INTERVAL_MS. Targets: CLI / action >= 1x (speed), concurrency 8 /
// concurrency 1 >= 5x. Run: npm run bench -- cli-snapshot-all  (needs `npm run build`; BENCH_SITES=N to change
// the fleet size)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seededEmulator } from "./lib/seeded-emulator.js";
import { inputEnv, parseOutputs } from "../test/action/run-action.js";
import { median, ratio } from "./lib/processes.js";

const SITES = Number(process.env.BENCH_SITES ?? 500);
const STEP_SECONDS = 0.05;
const POLL_INTERVAL_MS = 25;
const REPEATS = 5;
/** GNU time, when installed, also reports each run's CPU time (user + system): steadier than wall time on a
 * shared machine, and what "no extra cost" is about. */
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const TOKEN = "sot_benchCliSnapshotAll0000001";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin/siteops.js");
const ACTION = path.join(ROOT, "action/dist/index.js");

const emu = await seededEmulator(TOKEN, SITES, STEP_SECONDS);
const dir = mkdtempSync(path.join(tmpdir(), "siteops-bench-cli-all-"));
mkdirSync(path.join(dir, "run"), { mode: 0o700 });

interface Run {
  ms: number;
  /** CPU seconds of the process (user + system), when GNU time is there. */
  cpu: number | undefined;
  code: number | null;
}

function run(cmd: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const [file, args] = TIME ? [TIME, ["-f", "cpu %U %S", process.execPath, ...cmd]] : [process.execPath, cmd];
    const child = spawn(file, args, { env, stdio: ["ignore", "ignore", TIME ? "pipe" : "ignore"] });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      const m = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      resolve({ ms: performance.now() - started, cpu: m ? Number(m[1]) + Number(m[2]) : undefined, code });
    });
  });
}

async function cli(concurrency: number): Promise<Run> {
  const report = path.join(dir, `cli-${concurrency}.json`);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    XDG_RUNTIME_DIR: path.join(dir, "run"),
    SITEOPS_BASE_URL: emu.url,
    SITEOPS_API_TOKEN: TOKEN,
    SITEOPS_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
  };
  const result = await run([BIN, "snapshot", "create", "--all", "--concurrency", String(concurrency), "--quiet", "--report", report], env);
  const summary = (JSON.parse(readFileSync(report, "utf8")) as { summary: { completed: number } }).summary;
  if (result.code !== 0 || summary.completed !== SITES)
    throw new Error(`CLI concurrency ${concurrency}: exit ${result.code}, ${summary.completed} of ${SITES} completed`);
  return result;
}

async function action(concurrency: number): Promise<Run> {
  const output = path.join(dir, "action-output");
  writeFileSync(output, "");
  const env = {
    PATH: process.env.PATH ?? "",
    GITHUB_OUTPUT: output,
    SITEOPS_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    ...inputEnv({ command: "snapshot", "api-token": TOKEN, "base-url": emu.url, site: "all", concurrency: String(concurrency) }),
  };
  const result = await run([ACTION], env);
  const outputs = parseOutputs(readFileSync(output, "utf8"));
  const done = Object.keys(JSON.parse(outputs["snapshot-ids"] ?? "{}") as object).length;
  if (result.code !== 0 || outputs.status !== "completed" || done !== SITES)
    throw new Error(`action concurrency ${concurrency}: exit ${result.code}, ${done} of ${SITES}`);
  return result;
}

try {
  const cli8: Run[] = [];
  const action8: Run[] = [];
  for (let i = 0; i < REPEATS; i++) {
    cli8.push(await cli(8));
    action8.push(await action(8));
  }
  const cli1 = await cli(1);
  const wall = (xs: Run[]) => median(xs.map((x) => x.ms));
  const cpu = (xs: Run[]) => (xs.every((x) => x.cpu !== undefined) ? median(xs.map((x) => x.cpu!)) : undefined);
  const row = (label: string, xs: Run[]) =>
    `| ${label} | ${(wall(xs) / 1000).toFixed(2)} | ${((SITES * 1000) / wall(xs)).toFixed(1)} | ${cpu(xs)?.toFixed(2) ?? "-"} | ${xs.map((x) => (x.ms / 1000).toFixed(2)).join(", ")} |`;
  console.log(
    `| ${SITES} sites, capture ${2 * STEP_SECONDS * 1000} ms each, poll ${POLL_INTERVAL_MS} ms | median wall s | snapshots/s | median CPU s | runs, wall s |`,
  );
  console.log("|---|---|---|---|---|");
  console.log(row("siteops snapshot create --all --concurrency 8", cli8));
  console.log(row("GitHub Action, site: all, concurrency: 8", action8));
  console.log(row("siteops snapshot create --all --concurrency 1", [cli1]));
  console.log(`\nCLI speed / action speed at concurrency 8: ${ratio(wall(action8), wall(cli8))} (target >= 1x)`);
  const [c, a] = [cpu(cli8), cpu(action8)];
  if (c !== undefined && a !== undefined) console.log(`CLI CPU time / action CPU time: ${ratio(c, a)} (reference: the same core, so about 1x)`);
  console.log(`CLI concurrency 8 speed-up over concurrency 1: ${ratio(cli1.ms, wall(cli8))} (target >= 5x)`);
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
