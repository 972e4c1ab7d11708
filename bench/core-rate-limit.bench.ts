// Benchmark: N processes sharing one API token against an emulator limited to LIMIT requests per WINDOW
// seconds (the shards of a fleet job), each sending its share of TOTAL requests through the core, 8 at a
// time. Reports the wall time against the floor the limit sets (requests / allowed rate), the 429 answers and
// the failed calls, for 1, 4 and 16 processes with pacing on, and 16 without pacing, in this run.
// `npm run bench -- core-rate-limit`
import { spawn } from "node:child_process";
import path from "node:path";
import { spawnEmulator, table, TOKEN } from "./lib/core-helpers.js";

const LIMIT = 100;
const WINDOW_S = 5;
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 400);
const root = path.resolve(import.meta.dirname, "..");

interface ChildResult {
  ok: number;
  failed: number;
  refused: number;
  sent: number;
}

function child(url: string, count: number, pacing: boolean): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", path.join(root, "bench/core-rate-limit-child.ts"), url, TOKEN, String(count), pacing ? "on" : "off"],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    proc.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as ChildResult) : reject(new Error(`child exited ${code}`))));
  });
}

const configs: [number, boolean][] = [
  [1, true],
  [4, true],
  [16, true],
  [16, false],
];
const rows: (string | number)[][] = [];
for (const [processes, pacing] of configs) {
  // A fresh emulator per run: its window for the token starts with the run.
  const emulator = await spawnEmulator(undefined, { args: ["--rate-limit", `${LIMIT}/${WINDOW_S}`] });
  try {
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: processes }, (_, i) => child(emulator.url, Math.floor(TOTAL / processes) + (i < TOTAL % processes ? 1 : 0), pacing)),
    );
    const wallS = (Date.now() - started) / 1000;
    // The floor the limit sets: requests needed / allowed rate.
    const floorS = TOTAL / (LIMIT / WINDOW_S);
    const sum = (key: keyof ChildResult) => results.reduce((n, r) => n + r[key], 0);
    rows.push([
      processes,
      pacing ? "on" : "off",
      sum("ok"),
      sum("failed"),
      sum("refused"),
      sum("sent"),
      wallS.toFixed(1),
      floorS,
      `${(wallS / floorS).toFixed(2)}x`,
    ]);
  } finally {
    await emulator.close();
  }
}
console.log(`${TOTAL} GET /api/v1/me shared by N processes with one token; emulator limit ${LIMIT} per ${WINDOW_S} s (process start-up included)\n`);
console.log(table(["processes", "pacing", "ok", "failed", "429 answers", "attempts", "wall time (s)", "floor (s)", "vs floor"], rows));
