// Benchmark: how soon the core's waiter reports a snapshot that completed in the service, with the default
// poll settings (polls growing from 100 ms to the 2 s interval), against the fixed 2 s poll the waiters
// used before, on a 0-step emulator in its own process, measured side by side in this run.
//   one snapshot at a time: time from the service's completed_at to the waiter returning it, and from the
//     create to the return, medians of interleaved rounds;
//   a fleet run: 100 sites, 8 at a time (the action's and the CLI's `--all` shape), wall time and polls.
// `npm run bench -- core-waiter`
import { SiteOps, type Snapshot } from "../src/index.js";
import { spawnEmulator, table, TOKEN } from "./lib/core-helpers.js";
import { median } from "./lib/processes.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const FLEET = 100;
const CONCURRENCY = 8;
/** The interval of the old waiter: sleep, poll, repeat. */
const OLD_POLL_MS = 2_000;

const emulator = await spawnEmulator(Array.from({ length: FLEET }, (_, i) => ({ name: `Site ${i}`, url: `https://site-${i}.bench.example` })));
let polls = 0;
const so = new SiteOps({
  baseUrl: emulator.url,
  apiToken: TOKEN,
  logger: (e) => {
    if (e.kind === "response" && e.method === "GET") polls++;
  },
});
const sites = await so.sites.list({ per_page: 100 }).toArray();

/** The waiter as it was: a fixed sleep of the poll interval between polls. */
async function fixedPoll(siteId: string): Promise<Snapshot> {
  let snapshot = await so.snapshots.create(siteId, { description: "bench" });
  while (snapshot.status !== "completed" && snapshot.status !== "failed") {
    await new Promise((resolve) => setTimeout(resolve, OLD_POLL_MS));
    snapshot = await so.snapshots.get(siteId, snapshot.id);
  }
  return snapshot;
}

const contenders: Record<string, (siteId: string) => Promise<Snapshot>> = {
  "fixed 2 s poll (before)": fixedPoll,
  "createSnapshot, defaults": (siteId) => so.operations.createSnapshot(siteId, { description: "bench" }),
};

interface Sample {
  /** From the service's completed_at to the waiter returning. */
  reportMs: number;
  /** From the call to the waiter returning. */
  totalMs: number;
}

async function once(fn: (siteId: string) => Promise<Snapshot>, siteId: string): Promise<Sample> {
  const started = Date.now();
  const snapshot = await fn(siteId);
  const returned = Date.now();
  if (snapshot.status !== "completed" || !snapshot.completed_at) throw new Error(`snapshot ${snapshot.id} is ${snapshot.status}`);
  return { reportMs: returned - Date.parse(snapshot.completed_at), totalMs: returned - started };
}

async function fleet(fn: (siteId: string) => Promise<Snapshot>): Promise<{ wallMs: number; polls: number }> {
  const before = polls;
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < sites.length) await fn(sites[next++]!.id);
    }),
  );
  return { wallMs: Date.now() - started, polls: polls - before };
}

try {
  const samples: Record<string, Sample[]> = {};
  const names = Object.keys(contenders);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      (samples[name] ??= []).push(await once(contenders[name]!, sites[round % sites.length]!.id));
    }
  }
  const base = samples[names[0]!]!;
  console.log(`One snapshot at a time on a 0-step emulator, median of ${ROUNDS} interleaved rounds\n`);
  console.log(
    table(
      ["waiter", "completed -> reported (ms)", "create -> reported (ms)", "vs fixed 2 s poll"],
      names.map((name) => {
        const s = samples[name]!;
        const total = median(s.map((x) => x.totalMs));
        return [name, Math.round(median(s.map((x) => x.reportMs))), Math.round(total), `${(total / median(base.map((x) => x.totalMs))).toFixed(2)}x`];
      }),
    ),
  );
  const runs: Record<string, { wallMs: number; polls: number }> = {};
  for (const name of names) runs[name] = await fleet(contenders[name]!);
  console.log(`\n${FLEET} sites, ${CONCURRENCY} at a time (both runs in turn)\n`);
  const baseWall = runs[names[0]!]!.wallMs;
  console.log(
    table(
      ["waiter", "wall time (s)", "GET polls", "vs fixed 2 s poll"],
      names.map((name) => [name, (runs[name]!.wallMs / 1000).toFixed(1), runs[name]!.polls, `${(runs[name]!.wallMs / baseWall).toFixed(2)}x`]),
    ),
  );
} finally {
  await so.close();
  await emulator.close();
}
