// The emulator at fleet scale (issue 11 section 4), all in one run:
// - seeding: time from spawn to ready of an emulator seeded with nothing, with `generate` 10,000 sites, with
//   10,000 sites x 10 snapshots (100,000), and with 2,000 sites listed one by one in the seed's `sites` (each
//   created through createSite, as before `generate`); then the seed alone, timed in this process (wall and
//   CPU, minus an empty start), which the VM's noise and tsx's start-up do not swamp;
// - GET /api/v1/sites?per_page=100 latency at 100 and at 10,000 sites: page 1, the last page reached by a jump,
//   and a walk through every page (medians of interleaved rounds, one keep-alive connection);
// - the listing's SQL on the 10,000-site database file: the OFFSET query it used to run vs the keyed read;
// - the emulator's RSS at each size.
// Run: npm run bench -- emulator-scale
import path from "node:path";
import { loadavg } from "node:os";
import { DatabaseSync } from "node:sqlite";
import { mib, median, ratio } from "./lib/processes.js";
import { TOKEN, spawnEmulator, table, type BenchEmulator } from "./lib/core-helpers.js";
import { startEmulator, type SeedFile } from "../emulator/index.js";

const ROUNDS = 200;
const PER_PAGE = 100;
const auth = { authorization: `token ${TOKEN}` };

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const v = await f();
  return [v, performance.now() - t];
}

async function get(url: string): Promise<{ count: number; ms: number }> {
  const t = performance.now();
  const res = await fetch(url, { headers: auth });
  const body = (await res.json()) as unknown[];
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return { count: body.length, ms: performance.now() - t };
}

const pageUrl = (e: BenchEmulator, page: number): string => `${e.url}/api/v1/sites?page=${page}&per_page=${PER_PAGE}`;

console.log(
  `machine load (1/5/15 min): ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")}\n`,
);

// Seeding.
const starts: [string, number, BenchEmulator][] = [];
const [empty, emptyMs] = await timed(() => spawnEmulator([]));
const [small, smallMs] = await timed(() => spawnEmulator([], { generate: { sites: 100 } }));
const [fleet, fleetMs] = await timed(() => spawnEmulator([], { generate: { sites: 10_000 }, dbFile: true }));
const [snaps, snapsMs] = await timed(() => spawnEmulator([], { generate: { sites: 10_000, snapshots_per_site: 10 } }));
const listed = Array.from({ length: 2_000 }, (_, i) => ({ name: `Listed ${i + 1}`, url: `https://listed-${i + 1}.fleet.test` }));
const [byList, byListMs] = await timed(() => spawnEmulator(listed));
starts.push(
  ["empty (one account, no sites)", emptyMs, empty],
  ["generate: 100 sites", smallMs, small],
  ["generate: 10,000 sites", fleetMs, fleet],
  ["generate: 10,000 sites x 10 snapshots (100,000)", snapsMs, snaps],
  ["seed `sites` list: 2,000 sites (createSite each)", byListMs, byList],
);

try {
  console.log(
    table(
      ["seed", "spawn to ready", "seed time (minus empty)", "emulator RSS after seeding"],
      starts.map(([label, ms, e]) => [label, `${(ms / 1000).toFixed(2)} s`, e === empty ? "-" : `${((ms - emptyMs) / 1000).toFixed(2)} s`, mib(e.rss())]),
    ),
  );
  // Spawn-to-ready carries tsx's start-up and the VM's noise; the seed itself, timed in this process
  // (startEmulator on :memory:, interleaved rounds, medians of wall and CPU time, minus the empty start):
  const seedOf = (generate?: SeedFile["generate"], sites: { name: string; url: string }[] = []): SeedFile => ({
    accounts: [{ name: "Bench", users: [{ email: "bench@example.test", password: "bench password 1", name: "Bench", role: "owner" }], sites }],
    ...(generate ? { generate } : {}),
  });
  const kinds: [string, SeedFile][] = [
    ["empty", seedOf()],
    ["generate: 10,000 sites", seedOf({ sites: 10_000 })],
    ["generate: 10,000 sites x 10 snapshots (100,000)", seedOf({ sites: 10_000, snapshots_per_site: 10 })],
    ["seed `sites` list: 2,000 sites (createSite each)", seedOf(undefined, listed)],
  ];
  const inProc: Record<string, { wall: number[]; cpu: number[] }> = {};
  for (let r = 0; r < 3; r++) {
    for (const [label, seed] of kinds) {
      (globalThis as { gc?: () => void }).gc?.();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const e = await startEmulator({ seed, stepSeconds: 0 });
      const wall = performance.now() - t0;
      const c = process.cpuUsage(c0);
      await e.close();
      (inProc[label] ??= { wall: [], cpu: [] }).wall.push(wall);
      inProc[label]!.cpu.push((c.user + c.system) / 1000);
    }
  }
  const emptyWall = median(inProc.empty!.wall);
  const emptyCpu = median(inProc.empty!.cpu);
  console.log("\nThe seed alone (in this process, medians of 3 interleaved rounds, minus an empty start):\n");
  console.log(
    table(
      ["seed", "seed wall", "seed CPU", "CPU per site"],
      kinds.slice(1).map(([label]) => {
        const sites = label.includes("2,000") ? 2_000 : 10_000;
        const cpu = median(inProc[label]!.cpu) - emptyCpu;
        return [
          label,
          `${((median(inProc[label]!.wall) - emptyWall) / 1000).toFixed(2)} s`,
          `${(cpu / 1000).toFixed(2)} s`,
          `${((cpu * 1000) / sites).toFixed(0)} µs`,
        ];
      }),
    ),
  );
  console.log("");

  // List latency: interleaved rounds over both emulators.
  const lastPage = Math.ceil(10_000 / PER_PAGE);
  const samples: Record<string, number[]> = { small1: [], fleet1: [], fleetLast: [], fleetMid: [] };
  for (let i = 0; i < 20; i++) await Promise.all([get(pageUrl(small, 1)), get(pageUrl(fleet, 1)), get(pageUrl(fleet, lastPage))]); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    samples.small1!.push((await get(pageUrl(small, 1))).ms);
    samples.fleet1!.push((await get(pageUrl(fleet, 1))).ms);
    samples.fleetLast!.push((await get(pageUrl(fleet, lastPage))).ms);
    samples.fleetMid!.push((await get(pageUrl(fleet, 1 + (r % lastPage)))).ms);
  }
  const walks: number[] = [];
  for (let w = 0; w < 5; w++) {
    const t = performance.now();
    let seen = 0;
    for (let p = 1; p <= lastPage; p++) seen += (await get(pageUrl(fleet, p))).count;
    if (seen !== 10_000) throw new Error(`walk saw ${seen} sites`);
    walks.push(performance.now() - t);
  }
  const m = (k: string): number => median(samples[k]!);
  const base = m("small1");
  console.log(`GET /api/v1/sites?per_page=${PER_PAGE}, medians of ${ROUNDS} interleaved rounds (one keep-alive connection):\n`);
  console.log(
    table(
      ["request", "median ms", "vs page 1 at 100 sites"],
      [
        ["100 sites, page 1 (the last)", base.toFixed(2), "1.00x"],
        ["10,000 sites, page 1", m("fleet1").toFixed(2), ratio(m("fleet1"), base)],
        [`10,000 sites, page ${lastPage} (last, by jump)`, m("fleetLast").toFixed(2), ratio(m("fleetLast"), base)],
        ["10,000 sites, page 1..100 in turn", m("fleetMid").toFixed(2), ratio(m("fleetMid"), base)],
      ],
    ),
  );
  console.log(
    `\nlast / first page at 10,000 sites: ${ratio(m("fleetLast"), m("fleet1"))}; a walk of all ${lastPage} pages: ${median(walks).toFixed(0)} ms (median of 5)\n`,
  );

  // The SQL of the listing on the 10,000-site file: before (OFFSET, COUNT per request) and now (keyed read).
  const db = new DatabaseSync(path.join(fleet.dir, "bench.db"), { readOnly: true });
  const acct = (db.prepare("SELECT id FROM accounts").get() as { id: string }).id;
  const offsetQ = db.prepare("SELECT * FROM sites WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?");
  const countQ = db.prepare("SELECT COUNT(*) AS n FROM sites WHERE account_id = ?");
  const skipQ = db.prepare("SELECT seq FROM sites WHERE account_id = ? ORDER BY seq LIMIT 1 OFFSET ?");
  const keyQ = db.prepare("SELECT * FROM sites WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?");
  const lastOffset = (lastPage - 1) * PER_PAGE;
  const lastBefore = (skipQ.get(acct, lastOffset - 1) as { seq: number }).seq;
  const micro = (f: () => unknown): number => {
    for (let i = 0; i < 200; i++) f();
    const runs: number[] = [];
    for (let k = 0; k < 9; k++) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < 500; i++) f();
      runs.push(Number(process.hrtime.bigint() - t) / 500 / 1000);
    }
    return median(runs);
  };
  const rows: [string, number][] = [
    [
      "before: page 1 (OFFSET 0) + COUNT",
      micro(() => {
        offsetQ.all(acct, PER_PAGE, 0);
        countQ.get(acct);
      }),
    ],
    [
      `before: page ${lastPage} (OFFSET ${lastOffset}) + COUNT`,
      micro(() => {
        offsetQ.all(acct, PER_PAGE, lastOffset);
        countQ.get(acct);
      }),
    ],
    ["now: page 1 (key > 0), count remembered", micro(() => keyQ.all(acct, 0, PER_PAGE))],
    [`now: page ${lastPage} after page ${lastPage - 1} (key > remembered seq)`, micro(() => keyQ.all(acct, lastBefore, PER_PAGE))],
    [
      `now: page ${lastPage} by jump (index-only skip, then key)`,
      micro(() => {
        const s = skipQ.get(acct, lastOffset - 1) as { seq: number };
        keyQ.all(acct, s.seq, PER_PAGE);
      }),
    ],
  ];
  db.close();
  console.log("The listing's SQL at 10,000 sites (in this process on the emulator's file, medians of 9 x 500):\n");
  console.log(
    table(
      ["query", "µs", "vs before page 1"],
      rows.map(([l, us]) => [l, us.toFixed(1), ratio(us, rows[0]![1])]),
    ),
  );
  console.log(
    `\nemulator RSS after the list rounds: 100 sites ${mib(small.rss())}, 10,000 sites ${mib(fleet.rss())}, 10,000 sites + 100,000 snapshots ${mib(snaps.rss())}`,
  );
} finally {
  await Promise.all(starts.map(([, , e]) => e.close()));
}
