// Snapshot fan-out over a GitHub Actions matrix, simulated with processes (issue 11 §3): one emulator
// (SQLite file, seeded from a generated seed file, `--rate-limit` per token), N processes of the bundled action
// (`node action/dist/index.js` with INPUT_* as the runner sets them: `site: all`, `shard: i/N`) started
// together, all sharing one token. Reports, per N: snapshots completed, duplicates (sites with more than one
// snapshot, read from the database), failed steps, requests answered and refused (429, from the emulator's
// request log), and the wall time against the floor the rate limit sets (requests needed / allowed rate).
//
// Two floors: the rate floor, requests needed / (LIMIT / WINDOW) (the issue's), and the window floor,
// (ceil(requests / LIMIT) - 1) x WINDOW: the emulator's windows are fixed, so each one's allowance can go at
// its start and a run of a few windows can end below the rate floor. Short windows keep the two close.
//
// Two ways to feed the shard jobs (issue 28 item 5), FLEET_FEED (default "list,file"): `list`, each shard job
// lists the whole fleet (`site: all`, `shard`); `file`, a matrix step first (`siteops sites matrix --shards N
// --out DIR`, the CLI as a workflow runs it, its listing and time counted in the run) and each job reads its
// shard file (`sites-file`), listing nothing.
//
// `npm run bench -- action-fleet`. Knobs (env): FLEET_SITES (default 1000), FLEET_SHARDS (default "4,16,64"),
// FLEET_RATE (default 300/15: 20 requests/s per token, as 1200/60, in windows short enough for the default
// run to span several), FLEET_CONCURRENCY (per shard, default 8). The issue's scale: FLEET_SITES=10000
// FLEET_RATE=1200/60 (about 18 min per shard count).
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";
import { inputEnv } from "../test/action/run-action.js";
import { TOKEN, writeSeed } from "./lib/core-helpers.js";

const SITES = Number(process.env.FLEET_SITES ?? 1000);
const SHARD_COUNTS = (process.env.FLEET_SHARDS ?? "4,16,64").split(",").map(Number);
const [LIMIT, WINDOW_S] = (process.env.FLEET_RATE ?? "300/15").split("/").map(Number) as [number, number];
const CONCURRENCY = Number(process.env.FLEET_CONCURRENCY ?? 8);
const FEEDS = (process.env.FLEET_FEED ?? "list,file").split(",") as ("list" | "file")[];
const PER_PAGE = 100; // the action lists the fleet 100 sites a page
const root = path.resolve(import.meta.dirname, "..");
const ACTION = path.join(root, "action/dist/index.js");
const CLI = path.join(root, "bin/siteops.js");

interface Emulator {
  url: string;
  stop(): Promise<void>;
}

/** `siteops emulator` in its own process, requests logged (JSON lines) to `logFile`. */
async function startEmulator(dir: string, seedFile: string, logFile: string): Promise<Emulator> {
  const log = openSync(logFile, "w");
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(root, "cli/main.ts"),
      "emulator",
      "--port",
      "0",
      "--db",
      path.join(dir, "fleet.db"),
      "--seed",
      seedFile,
      "--step-seconds",
      "0",
      "--rate-limit",
      `${LIMIT}/${WINDOW_S}`,
      "--data-dir",
      path.join(dir, "data"),
      "--log",
    ],
    { cwd: root, stdio: ["ignore", "pipe", log], env: { ...process.env, NODE_ENV: "production" } },
  );
  closeSync(log);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it was ready; see ${logFile}`)));
  });
  return {
    url: (JSON.parse(line) as { url: string }).url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The matrix step of the `file` feed: `siteops sites matrix --shards N --out DIR`, as a workflow runs it. */
function matrixStep(url: string, shards: number, dir: string): Promise<number> {
  const home = path.join(dir, "matrix-step");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_RUNTIME_DIR: home, SITEOPS_BASE_URL: url, SITEOPS_API_TOKEN: TOKEN };
  return new Promise((resolve, reject) => {
    const args = [CLI, "sites", "matrix", "--shards", String(shards), "--out", path.join(dir, "shards"), "--quiet"];
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

/** One shard job: the bundled action as the runner starts it, fed by the listing or by its shard file. Resolves
 * with its exit code. */
function shardJob(url: string, shard: string, dir: string, feed: "list" | "file"): Promise<number> {
  const jobDir = path.join(dir, `job-${shard.replace("/", "-of-")}`);
  mkdirSync(jobDir, { recursive: true });
  for (const f of ["output", "summary"]) writeFileSync(path.join(jobDir, f), "");
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: jobDir,
    RUNNER_TEMP: jobDir,
    GITHUB_WORKSPACE: jobDir,
    GITHUB_OUTPUT: path.join(jobDir, "output"),
    GITHUB_STEP_SUMMARY: path.join(jobDir, "summary"),
    GITHUB_EVENT_NAME: "schedule",
    ...inputEnv({
      command: "snapshot",
      "api-token": TOKEN,
      "base-url": url,
      ...(feed === "list" ? { site: "all", shard } : { "sites-file": path.join(dir, "shards", `shard-${shard.replace("/", "-of-")}.json`) }),
      concurrency: String(CONCURRENCY),
      wait: "true",
      "timeout-minutes": "600",
      "result-file": path.join(jobDir, "result.json"),
    }),
  };
  return new Promise((resolve, reject) => {
    // The step's failure line (`::error::`), printed when it fails: a failed step says why.
    const child = spawn(process.execPath, [ACTION], { env, stdio: ["ignore", "pipe", "inherit"] });
    let errors = "";
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("::error")) errors += `${line}\n`;
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) process.stderr.write(`shard ${shard}: ${errors.split("\n")[0] || `exit ${code}`}\n`);
      resolve(code ?? 1);
    });
  });
}

interface Figures {
  shards: number;
  feed: "list" | "file";
  completed: number;
  duplicates: number;
  failedSteps: number;
  answered: number;
  refused: number;
  listPages: number;
  wallMs: number;
}

async function fleetRun(shards: number, feed: "list" | "file", seedFile: string): Promise<Figures> {
  const dir = mkdtempSync(path.join(tmpdir(), `siteops-bench-fleet-${shards}-${feed}-`));
  const logFile = path.join(dir, "emulator.log");
  const emu = await startEmulator(dir, seedFile, logFile);
  let wallMs: number;
  let codes: number[];
  try {
    const started = performance.now();
    const matrixCode = feed === "file" ? await matrixStep(emu.url, shards, dir) : 0;
    codes = [matrixCode, ...(await Promise.all(Array.from({ length: shards }, (_, i) => shardJob(emu.url, `${i + 1}/${shards}`, dir, feed))))];
    wallMs = performance.now() - started;
  } finally {
    await emu.stop();
  }
  const db = new DatabaseSync(path.join(dir, "fleet.db"), { readOnly: true });
  const completed = (db.prepare("SELECT COUNT(DISTINCT site_id) AS n FROM snapshots WHERE status = 'completed'").get() as { n: number }).n;
  const duplicates = (db.prepare("SELECT COUNT(*) AS n FROM (SELECT site_id FROM snapshots GROUP BY site_id HAVING COUNT(*) > 1)").get() as { n: number }).n;
  db.close();
  let answered = 0;
  let refused = 0;
  let listPages = 0;
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { msg?: string; req?: { method?: string; url?: string }; res?: { statusCode?: number } };
    if (entry.msg === "incoming request" && entry.req?.method === "GET" && /^\/api\/v1\/sites(\?|$)/.test(entry.req.url ?? "")) listPages++;
    if (entry.msg !== "request completed") continue;
    if (entry.res?.statusCode === 429) refused++;
    else answered++;
  }
  rmSync(dir, { recursive: true, force: true });
  return { shards, feed, completed, duplicates, failedSteps: codes.filter((c) => c !== 0).length, answered, refused, listPages, wallMs };
}

const seedDir = mkdtempSync(path.join(tmpdir(), "siteops-bench-fleet-seed-"));
const seedFile = path.join(seedDir, "seed.json");
writeSeed(
  seedFile,
  Array.from({ length: SITES }, (_, i) => ({ name: `Site ${i + 1}`, url: `https://site-${i + 1}.example.test` })),
);

const rate = LIMIT / WINDOW_S;
console.log(`${SITES} sites, --rate-limit ${LIMIT}/${WINDOW_S} (${rate} requests/s per token), ${CONCURRENCY} sites at a time per shard.`);
console.log(
  `Requests needed: 2 per site (create, one poll: --step-seconds 0) + the listing (${Math.ceil(SITES / PER_PAGE)} pages): by each shard (feed list) or once by the matrix step (feed file).\n`,
);
console.log(
  "| shards | feed | snapshots completed | duplicates | failed steps | requests answered | list pages sent | 429 answers | rate floor (s) | window floor (s) | wall (s) | vs rate floor |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
let bad = false;
try {
  for (const shards of SHARD_COUNTS)
    for (const feed of FEEDS) {
      const f = await fleetRun(shards, feed, seedFile);
      // The floor: every answered request (the 429s are not needed) at the allowed rate.
      const floorS = f.answered / rate;
      const windowFloorS = (Math.ceil(f.answered / LIMIT) - 1) * WINDOW_S;
      const wallS = f.wallMs / 1000;
      console.log(
        `| ${shards} | ${feed} | ${f.completed} of ${SITES} | ${f.duplicates} | ${f.failedSteps} | ${f.answered} | ${f.listPages} | ${f.refused} | ${floorS.toFixed(1)} | ${windowFloorS} | ${wallS.toFixed(1)} | ${(wallS / floorS).toFixed(2)}x |`,
      );
      if (f.completed !== SITES || f.duplicates !== 0 || f.failedSteps !== 0) bad = true;
    }
} finally {
  rmSync(seedDir, { recursive: true, force: true });
}
console.log("\nTarget: every snapshot completed, 0 duplicates, 0 failed steps, wall time within 1.3x of the floor.");
if (bad) process.exitCode = 1;
