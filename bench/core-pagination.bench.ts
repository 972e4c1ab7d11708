// Benchmark 3: iterating 10,000 sites with `for await` vs the sum of the raw page requests (undici.request,
// same pages, same per_page) measured in the same run, and the peak RSS of the iteration.
import { request } from "undici";
import { SiteOps } from "../src/index.js";
import { mib, rssSampler, spawnEmulator, table, TOKEN } from "./lib/core-helpers.js";
import { median } from "./lib/processes.js";

const SITES = 10_000;
const PER_PAGE = 100;
const ROUNDS = 5;

const emulator = await spawnEmulator(Array.from({ length: SITES }, (_, i) => ({ name: `site-${i}`, url: `https://site-${i}.bench.example` })));
const so = new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN });
const headers = { authorization: `token ${TOKEN}`, accept: "application/json" };

async function raw(): Promise<{ ms: number; count: number }> {
  let ms = 0;
  let count = 0;
  for (let page = 1; ; page++) {
    const started = performance.now();
    const res = await request(`${emulator.url}/api/v1/sites?per_page=${PER_PAGE}&page=${page}`, { headers });
    const items = (await res.body.json()) as unknown[];
    ms += performance.now() - started;
    count += items.length;
    if (items.length < PER_PAGE) return { ms, count };
  }
}

async function iterate(): Promise<{ ms: number; count: number; peak: number; before: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  const sampler = rssSampler();
  const started = performance.now();
  let count = 0;
  for await (const site of so.sites.list({ per_page: PER_PAGE })) if (site.id) count++;
  const ms = performance.now() - started;
  return { ms, count, peak: sampler.stop(), before };
}

try {
  await raw();
  await iterate(); // warm up
  const rawMs: number[] = [];
  const iterMs: number[] = [];
  let peak = 0;
  let before = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so that load from other processes hits both alike.
    let r: { ms: number; count: number };
    let it: { ms: number; count: number; peak: number; before: number };
    if (round % 2 === 0) {
      r = await raw();
      it = await iterate();
    } else {
      it = await iterate();
      r = await raw();
    }
    if (r.count !== SITES || it.count !== SITES) throw new Error(`expected ${SITES} sites, got ${r.count} / ${it.count}`);
    rawMs.push(r.ms);
    iterMs.push(it.ms);
    peak = Math.max(peak, it.peak);
    before = Math.min(before, it.before);
  }
  console.log(`${SITES} sites, per_page=${PER_PAGE} (${SITES / PER_PAGE} pages), median of ${ROUNDS} rounds\n`);
  console.log(
    table(
      ["what", "wall ms", "vs raw page requests", "peak RSS MiB (before)"],
      [
        ["sum of raw page requests (undici.request)", median(rawMs).toFixed(0), "1.00x", "-"],
        ["for await so.sites.list()", median(iterMs).toFixed(0), `${(median(iterMs) / median(rawMs)).toFixed(2)}x time`, `${mib(peak)} (${mib(before)})`],
      ],
    ),
  );
} finally {
  await so.close();
  await emulator.close();
}
