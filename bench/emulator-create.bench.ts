// The emulator's site-create path: 1,000 (SITEOPS_BENCH_CREATES) `so.sites.create` calls through the API core (each with its
// Idempotency-Key, as the core sends on every POST), one at a time, and the emulator's CPU per create in
// blocks of 100 (the last block against the first shows whether a create's cost grows with the store).
// With SITEOPS_BENCH_BEFORE=<a checkout of an earlier commit, with node_modules> the same load runs against that
// checkout's emulator too, block by block interleaved with this one's (the order turning each block): before/after
// in one run. A comma-separated list of checkouts (the commits of a series of steps) runs them all side by side.
// Run: npm run bench -- emulator-create   (before/after: see BENCHMARKS.md, "Emulator: the site-create path")
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { SiteOps } from "../src/index.js";
import { spawnEmulator, table, TOKEN, type BenchEmulator } from "./lib/core-helpers.js";
import { ratio } from "./lib/processes.js";

/** SITEOPS_BENCH_CREATES overrides the count (a multiple of 100). */
const SITES = Number(process.env.SITEOPS_BENCH_CREATES ?? 1_000);
const BLOCK = 100;

/** CPU time of a process in ms, from /proc/<pid>/schedstat (ns; /proc/<pid>/stat counts 10 ms ticks, too coarse for a block). */
function cpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
}

interface Target {
  label: string;
  emulator: BenchEmulator;
  so: SiteOps;
  cpu: number[];
  wall: number[];
}

const befores = (process.env.SITEOPS_BENCH_BEFORE ?? "").split(",").filter(Boolean);
const targets: Target[] = [];
for (const [label, root] of [["this tree", undefined], ...befores.map((r) => [befores.length === 1 ? "before" : r, r] as const)] as const) {
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
    for (const t of b % 2 ? [...targets].reverse() : targets) {
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
  const [now, ...others] = targets as [Target, ...Target[]];
  for (const before of others) {
    console.log(
      `${before === others[0] ? "\n" : ""}this tree / ${before.label}: wall ${ratio(sum(now.wall), sum(before.wall))}, emulator CPU ${ratio(sum(now.cpu), sum(before.cpu))}`,
    );
  }
} finally {
  await Promise.all(targets.map((t) => t.emulator.close()));
}
