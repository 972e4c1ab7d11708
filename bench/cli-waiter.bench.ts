// How long after a snapshot completes in the service the CLI reports it, with the default poll settings, on an
// emulator whose captures complete at once (0 steps): for each site of a `snapshot create --all` run, the time of
// the CLI's "completed" log line minus the snapshot's completed_at. The waiting is the core's (src/operations/
// wait.ts): this measures its poll delays as the CLI and the action live with them. For reference, the same
// with SITEOPS_POLL_INTERVAL_MS=50. Target: median < 300 ms. Run: npm run bench -- cli-waiter (needs a build)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seededEmulator } from "./lib/seeded-emulator.js";
import { median } from "./lib/processes.js";

const SITES = 20;
const RUNS = 3;
const TOKEN = "sot_benchCliWaiter000000000001";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin/siteops.js");

const emu = await seededEmulator(TOKEN, SITES, 0);
const dir = mkdtempSync(path.join(tmpdir(), "siteops-bench-cli-waiter-"));
mkdirSync(path.join(dir, "run"), { mode: 0o700 });

interface Record {
  snapshot: { id: string; completed_at: string };
}

/** Latencies in ms (report time - completed_at) of every site of one run. */
async function latencies(extraEnv: NodeJS.ProcessEnv): Promise<number[]> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    XDG_RUNTIME_DIR: path.join(dir, "run"),
    SITEOPS_BASE_URL: emu.url,
    SITEOPS_API_TOKEN: TOKEN,
    ...extraEnv,
  };
  const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
    const child = spawn(process.execPath, [BIN, "snapshot", "create", "--all", "--concurrency", "4", "--no-lock", "--json=snapshot"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (c) => resolve({ stdout: out, stderr: err, code: c }));
  });
  if (code !== 0) throw new Error(`siteops exited ${code}: ${stderr}`);
  const reported = new Map<string, number>();
  for (const line of stderr.split("\n")) {
    const m = /^(\S+Z) .*: snapshot (snap_\w+) completed/.exec(line);
    if (m) reported.set(m[2]!, Date.parse(m[1]!));
  }
  return (JSON.parse(stdout) as Record[]).map((r) => reported.get(r.snapshot.id)! - Date.parse(r.snapshot.completed_at));
}

try {
  const cases: [string, NodeJS.ProcessEnv][] = [
    ["default poll settings (the core's waiter)", {}],
    ["reference: SITEOPS_POLL_INTERVAL_MS=50", { SITEOPS_POLL_INTERVAL_MS: "50" }],
  ];
  console.log(`| ${SITES} sites x ${RUNS} runs, 0-step emulator | median ms | p90 ms | max ms |`);
  console.log("|---|---|---|---|");
  let target = 0;
  for (const [label, extra] of cases) {
    const all: number[] = [];
    for (let i = 0; i < RUNS; i++) all.push(...(await latencies(extra)));
    all.sort((a, b) => a - b);
    if (!target) target = median(all);
    console.log(`| ${label} | ${median(all).toFixed(0)} | ${all[Math.floor(all.length * 0.9)]!.toFixed(0)} | ${all.at(-1)!.toFixed(0)} |`);
  }
  console.log(`\nsnapshot completed -> reported by the CLI, default poll settings: median ${target.toFixed(0)} ms (target < 300 ms)`);
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
