// The machine's speed of the moment, for benchmarks on a shared VM: how long `node -e 0` takes, measured right
// beside the runs a target is judged on. The VM has slow phases that neither the load average nor the other
// processes' CPU shows: on 2026-11-26, with nothing else running, node -e 0 took ~27 or ~37 ms from one second
// to the next (24-26 ms at the quietest), so one probe after a whole round says little about each run in it.
import { spawnSync } from "node:child_process";
import { median } from "./provider-helpers.js";

/** Median ms of `node -e 0` (this Node) over `launches` launches. */
export function nodeStartMs(launches = 5): number {
  const times: number[] = [];
  for (let i = 0; i < launches; i++) {
    const t = process.hrtime.bigint();
    spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore" });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

/** node -e 0 just before and just after a timed run, ms. */
export interface Probe {
  before: number;
  after: number;
}

/** Runs `fn` between two probes of the machine's speed (3 launches each: ~0.1 s beside the run). */
export async function probed<T>(fn: () => Promise<T>): Promise<{ result: T; probe: Probe }> {
  const before = nodeStartMs(3);
  const result = await fn();
  return { result, probe: { before, after: nodeStartMs(3) } };
}

/** "25.1-26.3" for a table cell: node -e 0 before and after a run. */
export const probeText = (p: Probe): string => `${p.before.toFixed(1)}-${p.after.toFixed(1)}`;
