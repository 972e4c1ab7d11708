// The client's two HTTP stacks, `transport: "undici"` (default) and `"node:http"`, side by side against the
// emulator (its own process):
//   (a) a fresh process, as the Terraform provider's apply process: it loads the API client bundle the provider
//       loads (dist/provider/siteops-client.cjs, built here the same way) and makes 200 sites.create calls, 10 at
//       a time. Its CPU to load the bundle, its CPU for the requests (client made, 200 answered, closed), the whole
//       process's CPU at the end (Node's own start-up included), and the wall time from the process's start to
//       the first answer. Each with V8's compile cache warm (as the provider runs: module.enableCompileCache)
//       and without it.
//   (b) a warm client in this process: N sites.get calls, 10 at a time, after a warm-up: requests/s and CPU
//       per request (this process's CPU; the emulator's is its own).
// Contenders interleaved in an order that rotates each round; medians with the min-max range; the machine's
// load average around each part. Run: npm run bench -- core-transport (BENCH_ROUNDS, BENCH_REQUESTS).
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SiteOps, type HttpTransport } from "../src/index.js";
import { spawnEmulator, TOKEN } from "./lib/core-helpers.js";
import { median, ROOT, spread, table } from "./lib/provider-helpers.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const CREATES = 200;
const CONCURRENCY = 10;
const TRANSPORTS: HttpTransport[] = ["undici", "node:http"];

const emulator = await spawnEmulator();
const dir = emulator.dir;
const { bundleProvider, CLIENT_NAME } = (await import(pathToFileURL(path.join(ROOT, "scripts/build-provider.mjs")).href)) as {
  bundleProvider(o: { root: string; outDir: string }): Promise<unknown>;
  CLIENT_NAME: string;
};
await bundleProvider({ root: ROOT, outDir: path.join(dir, "provider") });
const clientBundle = path.join(dir, "provider", CLIENT_NAME);
const compileCache = path.join(dir, "compile-cache");
mkdirSync(compileCache);

/** The fresh process of part (a): one JSON line on stdout. */
const CHILD = `"use strict";
const [bundle, baseUrl, token, transport, cacheDir, prefix] = process.argv.slice(2);
if (cacheDir) require("node:module").enableCompileCache(cacheDir);
const cpuMs = (since) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };
const c0 = process.cpuUsage();
const { SiteOps, mapPool } = require(bundle);
const loadCpuMs = cpuMs(c0);
(async () => {
  const c1 = process.cpuUsage();
  const started = process.hrtime.bigint();
  let first;
  const so = new SiteOps({ baseUrl, apiToken: token, transport });
  const items = Array.from({ length: ${CREATES} }, (_, i) => i);
  await mapPool(items, ${CONCURRENCY}, async (i) => {
    await so.sites.create({ name: prefix + " " + i, url: "https://" + prefix + "-" + i + ".bench.example" });
    first ??= process.hrtime.bigint();
  });
  await so.close();
  const requestsCpuMs = cpuMs(c1);
  const ended = process.hrtime.bigint();
  // performance.now() is ms since the process started; read only now (it loads node:perf_hooks).
  const firstSinceStartMs = performance.now() - Number(ended - first) / 1e6;
  console.log(JSON.stringify({ loadCpuMs, requestsCpuMs, processCpuMs: cpuMs(), firstSinceStartMs, requestsWallMs: Number(ended - started) / 1e6 }));
})().catch((err) => { console.error(err); process.exit(1); });
`;
const childFile = path.join(dir, "fresh-process.cjs");
writeFileSync(childFile, CHILD);

interface Fresh {
  loadCpuMs: number;
  requestsCpuMs: number;
  processCpuMs: number;
  firstSinceStartMs: number;
  requestsWallMs: number;
}

let runs = 0;
function fresh(transport: HttpTransport, cached: boolean): Promise<Fresh> {
  const prefix = `r${++runs}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childFile, clientBundle, emulator.url, TOKEN, transport, cached ? compileCache : "", prefix], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as Fresh) : reject(new Error(`fresh process (${transport}) exited ${code}`))));
  });
}

/** `count` sites.get calls, CONCURRENCY at a time: requests/s and this process's CPU µs per request. */
async function warm(so: SiteOps, siteId: string, count: number): Promise<{ rps: number; cpuUs: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) await so.sites.get(siteId);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rps: count / seconds, cpuUs: (used.user + used.system) / count };
}

const load = () => loadavg()[0]!.toFixed(2);
try {
  // (a) fresh processes
  const contenders = TRANSPORTS.flatMap((transport) =>
    [true, false].map((cached) => ({ transport, cached, name: `${transport}${cached ? "" : ", no compile cache"}` })),
  );
  for (const c of contenders) await fresh(c.transport, c.cached); // untimed: fills the compile cache, warms the emulator
  const freshRuns = new Map<string, Fresh[]>(contenders.map((c) => [c.name, []]));
  const freshLoads = [load()];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(round + i) % contenders.length]!;
      freshRuns.get(c.name)!.push(await fresh(c.transport, c.cached));
    }
    freshLoads.push(load());
  }

  // (b) warm clients in this process
  const clients = new Map(TRANSPORTS.map((transport) => [transport, new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN, transport, maxRetries: 0 })]));
  const siteId = (await clients.get("undici")!.sites.list()).data[0]!.id;
  for (const so of clients.values()) await warm(so, siteId, 2000);
  const warmRuns = new Map<HttpTransport, { rps: number; cpuUs: number }[]>(TRANSPORTS.map((t) => [t, []]));
  const warmLoads = [load()];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < TRANSPORTS.length; i++) {
      const transport = TRANSPORTS[(round + i) % TRANSPORTS.length]!;
      warmRuns.get(transport)!.push(await warm(clients.get(transport)!, siteId, REQUESTS));
    }
    warmLoads.push(load());
  }
  for (const so of clients.values()) await so.close();

  console.log(
    `(a) a fresh process loads the provider's client bundle and makes ${CREATES} sites.create, ${CONCURRENCY} at a time; ` +
      `median (min-max) of ${ROUNDS} rounds; load average (1 min) over the rounds: ${freshLoads.join(" ")}\n`,
  );
  const base = median(freshRuns.get("undici")!.map((r) => r.loadCpuMs + r.requestsCpuMs));
  console.log(
    table(
      [
        "transport",
        "load CPU ms",
        "requests CPU ms",
        "load + requests CPU ms",
        "vs undici",
        "process CPU ms",
        "first answer ms after start",
        "200 creates wall ms",
      ],
      contenders.map(({ name }) => {
        const r = freshRuns.get(name)!;
        const both = r.map((x) => x.loadCpuMs + x.requestsCpuMs);
        return [
          name,
          spread(
            r.map((x) => x.loadCpuMs),
            1,
            1,
          ),
          spread(
            r.map((x) => x.requestsCpuMs),
            1,
            1,
          ),
          spread(both, 1, 1),
          `${(median(both) / base).toFixed(2)}x`,
          spread(
            r.map((x) => x.processCpuMs),
            1,
            1,
          ),
          spread(
            r.map((x) => x.firstSinceStartMs),
            1,
            1,
          ),
          spread(
            r.map((x) => x.requestsWallMs),
            1,
            0,
          ),
        ];
      }),
    ),
  );
  console.log(
    `\n(b) a warm client: ${REQUESTS} sites.get per round, ${CONCURRENCY} at a time; median (min-max) of ${ROUNDS} rounds; ` +
      `load average (1 min) over the rounds: ${warmLoads.join(" ")}\n`,
  );
  const baseRps = median(warmRuns.get("undici")!.map((r) => r.rps));
  console.log(
    table(
      ["transport", "requests/s", "vs undici", "CPU µs per request"],
      TRANSPORTS.map((t) => {
        const r = warmRuns.get(t)!;
        return [
          t,
          spread(
            r.map((x) => x.rps),
            1,
            0,
          ),
          `${(median(r.map((x) => x.rps)) / baseRps).toFixed(2)}x`,
          spread(
            r.map((x) => x.cpuUs),
            1,
            0,
          ),
        ];
      }),
    ),
  );
} finally {
  await emulator.close();
}
