// The emulator's site-create path: 1,000 (SITEOPS_BENCH_CREATES) `so.sites.create` calls through the API core (each with its
// Idempotency-Key, as the core sends on every POST), one at a time, and the emulator's CPU per create in
// blocks of 100 (the last block against the first shows whether a create's cost grows with the store).
// With SITEOPS_BENCH_BEFORE=<a checkout of an earlier commit, with node_modules> the same load runs against that
// checkout's emulator too, block by block interleaved with this one's: before/after in one run.
// Run: npm run bench -- emulator-create   (before/after: see BENCHMARKS.md, "Emulator: the site-create path")
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { SiteOps } from "../src/index.js";
import { spawnEmulator, table, TOKEN, type BenchEmulator } from "./lib/core-helpers.js";
import { ratio } from "./lib/processes.js";

/** SITEOPS_BENCH_CREATES overrides the count (a multiple of 100). */
const SITES = Number(process.env.SITEOPS_BENCH_CREATES ?? 1_000);
const BLOCK = 100;

/** CPU time (user + system) of a process in ms, from /proc (10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Target {
  label: string;
  emulator: BenchEmulator;
  so: SiteOps;
  cpu: number[];
  wall: number[];
}

const targets: Target[] = [];
for (const [label, root] of [
  ["this tree", undefined],
  ["before", process.env.SITEOPS_BENCH_BEFORE],
] as const) {
  if (label === "before" && !root) continue;
  const emulator = await spawnEmulator([], { root });
  targets.push({ label, emulator, so: new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN }), cpu: [], wall: [] });
}
console.log(
  `machine load (1/5/15 min): ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")}\n`,
);

try {
  for (let b = 0; b < SITES / BLOCK; b++) {
    for (const t of targets) {
      const cpu0 = cpuMs(t.emulator.pid);
      const t0 = performance.now();
      for (let i = b * BLOCK; i < (b + 1) * BLOCK; i++) await t.so.sites.create({ name: `Site ${i}`, url: `https://site-${i}.create.test` });
      t.wall.push(performance.now() - t0);
      t.cpu.push(cpuMs(t.emulator.pid) - cpu0);
    }
  }
  const sum = (xs: number[]): number => xs.reduce((a, x) => a + x, 0);
  console.log(
    table(
      ["emulator", "wall ms / create", "emulator CPU ms / create", "CPU first 100", "CPU last 100", "last / first"],
      targets.map((t) => [
        t.label,
        (sum(t.wall) / SITES).toFixed(2),
        (sum(t.cpu) / SITES).toFixed(2),
        (t.cpu[0]! / BLOCK).toFixed(2),
        (t.cpu.at(-1)! / BLOCK).toFixed(2),
        ratio(t.cpu.at(-1)!, t.cpu[0]!),
      ]),
    ),
  );
  if (targets.length === 2) {
    const [now, before] = targets as [Target, Target];
    console.log(`\nthis tree / before: wall ${ratio(sum(now.wall), sum(before.wall))}, emulator CPU ${ratio(sum(now.cpu), sum(before.cpu))}`);
  }
} finally {
  await Promise.all(targets.map((t) => t.emulator.close()));
}
