// The emulator from anywhere, for a user of the installed package: `npx -p siteops -p <peers...> siteops
// emulator --demo` (the command the README gives and the missing-peers line implies), timed from the command
// to the JSON start-up line. Cold: a fresh npm cache, so every package comes from the registry (none has a
// native part to build: the emulator's SQLite is Node's node:sqlite). Warm: the same cache again. Baseline, in the same run: the copy npx installed, started directly
// (`node .../node_modules/siteops/bin/siteops.js emulator --demo`, as from a project with the peers installed).
//   npm run bench -- emulator-npx      (needs dist/: npm run build; about 1.5 minutes, most of it the cold run)
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { table } from "./lib/core-helpers.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WARM_RUNS = 5;
const peers = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).peerDependencies as Record<string, string>;
const EMULATOR_PEERS = ["fastify", "@fastify/type-provider-typebox", "jose", "otplib", "typebox"].map((p) => `${p}@${peers[p]}`);

/** Seconds from spawning `cmd` to its first stdout line; the whole process group is stopped then. */
function timeToStartLine(cmd: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      if (!out.includes("\n")) return;
      const seconds = (performance.now() - t0) / 1000;
      process.kill(-child.pid!, "SIGTERM");
      resolve(seconds);
    });
    child.on("close", (code) => (out.includes("\n") ? undefined : reject(new Error(`${cmd} exited ${code}:\n${err}`))));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(path.join(tmpdir(), "siteops-bench-npx-"));
try {
  const packed = spawnSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" });
  if (packed.status !== 0) throw new Error(`npm pack failed (run npm run build first): ${packed.stderr}`);
  const tarball = path.join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  const cache = path.join(dir, "npm-cache");
  const npx = ["--cache", cache, "-y", "-p", tarball, ...EMULATOR_PEERS.flatMap((p) => ["-p", p]), "siteops", "emulator", "--demo", "--port", "0"];

  const cold = await timeToStartLine("npx", npx, dir);
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push(await timeToStartLine("npx", npx, dir));

  // Baseline: the same installed copy npx made, started directly (what a project with the peers installed runs).
  const npxDir = path.join(cache, "_npx");
  const installed = readdirSync(npxDir)
    .map((d) => path.join(npxDir, d, "node_modules/siteops/bin/siteops.js"))
    .find((f) => existsSync(f));
  if (!installed) throw new Error(`no siteops under ${npxDir}`);
  const local: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) local.push(await timeToStartLine(process.execPath, [installed, "emulator", "--demo", "--port", "0"], dir));

  const base = median(local);
  console.log(
    table(
      ["run", "seconds to the start-up line", "vs installed"],
      [
        ["installed (baseline, median)", base.toFixed(2), "1.00x"],
        ["npx, warm cache (median)", median(warm).toFixed(2), `${(median(warm) / base).toFixed(2)}x`],
        ["npx, cold cache", cold.toFixed(2), `${(cold / base).toFixed(2)}x`],
      ],
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
