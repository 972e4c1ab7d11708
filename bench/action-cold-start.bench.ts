// Cold start of the bundled GitHub Action: from spawning `node action/dist/index.js` until its first request
// reaches the emulator, against spawning `node -e 0` until it exits, 20 of each, interleaved, medians.
// Target: <= 2x. Run: npm run bench -- action-cold-start
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator/index.js";
import { inputEnv } from "../test/action/run-action.js";
import { ratio } from "./lib/processes.js";

const RUNS = 20;
const WARMUP = 2;
const TOKEN = "sot_benchActionColdStart00000001";
const ACTION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../action/dist/index.js");

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

// The first request of a run is noticed on the emulator's own HTTP server, beside Fastify's handler.
let onFirstRequest: (() => void) | undefined;
emu.app.server.on("request", () => {
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

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  for (let i = 0; i < WARMUP; i++) {
    await timeNodeExit();
    await timeActionFirstRequest();
    await timeFloorFirstRequest();
  }
  const baseline: number[] = [];
  const action: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await timeNodeExit());
    action.push(await timeActionFirstRequest());
    floor.push(await timeFloorFirstRequest());
  }
  const b = median(baseline);
  const a = median(action);
  console.log(`| process | median ms (${RUNS} runs) | min ms | max ms |`);
  console.log(`|---|---|---|---|`);
  console.log(`| node -e 0, spawn to exit | ${b.toFixed(1)} | ${Math.min(...baseline).toFixed(1)} | ${Math.max(...baseline).toFixed(1)} |`);
  console.log(`| node action/dist/index.js, spawn to first request | ${a.toFixed(1)} | ${Math.min(...action).toFixed(1)} | ${Math.max(...action).toFixed(1)} |`);
  console.log(`| reference: ESM one-liner, node:http GET, spawn to first request | ${median(floor).toFixed(1)} | ${Math.min(...floor).toFixed(1)} | ${Math.max(...floor).toFixed(1)} |`);
  console.log(`\naction cold start / ESM one-liner: ${ratio(a, median(floor))} (reference)`);
  console.log(`action cold start / node -e 0: ${ratio(a, b)} (target <= 2x)`);
} finally {
  await emu.close();
}
