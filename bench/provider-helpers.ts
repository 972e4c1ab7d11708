// Helpers for the provider benchmarks: a built provider in a filesystem mirror, a terraform working dir
// with its own CLI config, and peak RSS of the provider processes terraform starts.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const ROOT = path.resolve(import.meta.dirname, "..");

export interface BuiltProvider {
  dir: string;
  launcher: string;
  version: string;
}

export async function buildProvider(outDir: string): Promise<BuiltProvider> {
  const mod = (await import(pathToFileURL(path.join(ROOT, "scripts/build-provider.mjs")).href)) as {
    default(o: { root: string; outDir: string; quiet: boolean }): Promise<{ launcher: string; version: string }>;
  };
  const { launcher, version } = await mod.default({ root: ROOT, outDir, quiet: true });
  return { dir: outDir, launcher, version };
}

export class Workspace {
  readonly home: string;
  readonly cliConfig: string;

  constructor(provider: BuiltProvider) {
    this.home = mkdtempSync(path.join(tmpdir(), "siteops-provider-bench-"));
    const pkg = path.join(this.home, "mirror/registry.terraform.io/siteops/siteops", provider.version, "linux_amd64");
    mkdirSync(pkg, { recursive: true });
    cpSync(provider.dir, pkg, { recursive: true });
    this.cliConfig = path.join(this.home, "cli.tfrc");
    writeFileSync(
      this.cliConfig,
      `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(path.join(this.home, "mirror"))}
    include = ["registry.terraform.io/siteops/siteops"]
  }
  direct {
    exclude = ["registry.terraform.io/siteops/siteops"]
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
  terraform(cwd: string, args: string[], onTick?: () => void): Promise<number> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn("terraform", args, {
        cwd,
        env: { ...process.env, TF_CLI_CONFIG_FILE: this.cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const tick = onTick ? setInterval(onTick, 10) : undefined;
      child.on("close", (code) => {
        if (tick) clearInterval(tick);
        const ms = performance.now() - started;
        if (code === 0 || (code === 2 && args.includes("-detailed-exitcode"))) resolve(ms);
        else reject(new Error(`terraform ${args.join(" ")} exited ${code}: ${stderr}`));
      });
    });
  }

  close(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** Largest VmHWM (peak RSS) seen among running processes whose command line contains `needle`. */
export function peakRssSampler(needle: string): { sample(): void; peak(): number } {
  let peak = 0;
  return {
    sample() {
      for (const pid of readdirSync("/proc")) {
        if (!/^\d+$/.test(pid)) continue;
        try {
          if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(needle)) continue;
          const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
          peak = Math.max(peak, kb * 1024);
        } catch {
          // the process ended between listing and reading
        }
      }
    },
    peak: () => peak,
  };
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const table = (headers: string[], rows: (string | number)[][]): string =>
  [headers, headers.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
