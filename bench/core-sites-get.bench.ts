// Benchmark 1: `so.sites.get()` throughput at 16 concurrent calls against the emulator, vs raw
// `undici.request` and global `fetch` on the same URL, measured side by side in this run.
import { request } from "undici";
import { SiteOps } from "../src/index.js";
import { spawnEmulator, table, TOKEN } from "./lib/core-helpers.js";
import { median } from "./lib/processes.js";

const CONCURRENCY = 16;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
// Short interleaved rounds in rotating order, so that load from other processes hits every contender alike.
const ROUNDS = 7;

const emulator = await spawnEmulator();
const so = new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN, maxRetries: 0 });
const site = (await so.sites.list()).data[0];
const url = `${emulator.url}/api/v1/sites/${site.id}`;
const headers = { authorization: `token ${TOKEN}`, accept: "application/json" };

const contenders: Record<string, () => Promise<unknown>> = {
  "undici.request": async () => {
    const res = await request(url, { headers });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    return res.body.json();
  },
  fetch: async () => {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    return res.json();
  },
  "so.sites.get": () => so.sites.get(site.id),
};

async function run(fn: () => Promise<unknown>, total: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

try {
  for (const fn of Object.values(contenders)) await run(fn, 2_000); // warm up connections and JIT
  const results: Record<string, number[]> = {};
  const entries = Object.entries(contenders);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < entries.length; i++) {
      const [name, fn] = entries[(round + i) % entries.length];
      (results[name] ??= []).push(await run(fn, REQUESTS));
    }
  }
  const base = median(results["undici.request"]);
  console.log(`${REQUESTS} GET /api/v1/sites/:id per round, ${CONCURRENCY} concurrent, median of ${ROUNDS} rounds (emulator in its own process)\n`);
  console.log(
    table(
      ["client", "req/s", "vs undici.request"],
      Object.entries(results).map(([name, r]) => [name, Math.round(median(r)), `${(median(r) / base).toFixed(2)}x`]),
    ),
  );
} finally {
  await so.close();
  await emulator.close();
}
