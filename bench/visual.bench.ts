// Benchmark: the visual check's time per page (issue 50 item 4), in Debian's Chromium, on a themed loopback WordPress
// page (test/support/wordpress-theme.ts: web fonts answered up to 400 ms late, images up to 250 ms, lazy images, CSS
// animations, a masked clock). Per viewport (desktop 1280x800, mobile 390x844):
//   - capture: visual/capture.ts's whole shot (a fresh context, load, network quiet, lazy images scrolled in,
//     images and fonts awaited, the full page frozen and masked);
//   - floor: the same page in a fresh context, `goto` to `load` and a plain full-page screenshot, nothing awaited or
//     frozen (what a capture cannot go below; its own shots differ from one to the next);
//   - compare: visual/compare.ts on two captures (decode both PNGs, pixelmatch, encode the diff).
// And the rollout's extra time per site (the gate's two shots per page and viewport and the comparison, on the
// path each site takes): the core's rolloutUpgrade against the emulator in-process (pipelines that take no time),
// gates `pipeline` then `pipeline,visual` (visual/gate.ts, `/` in both viewports), on one site (the latency the gate
// adds to a site) and on ROLLOUT_SITES at the rollout's default concurrency (the wall time it adds per site of a
// wave, the browser shared, DEFAULT_VISUAL_CONCURRENCY pages shot at a time).
// Rounds interleaved, medians and spreads; the load (1-minute average) and `node -e 0` beside each round.
// `npm run bench -- visual`; env BENCH_RUNS (10 rounds), ROLLOUT_SITES (8), CHROMIUM_PATH (/usr/bin/chromium).
import { loadavg } from "node:os";
import { launchBrowser } from "../visual/browser.js";
import { capturePage } from "../visual/capture.js";
import { comparePngs } from "../visual/compare.js";
import { createVisualGate } from "../visual/gate.js";
import { DEFAULT_VIEWPORTS, DEFAULT_VISUAL_CONCURRENCY, DEFAULT_VISUAL_THRESHOLD, rolloutUpgrade } from "../src/fleet.js";
import { SiteOps } from "../src/index.js";
import { CHROMIUM } from "../test/support/chromium.js";
import { ownerSeed, startSeededEmulator } from "../test/support/emulator.js";
import { removeDir, tempDir } from "../test/support/temp.js";
import { startWordPressSite, startWordPressSites } from "../test/support/wordpress-sites.js";
import { CLOCK_SELECTOR } from "../test/support/wordpress-theme.js";
import { nodeStartMs } from "./lib/machine-speed.js";
import { spread, table } from "./lib/provider-helpers.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const ROLLOUT_SITES = Number(process.env.ROLLOUT_SITES ?? 8);
const TOKEN = "sot_benchVisualRollout0000000001";

const browser = await launchBrowser(CHROMIUM);
const site = await startWordPressSite({ look: "theme" });
const url = `${site.url}/`;
const times: Record<string, number[]> = {};
const add = (key: string, ms: number) => (times[key] ??= []).push(ms);
const probes: string[] = [];

async function floor(viewport: (typeof DEFAULT_VIEWPORTS)[number]): Promise<number> {
  const begin = performance.now();
  const context = await browser.browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, isMobile: viewport.mobile });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    await page.screenshot({ fullPage: true });
  } finally {
    await context.close();
  }
  return performance.now() - begin;
}

/** A rollout of `n` themed sites (unchanged by their upgrade) to WordPress 6.8 in one wave, with or without the
 * visual gate: its wall time per site, in ms. A fresh emulator and fresh sites each time (every site at 6.5). */
async function rolloutPerSite(n: number, visual: boolean): Promise<number> {
  const wordpress = await startWordPressSites(n, { look: "theme" });
  const seed = ownerSeed("Bench", TOKEN);
  seed.accounts[0]!.sites = wordpress.seedSites("Themed");
  const emu = await startSeededEmulator(seed);
  const client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  const dir = tempDir("bench-visual-rollout");
  try {
    const sites = await client.sites.list({ per_page: 100 }).toArray();
    const settings = {
      paths: ["/"],
      viewports: DEFAULT_VIEWPORTS,
      ignore: [CLOCK_SELECTOR],
      threshold: DEFAULT_VISUAL_THRESHOLD,
      timeoutMs: 300_000,
      concurrency: DEFAULT_VISUAL_CONCURRENCY,
    };
    const begin = performance.now();
    const result = await rolloutUpgrade(client, sites, {
      target: { wp: "6.8" },
      waves: [{ percent: 100 }],
      gates: visual ? ["pipeline", "visual"] : ["pipeline"],
      visual: visual ? createVisualGate(browser, settings, dir) : undefined,
      pollInterval: 20,
    });
    const ms = performance.now() - begin;
    if (result.outcome !== "done") console.error(`bench: rollout of ${n} (visual: ${visual}): ${result.outcome}`);
    return ms / n;
  } finally {
    await client.close();
    await emu.close();
    await wordpress.close();
    removeDir(dir);
  }
}

try {
  for (let round = 0; round < RUNS; round++) {
    probes.push(`${loadavg()[0]!.toFixed(1)} / ${nodeStartMs(3).toFixed(0)} ms`);
    for (const viewport of DEFAULT_VIEWPORTS) {
      add(`floor ${viewport.name}`, await floor(viewport));
      const shot = { viewport, ignore: [CLOCK_SELECTOR], timeoutMs: 300_000 };
      const a = await capturePage(browser, url, shot);
      const b = await capturePage(browser, url, shot);
      add(`capture ${viewport.name}`, a.ms);
      add(`capture ${viewport.name}`, b.ms);
      const begin = performance.now();
      const c = comparePngs(a.png, b.png);
      add(`compare ${viewport.name} (${c.width}x${c.height})`, performance.now() - begin);
      if (c.changed !== 0) console.error(`bench: ${viewport.name}: ${c.changed} % changed between two shots of the same page`);
    }
    for (const n of [1, ROLLOUT_SITES]) {
      const without = await rolloutPerSite(n, false);
      const withGate = await rolloutPerSite(n, true);
      add(`rollout of ${n} per site: gate pipeline`, without);
      add(`rollout of ${n} per site: gate pipeline,visual`, withGate);
      add(`rollout of ${n} per site: the visual gate's extra`, withGate - without);
    }
  }
} finally {
  await browser.close();
  await site.close();
}

console.log(`${browser.version}, ${RUNS} rounds; load (1 min) / node -e 0 per round: ${probes.join(", ")}\n`);
console.log(
  table(
    ["what", "ms: median (least-most)", "runs"],
    Object.entries(times).map(([key, values]) => [key, spread(values, 1, 0), values.length]),
  ),
);
