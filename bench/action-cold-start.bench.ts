// Cold start of the bundled GitHub Action: from spawning `node action/dist/index.js` until its first request
// reaches the emulator, against spawning `node -e 0` until it exits, 20 of each, interleaved, medians.
// Target: <= 2x, on the Node.js the runner runs the action with (action.yml `runs.using: node24`), which is
// fetched once from the npm registry (the node-<platform>-<arch> package of that major version) into
// node_modules/.cache; the same is measured on this machine's Node for reference. Also for reference: an ESM
// one-liner sending one request with node:http, and an ESM bundle of undici's Pool alone sending one request.
// Run: npm run bench -- action-cold-start
// (BENCH_ACTION=<file> times another build of the action; BENCH_RUNNER_NODE=<binary> uses that Node as the
// runner's; BENCH_SAMPLES=1 prints every run.)
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator/index.js";
import { inputEnv } from "../test/action/run-action.js";
import { median, ratio } from "./lib/processes.js";

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

/** ms from spawning `node -e 0` until it exits. */
function timeNodeExit(node: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node, ["-e", "0"], { env: baseEnv, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve(performance.now() - started));
  });
}

/** ms from spawn until the first request of `args` reaches the emulator. */
function timeFirstRequest(node: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let elapsed: number | undefined;
    onFirstRequest = () => {
      elapsed = performance.now() - started;
    };
    const child = spawn(node, args, { env, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (elapsed === undefined) reject(new Error(`${args.join(" ")} exited (${code}) without a request`));
      else resolve(elapsed);
    });
  });
}

const timeActionFirstRequest = (node: string): Promise<number> => timeFirstRequest(node, [ACTION], actionEnv);
// For reference, not the target: the least a Node ESM entry can do to send one request.
const FLOOR_SOURCE = `import http from "node:http"; http.get(${JSON.stringify(`${emu.url}/api/v1/me`)}, (res) => res.resume()).on("error", () => {});`;
const timeFloorFirstRequest = (node: string): Promise<number> => timeFirstRequest(node, ["--input-type=module", "-e", FLOOR_SOURCE], baseEnv);

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
const timeUndiciFirstRequest = (node: string): Promise<number> => timeFirstRequest(node, [path.join(probeDir, "index.js")], baseEnv);

/** The Node.js binary of the major version action.yml runs the action with: from BENCH_RUNNER_NODE, from the
 * cache, or fetched from the npm registry (node-<platform>-<arch>, the binaries the `node` package installs). */
function runnerNode(): { path: string; version: string } | { error: string } {
  const major = /^\s*using:\s*node(\d+)\s*$/m.exec(readFileSync(path.join(ROOT, "action/action.yml"), "utf8"))?.[1];
  if (!major) return { error: "action.yml has no runs.using: nodeNN" };
  const version = (bin: string) => execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
  if (process.env.BENCH_RUNNER_NODE) return { path: process.env.BENCH_RUNNER_NODE, version: version(process.env.BENCH_RUNNER_NODE) };
  if (process.versions.node.split(".")[0] === major) return { path: process.execPath, version: process.version };
  const pkg = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  const dir = path.join(ROOT, "node_modules", ".cache", "siteops-bench", `${pkg}-${major}`);
  const bin = path.join(dir, "package", "bin", process.platform === "win32" ? "node.exe" : "node");
  try {
    if (!existsSync(bin)) {
      // Unpacked beside, then renamed into place: an interrupted fetch leaves no half binary behind.
      const partial = `${dir}.partial`;
      rmSync(partial, { recursive: true, force: true });
      mkdirSync(partial, { recursive: true });
      console.error(`fetching ${pkg}@${major} from the npm registry (once, into ${path.relative(ROOT, dir)}) ...`);
      const tarball = execFileSync("npm", ["pack", `${pkg}@${major}`, "--pack-destination", partial, "--silent"], { cwd: partial, encoding: "utf8" })
        .trim()
        .split("\n")
        .pop()!;
      execFileSync("tar", ["xzf", path.join(partial, tarball), "-C", partial]);
      rmSync(path.join(partial, tarball), { force: true });
      rmSync(dir, { recursive: true, force: true });
      renameSync(partial, dir);
    }
    return { path: bin, version: version(bin) };
  } catch (err) {
    return { error: `could not get Node ${major} (${pkg}@${major}): ${(err as Error).message.split("\n")[0]}` };
  }
}

interface Runtime {
  label: string;
  node: string;
}

async function measure(rt: Runtime): Promise<{ baseline: number; action: number }> {
  for (let i = 0; i < WARMUP; i++) {
    await timeNodeExit(rt.node);
    await timeActionFirstRequest(rt.node);
    await timeFloorFirstRequest(rt.node);
    await timeUndiciFirstRequest(rt.node);
  }
  const baseline: number[] = [];
  const action: number[] = [];
  const floor: number[] = [];
  const undici: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await timeNodeExit(rt.node));
    action.push(await timeActionFirstRequest(rt.node));
    floor.push(await timeFloorFirstRequest(rt.node));
    undici.push(await timeUndiciFirstRequest(rt.node));
  }
  const b = median(baseline);
  const a = median(action);
  const row = (label: string, xs: number[]) => `| ${label} | ${median(xs).toFixed(1)} | ${Math.min(...xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`;
  if (process.env.BENCH_SAMPLES) console.log("samples", action.map((x) => x.toFixed(0)).join(" "), "\nbaseline", baseline.map((x) => x.toFixed(0)).join(" "));
  console.log(`\n### ${rt.label}\n`);
  console.log(`| process | median ms (${RUNS} runs) | min ms | max ms |`);
  console.log(`|---|---|---|---|`);
  console.log(row("node -e 0, spawn to exit", baseline));
  console.log(row("node action/dist/index.js, spawn to first request", action));
  console.log(row("reference: ESM one-liner, node:http GET, spawn to first request", floor));
  console.log(row("reference: ESM bundle of undici's Pool alone, spawn to first request", undici));
  console.log(`\naction cold start / ESM one-liner: ${ratio(a, median(floor))} (reference)`);
  console.log(`undici Pool alone / node -e 0: ${ratio(median(undici), b)} (reference)`);
  return { baseline: b, action: a };
}

try {
  const runner = runnerNode();
  const runtimes: Runtime[] = [];
  if ("path" in runner) runtimes.push({ label: `Node ${runner.version} (the runner's: action.yml runs.using)`, node: runner.path });
  else console.log(`(${runner.error}; measuring on this machine's Node only)`);
  if (!("path" in runner) || runner.path !== process.execPath)
    runtimes.push({ label: `Node ${process.version} (this machine's, reference)`, node: process.execPath });
  const results = [];
  for (const rt of runtimes) results.push({ rt, ...(await measure(rt)) });
  console.log("");
  for (const [i, r] of results.entries()) {
    const target = i === 0 && "path" in runner ? "(target <= 2x)" : "(reference)";
    console.log(`action cold start / node -e 0, ${r.rt.label}: ${ratio(r.action, r.baseline)} ${target}`);
  }
} finally {
  await emu.close();
  rmSync(probeDir, { recursive: true, force: true });
}
