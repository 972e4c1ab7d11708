// Helpers for the provider benchmarks: a built provider in a filesystem mirror, a terraform working dir
// with its own CLI config, and one measured terraform run: wall time, CPU of Terraform, of each provider
// process and of the emulator, peak RSS, and the CPU the rest of the machine used meanwhile.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** HCL: required_providers and the provider block for the bench token (`type`: siteops, or the Go peer's). */
export const providerHcl = (url: string, token: string, type = "siteops"): string => `terraform {
  required_providers {
    ${type} = { source = "siteops/${type}" }
  }
}

provider "${type}" {
  base_url  = "${url}"
  api_token = "${token}"
}
`;
/**
 * HCL: `n` resources of a siteops site type (siteops_site or siteops_noop), with unique names and URLs, and
 * deletion_protection off (the benches destroy them) unless `protectable` is false: for a provider built from a tree
 * before the attribute existed (BENCH_BEFORE with BENCH_BEFORE_UNPROTECTED=1), which does not know it.
 */
export const sitesHcl = (type: string, n: number, prefix: string, protectable = true): string => `
resource "${type}" "s" {
  count = ${n}
  name  = "${prefix} \${count.index}"
  url   = "https://${prefix}-\${count.index}.bench.example"
${protectable ? "  deletion_protection = false\n" : ""}}
`;
/** HCL: `n` terraform_data, the in-process baseline. */
export const dataHcl = (n: number): string => `
resource "terraform_data" "s" {
  count = ${n}
  input = "item \${count.index}"
}
`;

export interface BuiltProvider {
  dir: string;
  launcher: string;
  version: string;
}

/**
 * Builds the provider; `bench` adds siteops_noop (bench/lib/provider-noop.ts), `minify: false` keeps names for
 * profiles, `root` builds another checkout's provider with its own build script (a before/after in one run).
 */
export async function buildProvider(outDir: string, options: { bench?: boolean; minify?: boolean; root?: string } = {}): Promise<BuiltProvider> {
  const root = options.root ?? ROOT;
  const mod = (await import(pathToFileURL(path.join(root, "scripts/build-provider.mjs")).href)) as {
    default(o: { root: string; outDir: string; quiet: boolean; serveEntry?: string; minify?: boolean }): Promise<{ launcher: string; version: string }>;
  };
  const { launcher, version } = await mod.default({
    root,
    outDir,
    quiet: true,
    ...(options.bench ? { serveEntry: path.join(root, "bench/lib/provider-noop.ts") } : {}),
    ...(options.minify === false ? { minify: false } : {}),
  });
  return { dir: outDir, launcher, version };
}

/** One provider process, as bench/lib/provider-noop.ts records it on exit. */
export interface ProviderProcess {
  pid: number;
  cpuMs: number;
  /** CPU time when the RPC server was ready: the process's start-up. */
  readyCpuMs: number;
  /** Its lifetime, ms (process.uptime() on exit). */
  wallMs: number;
  /** Start (from process.uptime(): Node's own clock start, just after exec), RPC server ready, and exit: ms on the monotonic clock. */
  startMs: number;
  readyMs: number;
  exitMs: number;
  maxRssKb: number;
  rpcs: Record<string, { calls: number; wallMs: number }>;
}

export interface Run {
  /** Terraform's exit code (0, or 2 for a plan with -detailed-exitcode that has changes). */
  exitCode: number;
  wallMs: number;
  /** When terraform was spawned and when it exited, ms on the monotonic clock (as ProviderProcess's). */
  startMs: number;
  endMs: number;
  /** Terraform's own CPU (its process, without the providers it ran). */
  terraformCpuMs: number;
  terraformPeakRssKb: number;
  providers: ProviderProcess[];
  emulatorCpuMs: number;
  /** CPU used on the machine by everything else during the run (other users' work). */
  otherCpuMs: number;
}

export interface RunOptions {
  /** Extra environment for terraform (and so for the providers it starts). */
  env?: Record<string, string>;
  /** The emulator's process, whose CPU is counted. */
  emulatorPid?: number;
}

/** Another provider in the workspace's mirror, as `siteops/<type>` (the Go peer: bench/lib/go-peer.ts). */
export interface OtherProvider {
  dir: string;
  type: string;
  version: string;
}

export class Workspace {
  readonly home: string;
  readonly cliConfig: string;

  constructor(provider: BuiltProvider, others: OtherProvider[] = []) {
    this.home = mkdtempSync(path.join(tmpdir(), "siteops-provider-bench-"));
    const sources: string[] = [];
    for (const p of [{ ...provider, type: "siteops" }, ...others]) {
      const source = `registry.terraform.io/siteops/${p.type}`;
      const pkg = path.join(this.home, "mirror", source, p.version, "linux_amd64");
      mkdirSync(pkg, { recursive: true });
      cpSync(p.dir, pkg, { recursive: true });
      sources.push(JSON.stringify(source));
    }
    this.cliConfig = path.join(this.home, "cli.tfrc");
    writeFileSync(
      this.cliConfig,
      `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(path.join(this.home, "mirror"))}
    include = [${sources.join(", ")}]
  }
  direct {
    exclude = [${sources.join(", ")}]
  }
}
`,
    );
  }

  dir(name: string, files: Record<string, string>): string {
    const d = path.join(this.home, name);
    mkdirSync(d, { recursive: true });
    for (const [f, text] of Object.entries(files)) writeFileSync(path.join(d, f), text);
    return d;
  }

  /** Runs terraform in `cwd`; resolves to wall-clock ms, throwing on a non-zero exit. */
  async terraform(cwd: string, args: string[], options: RunOptions = {}): Promise<number> {
    return (await this.measure(cwd, args, options)).wallMs;
  }

  /**
   * Runs terraform in `cwd` and measures it. Terraform runs under `sh`, whose `times` reports the CPU of
   * terraform and every provider it waited for; the providers' own CPU comes from their stats lines.
   */
  async measure(cwd: string, args: string[], options: RunOptions = {}): Promise<Run> {
    const stats = path.join(this.home, `stats-${process.hrtime.bigint()}.jsonl`);
    const machine = machineCpuMs();
    const emulator = options.emulatorPid ? processCpuMs(options.emulatorPid) : 0;
    const started = performance.now();
    const startMs = Number(process.hrtime.bigint()) / 1e6;
    const { childrenCpuMs, peakRssKb, exitCode } = await new Promise<{ childrenCpuMs: number; peakRssKb: number; exitCode: number }>((resolve, reject) => {
      const child = spawn("sh", ["-c", 'terraform "$@"; rc=$?; times >&2; exit $rc', "sh", ...args], {
        cwd,
        env: { ...process.env, TF_CLI_CONFIG_FILE: this.cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", SITEOPS_BENCH_STATS: stats, ...options.env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      let peak = 0;
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const tick = setInterval(() => (peak = Math.max(peak, childPeakRssKb(child.pid!))), 20);
      child.on("close", (code) => {
        clearInterval(tick);
        const lines = stderr.trimEnd().split("\n");
        const children = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s/.exec(lines.at(-1) ?? "");
        if (!(code === 0 || (code === 2 && args.includes("-detailed-exitcode"))) || !children) {
          reject(new Error(`terraform ${args.join(" ")} exited ${code}: ${stderr}`));
          return;
        }
        const [, um, us, sm, ss] = children.map(Number) as number[];
        resolve({ childrenCpuMs: (um! * 60 + us! + sm! * 60 + ss!) * 1000, peakRssKb: peak, exitCode: code });
      });
    });
    const wallMs = performance.now() - started;
    const endMs = Number(process.hrtime.bigint()) / 1e6;
    const providers = existsSync(stats)
      ? readFileSync(stats, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as ProviderProcess)
      : [];
    rmSync(stats, { force: true });
    const providerCpu = providers.reduce((t, p) => t + p.cpuMs, 0);
    const emulatorCpuMs = options.emulatorPid ? processCpuMs(options.emulatorPid) - emulator : 0;
    const machineBusy = machineCpuMs() - machine;
    return {
      exitCode,
      wallMs,
      startMs,
      endMs,
      terraformCpuMs: childrenCpuMs - providerCpu,
      terraformPeakRssKb: peakRssKb,
      providers,
      emulatorCpuMs,
      otherCpuMs: Math.max(0, machineBusy - childrenCpuMs - emulatorCpuMs),
    };
  }

  close(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** CPU time of a process and all its threads, ms (/proc schedstat: nanoseconds on a CPU). */
export function processCpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return ns / 1e6;
}

/** Busy CPU time of the whole machine, ms (/proc/stat, all cores; steal counted as busy elsewhere). */
function machineCpuMs(): number {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / 100; // USER_HZ is 100 on Linux
}

/** Peak RSS (VmHWM, KiB) of the direct children of `pid` (terraform under its `sh`). */
function childPeakRssKb(pid: number): number {
  let peak = 0;
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child}/status`, "utf8"))?.[1] ?? 0));
    }
  } catch {
    // the process ended between listing and reading
  }
  return peak;
}

/**
 * The order of round `r` of an interleaved benchmark: every contender once, starting one further along the list
 * than the round before, and walking the list backwards in odd rounds, so that each contender follows each
 * other one about as often as it precedes it. Always forwards, "siteops_site before" (provider-terraform's
 * BENCH_BEFORE) always ran right after siteops_site and came out 0.85x-0.88x of it whichever tree was which.
 */
export function roundOrder<T>(list: readonly T[], r: number): T[] {
  const n = list.length;
  return Array.from({ length: n }, (_, i) => list[(((r % 2 ? r - i : r + i) % n) + n) % n]!);
}

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
export const table = (headers: string[], rows: (string | number)[][]): string =>
  [headers, headers.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
/** "1.23 (1.10-1.40)": median and range of a series, scaled. */
export const spread = (values: number[], scale = 1, digits = 2): string =>
  `${(median(values) / scale).toFixed(digits)} (${(Math.min(...values) / scale).toFixed(digits)}-${(Math.max(...values) / scale).toFixed(digits)})`;
