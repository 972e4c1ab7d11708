// Shared by the API core benchmarks: an emulator in its own process (so it does not share this event loop
// or this RSS), a seeded token, and a tiny markdown table printer.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { rssOf } from "./lib/processes.js";
import { tmpdir } from "node:os";
import path from "node:path";

export const TOKEN = "sot_benchToken00000000000001";

export interface BenchEmulator {
  url: string;
  dir: string;
  /** Resident set size of the emulator process in bytes (Linux /proc). */
  rss(): number;
  /** The emulator's process id. */
  pid: number;
  close(): Promise<void>;
}

export async function spawnEmulator(
  sites: { name: string; url: string }[] = [{ name: "Bench", url: "https://bench.example" }],
  options: { /** A SQLite file (WAL) in the temp dir instead of :memory:. */ dbFile?: boolean } = {},
): Promise<BenchEmulator> {
  const dir = mkdtempSync(path.join(tmpdir(), "siteops-core-bench-"));
  const seedFile = path.join(dir, "seed.json");
  writeFileSync(
    seedFile,
    JSON.stringify({
      accounts: [
        {
          name: "Bench",
          users: [{ email: "bench@example.test", password: "bench password 1", name: "Bench", role: "owner" }],
          api_tokens: [{ token: TOKEN, user_email: "bench@example.test" }],
          sites,
        },
      ],
    }),
  );
  const root = path.resolve(import.meta.dirname, "..");
  const child = spawn(
    process.execPath,
    [
      "--import", "tsx", path.join(root, "src/cli/main.ts"), "emulator", "--port", "0", "--seed", seedFile, "--step-seconds", "0",
      "--data-dir", path.join(dir, "data"), ...(options.dbFile ? ["--db", path.join(dir, "bench.db")] : []),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NODE_ENV: "production" } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line && out.includes("\n")) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  return {
    url,
    dir,
    rss: () => rssOf(child.pid!),
    pid: child.pid!,
    async close() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Samples this process's RSS every few ms until stopped; returns the peak in bytes. */
export function rssSampler(intervalMs = 5): { stop(): number; sample(): void } {
  let peak = process.memoryUsage.rss();
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, intervalMs);
  return {
    sample,
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
