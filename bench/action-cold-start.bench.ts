// Cold start of the bundled GitHub Action: from spawning `node action/dist/index.js` until its first request
// reaches the emulator, against spawning `node -e 0` until it exits, 20 of each, interleaved, medians.
// Target: <= 2x. For reference it also times an ESM one-liner sending one request with node:http, and an ESM
// bundle of undici's Pool alone sending one request. Run: npm run bench -- action-cold-start
// (BENCH_ACTION=<file> times another build of the action; BENCH_SAMPLES=1 prints every run.)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator/index.js";
import { inputEnv } from "../test/action/run-action.js";
import { ratio } from "./lib/processes.js";

const RUNS = 20;
const WARMUP = 2;
const TOKEN = "sot_benchActionColdStart00000001";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ACTION = process.env.BENCH_ACTION ?? path.join(ROOT, "action/dist/index.js");

const emu = await startEmulator({
  port: 0,
  stepSeconds: 0,
  seed: {
    accounts: [
      {
        name: "Bench",
        users: [{ email: "bench@example.com", password: "bench-password", name: "Bench", role: "owner" }],
        api_tokens: [{ token: TOKEN, user_email: "bench@example.com" }],
        sites: [{ name: "Bench site", url: "https://bench.example.com" }],
      },
    ],
  },
});

// The first request of a run is noticed on the emulator's own HTTP server, before Fastify's handler runs (which
// would otherwise add the emulator's own work on the request to the time measured).
let onFirstRequest: (() => void) | undefined;
emu.app.server.prependListener("request", () => {
  const notify = onFirstRequest;
  onFirstRequest = undefined;
  notify?.();
});

const baseEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" };
const actionEnv = {
  ...baseEnv,
  GITHUB_REPOSITORY: "acme/website",
  GITHUB_SHA: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
  GITHUB_RUN_ID: "1",
  GITHUB_SERVER_URL: "https://github.com",
  ...inputEnv({ command: "snapshot", "api-token": TOKEN, "base-url": emu.url, site: "Bench site", wait: "false" }),
};

/** ms from spawn until `until` resolves; the child is then left to finish (or killed). */
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
      if (elapsed === undefined) reject(new Error(`${args.join(" ")} exited (${code}) without a request`));
      else resolve(elapsed);
    });
  });
}

const timeActionFirstRequest = (): Promise<number> => timeFirstRequest([ACTION], actionEnv);
// For reference, not the target: the least a Node ESM entry can do to send one request.
const FLOOR_SOURCE = `import http from "node:http"; http.get(${JSON.stringify(`${emu.url}/api/v1/me`)}, (res) => res.resume()).on("error", () => {});`;
const timeFloorFirstRequest = (): Promise<number> => timeFirstRequest(["--input-type=module", "-e", FLOOR_SOURCE], baseEnv);

// Also for reference: what undici's Pool alone costs: an ESM bundle of just the Pool and request() the
// action includes (built the same way), sending one GET.
const probeDir = mkdtempSync(path.join(tmpdir(), "siteops-bench-undici-"));
writeFileSync(path.join(probeDir, "package.json"), JSON.stringify({ type: "module" }));
await esbuild.build({
  stdin: {
    contents: [
      'import Pool from "undici/lib/dispatcher/pool.js";',
      'import Dispatcher from "undici/lib/dispatcher/dispatcher.js";',
      'import request from "undici/lib/api/api-request.js";',
      "Object.assign(Dispatcher.prototype, { request });",
      `const pool = new Pool(${JSON.stringify(emu.url)});`,
      'const res = await pool.request({ path: "/api/v1/me", method: "GET" });',
      "await res.body.dump();",
      "await pool.close();",
    ].join("\n"),
    resolveDir: ROOT,
    loader: "js",
  },
  outfile: path.join(probeDir, "index.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  logLevel: "warning",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const timeUndiciFirstRequest = (): Promise<number> => timeFirstRequest([path.join(probeDir, "index.js")], baseEnv);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  for (let i = 0; i < WARMUP; i++) {
    await timeNodeExit();
    await timeActionFirstRequest();
    await timeFloorFirstRequest();
    await timeUndiciFirstRequest();
  }
  const baseline: number[] = [];
  const action: number[] = [];
  const floor: number[] = [];
  const undici: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await timeNodeExit());
    action.push(await timeActionFirstRequest());
    floor.push(await timeFloorFirstRequest());
    undici.push(await timeUndiciFirstRequest());
  }
  const b = median(baseline);
  const a = median(action);
  if (process.env.BENCH_SAMPLES) console.log("samples", action.map((x) => x.toFixed(0)).join(" "), "\nbaseline", baseline.map((x) => x.toFixed(0)).join(" "));
  console.log(`| process | median ms (${RUNS} runs) | min ms | max ms |`);
  console.log(`|---|---|---|---|`);
  console.log(`| node -e 0, spawn to exit | ${b.toFixed(1)} | ${Math.min(...baseline).toFixed(1)} | ${Math.max(...baseline).toFixed(1)} |`);
  console.log(`| node action/dist/index.js, spawn to first request | ${a.toFixed(1)} | ${Math.min(...action).toFixed(1)} | ${Math.max(...action).toFixed(1)} |`);
  console.log(`| reference: ESM one-liner, node:http GET, spawn to first request | ${median(floor).toFixed(1)} | ${Math.min(...floor).toFixed(1)} | ${Math.max(...floor).toFixed(1)} |`);
  console.log(`| reference: ESM bundle of undici's Pool alone, spawn to first request | ${median(undici).toFixed(1)} | ${Math.min(...undici).toFixed(1)} | ${Math.max(...undici).toFixed(1)} |`);
  console.log(`\naction cold start / ESM one-liner: ${ratio(a, median(floor))} (reference)`);
  console.log(`action cold start / undici Pool alone: ${ratio(a, median(undici))} (reference)`);
  console.log(`undici Pool alone / node -e 0: ${ratio(median(undici), b)} (reference)`);
  console.log(`action cold start / node -e 0: ${ratio(a, b)} (target <= 2x)`);
} finally {
  await emu.close();
  rmSync(probeDir, { recursive: true, force: true });
}
