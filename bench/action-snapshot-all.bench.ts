// `command: snapshot, site: all` over 200 sites, with concurrency 8 against the same with concurrency 1, in
// one run, on the emulator with service captures that take real time (two steps of STEP_SECONDS each).
// Target: concurrency 8 >= 4x faster. Run: npm run bench -- action-snapshot-all
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator/index.js";
import { inputEnv, parseOutputs } from "../test/action/run-action.js";
import { ratio } from "./lib/processes.js";

const SITES = 200;
/** Each capture takes two steps (requested -> in_progress -> completed): 2 x 50 ms of emulator clock. */
const STEP_SECONDS = 0.05;
const POLL_INTERVAL_MS = 25;
const TOKEN = "sot_benchActionSnapshotAll000001";
const ACTION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../action/dist/index.js");

const emu = await startEmulator({
  port: 0,
  stepSeconds: STEP_SECONDS,
  seed: {
    accounts: [
      {
        name: "Bench",
        users: [{ email: "bench@example.com", password: "bench-password", name: "Bench", role: "owner" }],
        api_tokens: [{ token: TOKEN, user_email: "bench@example.com" }],
        sites: Array.from({ length: SITES }, (_, i) => ({ name: `Site ${i + 1}`, url: `https://site-${i + 1}.example.com` })),
      },
    ],
  },
});
const dir = mkdtempSync(path.join(tmpdir(), "siteops-bench-action-"));

async function snapshotAll(concurrency: number): Promise<number> {
  const output = path.join(dir, `output-${concurrency}`);
  writeFileSync(output, "");
  const env = {
    PATH: process.env.PATH ?? "",
    GITHUB_OUTPUT: output,
    SITEOPS_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    ...inputEnv({ command: "snapshot", "api-token": TOKEN, "base-url": emu.url, site: "all", concurrency: String(concurrency) }),
  };
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [ACTION], { env, stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", resolve);
  });
  const elapsed = performance.now() - started;
  const outputs = parseOutputs(readFileSync(output, "utf8"));
  const done = Object.keys(JSON.parse(outputs["snapshot-ids"] ?? "{}") as object).length;
  if (code !== 0 || outputs.status !== "completed" || done !== SITES) {
    throw new Error(`concurrency ${concurrency}: exit ${code}, status ${outputs.status}, ${done} of ${SITES} snapshots`);
  }
  return elapsed;
}

try {
  const one = await snapshotAll(1);
  const eight = await snapshotAll(8);
  console.log(`| ${SITES} sites, capture ${2 * STEP_SECONDS * 1000} ms each | wall s | snapshots/s |`);
  console.log(`|---|---|---|`);
  console.log(`| concurrency 1 | ${(one / 1000).toFixed(2)} | ${((SITES * 1000) / one).toFixed(1)} |`);
  console.log(`| concurrency 8 | ${(eight / 1000).toFixed(2)} | ${((SITES * 1000) / eight).toFixed(1)} |`);
  console.log(`\nconcurrency 8 speed-up over concurrency 1: ${ratio(one, eight)} (target >= 4x)`);
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
