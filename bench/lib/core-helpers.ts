// Shared by the API core benchmarks: an emulator in its own process (so it does not share this event loop
// or this RSS), a seeded token, and a tiny markdown table printer.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnReady } from "./processes.js";

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
  options: {
    /** A SQLite file (WAL) in the temp dir instead of :memory:. */
    dbFile?: boolean;
    /** More `siteops emulator` flags, e.g. ["--rate-limit", "100/5"]. */
    args?: string[];
    /** A checkout whose emulator runs instead of this one's (an earlier commit, for before/after in one run). */
    root?: string;
    /** The seed's `generate` shorthand: a fleet on top of `sites`. */
    generate?: { sites: number; snapshots_per_site?: number };
  } = {},
): Promise<BenchEmulator> {
  const dir = mkdtempSync(path.join(tmpdir(), "siteops-core-bench-"));
  const seedFile = path.join(dir, "seed.json");
  writeSeed(seedFile, sites, options.generate);
  const root = options.root ?? path.resolve(import.meta.dirname, "../..");
  const emulator = await spawnReady<{ url: string }>(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(root, "cli/main.ts"),
      "emulator",
      "--port",
      "0",
      "--seed",
      seedFile,
      "--step-seconds",
      "0",
      "--data-dir",
      path.join(dir, "data"),
      ...(options.dbFile ? ["--db", path.join(dir, "bench.db")] : []),
      ...(options.args ?? []),
    ],
    { ...process.env, NODE_ENV: "production" },
    root,
  );
  return {
    url: emulator.info.url,
    dir,
    rss: emulator.rss,
    pid: emulator.child.pid!,
    async close() {
      await emulator.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A seed file (`siteops emulator --seed`) of one account owning `sites`, with the owner's API token TOKEN. */
export function writeSeed(file: string, sites: { name: string; url: string }[], generate?: { sites: number; snapshots_per_site?: number }): void {
  writeFileSync(
    file,
    JSON.stringify({
      accounts: [
        {
          name: "Bench",
          users: [{ email: "bench@example.test", password: "bench password 1", name: "Bench", role: "owner" }],
          api_tokens: [{ token: TOKEN, user_email: "bench@example.test" }],
          sites,
        },
      ],
      ...(generate ? { generate } : {}),
    }),
  );
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
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
