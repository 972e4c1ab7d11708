// Emulator throughput: authenticated GET /api/v1/sites/:id (SQLite file, WAL) under 50 connections for
// 5 s, against a plain node:http server answering a fixed 200 JSON, measured in the same run. The two
// alternate over ROUNDS rounds and the medians are compared (this shared VM's steal time moves single
// runs by +-40%). Then the emulator's RSS after 100k requests, twice, to show it does not grow.
// Run: npm run bench -- emulator-get-site
import autocannon from "autocannon";
import { spawnReady, mib, ratio } from "./lib/processes.js";
import { TOKEN, spawnEmulator } from "./lib/core-helpers.js";

const CONNECTIONS = 50;
const DURATION_S = 5;
const ROUNDS = 3;

async function load(url: string, headers: Record<string, string>, opts: { duration?: number; amount?: number }) {
  const result = await autocannon({ url, connections: CONNECTIONS, headers, ...opts });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

const emulator = await spawnEmulator([{ name: "Bench site", url: "https://bench.example.com" }], { dbFile: true });
const auth = { authorization: `token ${TOKEN}` };
const sites = (await (await fetch(`${emulator.url}/api/v1/sites`, { headers: auth })).json()) as { id: string }[];
const siteUrl = `${emulator.url}/api/v1/sites/${sites[0]!.id}`;
const body = await (await fetch(siteUrl, { headers: auth })).text();

const plainSource = `
const body = ${JSON.stringify(body)};
const server = require("node:http").createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ url: "http://127.0.0.1:" + server.address().port })));
process.on("SIGTERM", () => process.exit(0));`;
const plain = await spawnReady<{ url: string }>(process.execPath, ["-e", plainSource]);

try {
  // Warm both up so JIT and the statement cache are in their steady state.
  await load(siteUrl, auth, { duration: 1 });
  await load(plain.info.url, {}, { duration: 1 });

  const emuRuns: autocannon.Result[] = [];
  const baseRuns: autocannon.Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    emuRuns.push(await load(siteUrl, auth, { duration: DURATION_S }));
    baseRuns.push(await load(plain.info.url, {}, { duration: DURATION_S }));
  }
  const median = (runs: autocannon.Result[]): autocannon.Result =>
    [...runs].sort((x, y) => x.requests.average - y.requests.average)[Math.floor(runs.length / 2)]!;
  const emu = median(emuRuns);
  const base = median(baseRuns);
  const each = (runs: autocannon.Result[]): string => runs.map((r) => r.requests.average.toFixed(0)).join(", ");

  console.log(`${ROUNDS} alternating rounds of ${DURATION_S} s, ${CONNECTIONS} connections; the median round of each:\n`);
  console.log(`| server | req/s (median) | rounds | p50 ms | p99 ms |`);
  console.log(`|---|---|---|---|---|`);
  console.log(`| plain node:http, fixed 200 JSON | ${base.requests.average.toFixed(0)} | ${each(baseRuns)} | ${base.latency.p50} | ${base.latency.p99} |`);
  console.log(`| emulator GET /api/v1/sites/:id | ${emu.requests.average.toFixed(0)} | ${each(emuRuns)} | ${emu.latency.p50} | ${emu.latency.p99} |`);
  console.log(`\nemulator / node:http throughput: ${ratio(emu.requests.average, base.requests.average)} (target >= 0.5x)`);

  await load(siteUrl, auth, { amount: 100_000 });
  const rss1 = emulator.rss();
  await load(siteUrl, auth, { amount: 100_000 });
  const rss2 = emulator.rss();
  console.log(`emulator RSS after 100k requests: ${mib(rss1)}; after another 100k: ${mib(rss2)} (growth ${mib(rss2 - rss1)})`);
} finally {
  await emulator.close();
  await plain.stop();
}
