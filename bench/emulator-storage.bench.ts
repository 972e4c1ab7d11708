// The emulator's storage decision (issue 23): node:sqlite against better-sqlite3 in one run, on the Node that runs
// this file, rounds interleaved: authenticated GET /api/v1/sites/:id throughput (50 connections, 5 s, SQLite file
// in WAL), the site-create path (200 `so.sites.create` one at a time: wall and emulator CPU per create), and the
// spawn-to-ready time of an emulator seeded with `generate` 10,000 sites (file database).
// Run: SITEOPS_BENCH_BETTER_SQLITE3=<a better-sqlite3 built for this Node> npm run bench -- emulator-storage
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { SiteOps } from "../src/index.js";
import { TOKEN, spawnEmulator, table } from "./core-helpers.js";
import { median, ratio } from "./lib/processes.js";

const ROUNDS = 3;
const CREATES = 200;
const legacy = process.env.SITEOPS_BENCH_BETTER_SQLITE3;
if (!legacy) throw new Error("set SITEOPS_BENCH_BETTER_SQLITE3 to a better-sqlite3 directory built for this Node");
// better-sqlite3 12.11.1 built for Node 24.21 aborts when V8 collects one of its statements ("Assertion failed:
// (env) != nullptr" in Statement::~Statement, a known better-sqlite3 + Node 24 crash): with it, the emulator keeps
// every statement alive (emulator/store/db.ts), or it would not start.
const DRIVERS = [
  ["node:sqlite", { SITEOPS_BENCH_BETTER_SQLITE3: "" }],
  ["better-sqlite3", { SITEOPS_BENCH_BETTER_SQLITE3: legacy }],
] as const;
const auth = { authorization: `token ${TOKEN}` };

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

console.log(`Node ${process.versions.node}; machine load (1/5/15 min) at start: ${load()}\n`);
const results: Record<string, { get: number[]; createWall: number[]; createCpu: number[]; seed: number[]; aborts: string[] }> = {};
for (const [name] of DRIVERS) results[name] = { get: [], createWall: [], createCpu: [], seed: [], aborts: [] };

for (let round = 0; round < ROUNDS; round++) {
  for (const [name, env] of DRIVERS) {
    const r = results[name]!;
    // GET throughput.
    let emu: Awaited<ReturnType<typeof spawnEmulator>> | undefined;
    try {
      emu = await spawnEmulator([{ name: "Bench site", url: "https://bench.example.com" }], { dbFile: true, env });
      const sites = (await (await fetch(`${emu.url}/api/v1/sites`, { headers: auth })).json()) as { id: string }[];
      const url = `${emu.url}/api/v1/sites/${sites[0]!.id}`;
      await autocannon({ url, connections: 50, headers: auth, duration: 1 });
      const res = await autocannon({ url, connections: 50, headers: auth, duration: 5 });
      if (res.non2xx || res.errors) throw new Error(`${name}: ${res.non2xx} non-2xx, ${res.errors} errors`);
      r.get.push(res.requests.average);
      // The create path, on the same (file) database.
      const so = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
      const cpu0 = cpuMs(emu.pid);
      const t0 = performance.now();
      for (let i = 0; i < CREATES; i++) await so.sites.create({ name: `Site ${round}-${i}`, url: `https://site-${round}-${i}.create.test` });
      r.createWall.push((performance.now() - t0) / CREATES);
      r.createCpu.push((cpuMs(emu.pid) - cpu0) / CREATES);
      await so.close();
    } catch (err) {
      // An emulator that aborts is counted, not measured.
      r.aborts.push(`round ${round + 1} GET/create: ${(err as Error).message.split("\n")[0]}`);
    } finally {
      await emu?.close().catch(() => undefined);
    }
    // The 10,000-site seed: spawn to ready.
    const t1 = performance.now();
    try {
      const fleet = await spawnEmulator([], { generate: { sites: 10_000 }, dbFile: true, env });
      r.seed.push(performance.now() - t1);
      await fleet.close().catch(() => undefined);
    } catch (err) {
      r.aborts.push(`round ${round + 1} seed: ${(err as Error).message.split("\n")[0]}`);
    }
  }
}

const [a, b] = [results["node:sqlite"]!, results["better-sqlite3"]!];
const spread = (xs: number[], digits = 0) => (xs.length ? `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}, n=${xs.length}` : "none");
console.log(
  table(
    ["figure (median of the interleaved rounds; spread, runs)", "node:sqlite", "better-sqlite3", "node:sqlite / better-sqlite3 (as speed)"],
    [
      ["GET /api/v1/sites/:id, req/s", `${median(a.get).toFixed(0)} (${spread(a.get)})`, `${median(b.get).toFixed(0)} (${spread(b.get)})`, ratio(median(a.get), median(b.get))],
      [
        `create, wall ms per site (${CREATES} in turn)`,
        `${median(a.createWall).toFixed(2)} (${spread(a.createWall, 2)})`,
        `${median(b.createWall).toFixed(2)} (${spread(b.createWall, 2)})`,
        ratio(median(b.createWall), median(a.createWall)),
      ],
      [
        "create, emulator CPU ms per site",
        `${median(a.createCpu).toFixed(2)} (${spread(a.createCpu, 2)})`,
        `${median(b.createCpu).toFixed(2)} (${spread(b.createCpu, 2)})`,
        ratio(median(b.createCpu), median(a.createCpu)),
      ],
      [
        "seed generate 10,000 sites, spawn to ready ms",
        `${median(a.seed).toFixed(0)} (${spread(a.seed)})`,
        `${median(b.seed).toFixed(0)} (${spread(b.seed)})`,
        ratio(median(b.seed), median(a.seed)),
      ],
    ],
  ),
);
for (const [name] of DRIVERS) console.log(`\n${name}: ${results[name]!.aborts.length} emulator(s) aborted${results[name]!.aborts.map((a) => `\n  ${a}`).join("")}`);
console.log(`\nmachine load (1/5/15 min) at end: ${load()}`);
