// The soak's emulator: a file-backed `siteops emulator` in its own process on a fixed port, so it can be killed
// with SIGKILL and started again on the same database, data directory and port; its fault profile; its RSS.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { rssOf, spawnReady, type ReadyChild } from "../lib/processes.js";

export const TOKEN = "sot_soakToken0000000000000001";
const ROOT = path.resolve(import.meta.dirname, "../..");

/** The mixed profile on every API path: 10 % 503 before the handler, 5 % connection resets after it
 * committed, 429 bursts (2 % of requests, Retry-After 1 s), 1 % answers cut mid-body. */
const FAULT_PROFILE = [
  { path: "/api/v1/**", status: 503, rate: 0.1, retry_after: 0 },
  { path: "/api/v1/**", phase: "after", reset_connection: true, rate: 0.05 },
  { path: "/api/v1/**", status: 429, rate: 0.02, retry_after: 1 },
  { path: "/api/v1/**", phase: "drop_body", rate: 0.01 },
];

export class SoakEmulator {
  readonly dir: string;
  #proc?: ReadyChild<{ url: string; port: number }>;
  #port = 0;
  #peakRss = 0;
  #timer?: NodeJS.Timeout;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(path.join(dir, "data"), { recursive: true });
    writeFileSync(
      path.join(dir, "seed.json"),
      JSON.stringify({
        accounts: [
          {
            name: "Soak",
            users: [{ email: "soak@example.test", password: "soak password 1", name: "Soak", role: "owner" }],
            api_tokens: [{ token: TOKEN, user_email: "soak@example.test" }],
            sites: [],
          },
        ],
      }),
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }
  get pid(): number {
    return this.#proc!.child.pid!;
  }
  get peakRss(): number {
    return this.#peakRss;
  }

  /** Starts (or starts again, on the same port and database) and waits for the ready line. */
  async start(): Promise<void> {
    this.#proc = await spawnReady<{ url: string; port: number }>(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(ROOT, "cli/main.ts"),
        "emulator",
        "--port",
        String(this.#port),
        "--seed",
        path.join(this.dir, "seed.json"),
        "--step-seconds",
        "0",
        "--db",
        path.join(this.dir, "soak.db"),
        "--data-dir",
        path.join(this.dir, "data"),
        "--login-throttle",
        "off",
      ],
      { ...process.env, NODE_ENV: "production" },
      ROOT,
    );
    this.#port = this.#proc.info.port;
    clearInterval(this.#timer);
    this.#timer = setInterval(() => {
      try {
        this.#peakRss = Math.max(this.#peakRss, rssOf(this.pid));
      } catch {
        // between a kill and the restart
      }
    }, 100);
  }

  /** SIGKILL: no shutdown, no flush, as a crash or an OOM kill. */
  kill(): void {
    this.#proc!.child.kill("SIGKILL");
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#proc?.stop();
  }

  async control(method: string, route: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}/__emulator/${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`control ${method} ${route}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : res.json();
  }

  #bursts?: NodeJS.Timeout;

  async faultsOn(): Promise<void> {
    await this.control("POST", "faults", { rules: FAULT_PROFILE });
    // SOAK_429_BURST=N: every 10 s (once the last burst is spent) the next N API calls get a 429 each with
    // Retry-After 1 s: a service that keeps refusing after the time it named. Off by default (see BENCHMARKS).
    const burst = Number(process.env.SOAK_429_BURST ?? 0);
    if (burst > 0) {
      this.#bursts = setInterval(() => {
        void (async () => {
          const { rules } = (await this.control("GET", "faults")) as { rules: { status?: number; remaining: number | null }[] };
          if (rules.some((r, i) => i >= FAULT_PROFILE.length && (r.remaining ?? 0) > 0)) return;
          await this.control("POST", "faults", { rules: [{ path: "/api/v1/**", status: 429, count: burst, retry_after: 1 }] });
        })().catch(() => {});
      }, 10_000);
    }
  }
  /** How often each rule of FAULT_PROFILE struck, over every faultsOn()..faultsOff() of the run. */
  readonly struck = FAULT_PROFILE.map(() => 0);

  async faultsOff(): Promise<void> {
    clearInterval(this.#bursts);
    const { rules } = (await this.control("GET", "faults")) as { rules: { hits: number; status?: number; phase?: string; reset_connection?: boolean }[] };
    const kind = (r: { status?: number; phase?: string; reset_connection?: boolean }) => `${r.status}/${r.phase ?? "before"}/${!!r.reset_connection}`;
    const index = new Map(FAULT_PROFILE.map((r, i) => [kind(r), i]));
    for (const rule of rules) this.struck[index.get(kind(rule))!]! += rule.hits; // a burst counts with the 429s
    await this.control("DELETE", "faults");
  }
}
