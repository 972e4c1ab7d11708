// The soak's service: the built `siteops emulator` in its own process on a SQLite file and a data dir that
// survive a `kill -9` and a restart on the same port, with the soak's fault profile applied (again after a
// restart, as a flaky proxy in front of the service would still be there) and its peak RSS sampled.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { writeSeed } from "../core-helpers.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/siteops.js");

/**
 * The mixed fault profile on every API call (uploads included): 10 % 503 before the handler, 5 % connection
 * reset after it committed (the answer is lost), 1 % body cut off after the head. 429 windows come from
 * FaultedService.faultsOn() (BURST_RULE). Rules are tried in order; a request gets at most one fault.
 */
export const FAULT_PROFILE: Record<string, unknown>[] = [
  { path: "/api/v1/**", status: 503, rate: 0.1, retry_after: 1 },
  { path: "/api/v1/**", phase: "after", reset_connection: true, rate: 0.05 / 0.9 },
  { path: "/api/v1/**", phase: "drop_body", rate: 0.01 / (0.9 * (1 - 0.05 / 0.9)) },
];

/** 429 bursts as a service's rate limit makes them: every API call of a BURST_MS window gets a 429 whose
 * Retry-After (seconds, rounded up) covers the window... */
export const BURST_MS = 2_000;
/** ...one window every this many ms. */
export const BURST_EVERY_MS = 10_000;
const BURST_RULE = { path: "/api/v1/**", status: 429, retry_after: Math.ceil(BURST_MS / 1000) };

/** Resident set size in bytes of a process (Linux /proc), 0 once it is gone. */
export function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Summed RSS of a process and all its descendants (terraform and its provider plugin, say). */
export function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while being read
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rssOf(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Polls `read` every `intervalMs` and keeps the peak. */
export function peakSampler(read: () => number, intervalMs = 100): { stop(): number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, read());
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export class FaultedService {
  #child!: ChildProcess;
  #port = 0;
  url = "";
  #bursts: NodeJS.Timeout | undefined;
  /** Faults struck so far (counted when the rules are cleared; those of a killed process are not known). */
  faultsStruck = 0;

  private constructor(
    readonly dir: string,
    readonly token: string,
  ) {}

  /** Starts the emulator on `dir`/soak.db and `dir`/data, seeded with one account owning TOKEN. */
  static async start(dir: string, token: string): Promise<FaultedService> {
    writeSeed(path.join(dir, "seed.json"), []);
    const service = new FaultedService(dir, token);
    await service.#spawn();
    return service;
  }

  get pid(): number {
    return this.#child.pid!;
  }

  async #spawn(): Promise<void> {
    const args = [
      BIN, "emulator", "--port", String(this.#port), "--db", path.join(this.dir, "soak.db"), "--data-dir", path.join(this.dir, "data"),
      "--seed", path.join(this.dir, "seed.json"), "--step-seconds", "0",
    ];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`siteops emulator exited (${code}) before it was ready`)));
    });
    child.stdout!.resume();
    this.#child = child;
    this.url = (JSON.parse(line) as { url: string }).url;
    this.#port = Number(new URL(this.url).port);
  }

  async control(method: string, route: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}/__emulator/${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${route}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** The fault profile on, and every BURST_EVERY_MS a window of BURST_MS in which every API call gets a 429. */
  async faultsOn(): Promise<void> {
    await this.faultsOff();
    await this.control("POST", "faults", { rules: FAULT_PROFILE });
    this.#bursts = setInterval(() => {
      this.#serial(() => this.control("POST", "faults", { rules: [BURST_RULE] }));
      setTimeout(() => {
        // The window ends: the profile alone again (unless the faults were turned off meanwhile).
        this.#serial(async () => {
          if (this.#bursts === undefined) return;
          await this.#clearFaults();
          await this.control("POST", "faults", { rules: FAULT_PROFILE });
        });
      }, BURST_MS);
    }, BURST_EVERY_MS);
  }

  /** Control calls of the burst timers, one after the other (and awaited by faultsOff). */
  #pending: Promise<unknown> = Promise.resolve();
  #serial(step: () => Promise<unknown>): void {
    this.#pending = this.#pending.then(step).catch(() => {});
  }

  async faultsOff(): Promise<void> {
    clearInterval(this.#bursts);
    this.#bursts = undefined;
    await this.#pending;
    await this.#clearFaults();
  }

  async #clearFaults(): Promise<void> {
    const { rules } = (await this.control("GET", "faults")) as { rules: { hits: number }[] };
    this.faultsStruck += rules.reduce((n, r) => n + r.hits, 0);
    await this.control("DELETE", "faults");
  }

  /** `kill -9`, then the same command on the same port, DB and data dir; the faults are set again. */
  async crashAndRestart(): Promise<void> {
    const faulted = this.#bursts !== undefined;
    const exited = new Promise((resolve) => this.#child.once("exit", resolve));
    this.#child.kill("SIGKILL");
    await exited;
    await this.#spawn();
    if (faulted) await this.faultsOn();
  }

  async stop(): Promise<void> {
    clearInterval(this.#bursts);
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once("exit", resolve));
    this.#child.kill("SIGTERM");
    await exited;
  }
}
