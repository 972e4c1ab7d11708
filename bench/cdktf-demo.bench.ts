// `npm run demo` end to end (target: under a minute here). Runs the demo 3 times as a user would (no TTY) and
// splits its time by phase from the demo's own timestamps; the baseline is the one-minute budget, and the
// terraform phases are shown beside the rest so the demo's own overhead is visible.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./lib/processes.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUDGET_MS = 60_000;
const ROUNDS = 3;

function runDemo(): Promise<{ wallMs: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [path.join(ROOT, "scripts/demo.mjs")], {
      cwd: ROOT,
      env: { ...process.env, SITEOPS_DEMO_PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve({ wallMs: performance.now() - start, stdout }) : reject(new Error(`demo exited ${code}`))));
  });
}

/** Seconds printed on the first line matching `pattern` ("[12.3s] ..."). */
function at(stdout: string, pattern: RegExp): number {
  const line = stdout.split("\n").find((l) => pattern.test(l));
  const s = line && /^\[\s*([\d.]+)s\]/.exec(line)?.[1];
  if (!s) throw new Error(`no timestamped line matches ${pattern}`);
  return Number(s) * 1000;
}

const rounds: Record<string, number>[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const { wallMs, stdout } = await runDemo();
  const emulator = at(stdout, /emulator at /);
  const apply = at(stdout, /terraform apply: 5 added/);
  const update = at(stdout, /terraform apply: 0 added, 1 changed/);
  const pipeline = at(stdout, /\]\s+succeeded \(/);
  const destroy = at(stdout, /terraform destroy:/);
  const done = at(stdout, /Done\./);
  rounds.push({
    "start-up (provider bundle, module load, emulator)": emulator,
    "synth + terraform init + apply (5 resources)": apply - emulator,
    "re-synth + terraform apply (1 in-place update)": update - apply,
    "terraform output + snapshot upload + pipeline open/approve": pipeline - update,
    "summary + terraform destroy": destroy - pipeline,
    cleanup: done - destroy,
    "total (wall, incl. node start and exit)": wallMs,
  });
  console.error(`round ${i + 1}: ${(wallMs / 1000).toFixed(1)} s`);
}

console.log(`npm run demo, ${ROUNDS} rounds, median per phase (the demo's emulator runs 1 s per pipeline step)\n`);
console.log("| phase | median ms | share of the 60 s budget |");
console.log("| --- | --- | --- |");
for (const phase of Object.keys(rounds[0]!)) {
  const ms = median(rounds.map((r) => r[phase]!));
  console.log(`| ${phase} | ${Math.round(ms)} | ${(ms / BUDGET_MS).toFixed(2)}x |`);
}
