// System-wide CPU samples with Linux perf, for benchmarks that ask which process was on the CPU when: `perf record
// -a` at a fixed rate around a command, stamped with the monotonic clock (the clock of process.hrtime and of the
// provider's timestamps, bench/lib/provider-noop.ts), then read back with `perf script`. Needs perf on the PATH
// and the right to sample every CPU (root, or kernel.perf_event_paranoid <= 0).
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";

/** One sample: which thread was on a CPU at `ms` (monotonic clock), at which address of which object. */
export interface Sample {
  comm: string;
  pid: number;
  tid: number;
  ms: number;
  address: number;
  /** The executable or library, `[kernel.kallsyms]`, or `[unknown]`. */
  object: string;
}

export const SAMPLE_HZ = 4000;

/** Why perf cannot sample the whole machine here, or undefined when it can. */
export function perfUnavailable(): string | undefined {
  const probe = spawnSync("perf", ["record", "-a", "-q", "-F", "100", "-o", "/dev/null", "--", "true"], { encoding: "utf8" });
  if (probe.error) return "Linux perf is not on the PATH (Debian: apt-get install linux-perf)";
  if (probe.status !== 0) return `perf cannot sample every CPU here: ${probe.stderr.trim().split("\n")[0] ?? `exit ${probe.status}`}`;
  return undefined;
}

/** Samples every CPU while `run` runs; resolves to `run`'s result and the samples. */
export async function sampled<T>(file: string, run: () => Promise<T>): Promise<{ result: T; samples: Sample[] }> {
  const perf = spawn("perf", ["record", "-a", "-q", "-k", "CLOCK_MONOTONIC", "-F", String(SAMPLE_HZ), "-o", file], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  perf.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => perf.on("close", resolve));
  await new Promise((resolve) => setTimeout(resolve, 300)); // perf opens its per-CPU buffers before it samples
  let result: T;
  try {
    result = await run();
  } finally {
    perf.kill("SIGINT");
  }
  const code = await exited;
  if (code !== 0 && code !== null) throw new Error(`perf record exited ${code}: ${stderr.trim()}`);
  const script = spawnSync("perf", ["script", "-i", file, "-F", "comm,pid,tid,time,ip,dso"], { encoding: "utf8", maxBuffer: 1 << 28 });
  rmSync(file, { force: true });
  if (script.status !== 0) throw new Error(`perf script exited ${script.status}: ${script.stderr.trim()}`);
  const samples: Sample[] = [];
  for (const line of script.stdout.split("\n")) {
    const m = /^\s*(.+?)\s+(\d+)\/(\d+)\s+([\d.]+):\s+([0-9a-f]+)\s+\((.*)\)\s*$/.exec(line);
    if (m) samples.push({ comm: m[1]!, pid: Number(m[2]), tid: Number(m[3]), ms: Number(m[4]) * 1000, address: Number.parseInt(m[5]!, 16), object: m[6]! });
  }
  return { result: result!, samples };
}
