// Helpers for benchmarks: child processes that print a JSON line when ready, their RSS, and the figures.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

export interface ReadyChild<T> {
  child: ChildProcess;
  info: T;
  /** Resident set size of the child in bytes (Linux /proc). */
  rss(): number;
  stop(): Promise<void>;
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Spawn a process and wait for the first stdout line, parsed as JSON. */
export async function spawnReady<T>(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<ReadyChild<T>> {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"], env, cwd });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${cmd} exited (${code}) before it was ready`)));
  });
  return {
    child,
    info: JSON.parse(line) as T,
    rss: () => rssOf(child.pid!),
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    },
  };
}

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
