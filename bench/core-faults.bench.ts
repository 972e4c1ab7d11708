// Benchmark: 500 site creates, then their 500 deletes, 8 at a time, through the core against an emulator
// (own process) that injects faults into them: 10 % 503 and 5 % connection resets, struck before the
// service handles the request ("before") or after it committed the change ("after": the answer is lost).
// Side by side in this run: the core before the retry-policy change (commit BEFORE_COMMIT, extracted from
// git), the current core with the old defaults (2 retries, no budget), and the current defaults.
// Counted from the service's state afterwards: calls that failed, duplicates, and calls whose outcome the
// caller was told wrongly (failed but done, or done but failed).
// `npm run bench -- core-faults`
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SiteOps } from "../src/index.js";
import { spawnEmulator, table, TOKEN } from "./lib/core-helpers.js";

/** The core as it was before the retry policy, circuit and uncertain-outcome work. */
const BEFORE_COMMIT = "3882ecd";
const SITES = Number(process.env.BENCH_SITES ?? 500);
const CONCURRENCY = 8;

const MIXES: Record<string, Record<string, unknown>[]> = {
  before: [
    { path: "/api/v1/sites", method: "POST", status: 503, rate: 0.1 },
    { path: "/api/v1/sites", method: "POST", reset_connection: true, rate: 0.05 },
    { path: "/api/v1/sites/*", method: "DELETE", status: 503, rate: 0.1 },
    { path: "/api/v1/sites/*", method: "DELETE", reset_connection: true, rate: 0.05 },
  ],
  after: [
    { path: "/api/v1/sites", method: "POST", phase: "after", status: 503, rate: 0.1 },
    { path: "/api/v1/sites", method: "POST", phase: "after", reset_connection: true, rate: 0.05 },
    { path: "/api/v1/sites/*", method: "DELETE", phase: "after", status: 503, rate: 0.1 },
    { path: "/api/v1/sites/*", method: "DELETE", phase: "after", reset_connection: true, rate: 0.05 },
  ],
};

type Client = { sites: SiteOps["sites"]; close(): Promise<void> };
type ClientClass = new (options: Record<string, unknown>) => Client;

const root = path.resolve(import.meta.dirname, "..");
const oldDir = path.join(root, "bench", `.core-${BEFORE_COMMIT}-${process.pid}`);
let OldSiteOps: ClientClass | undefined;
try {
  mkdirSync(oldDir, { recursive: true });
  const archive = execFileSync("git", ["-C", root, "archive", BEFORE_COMMIT, "src"]);
  execFileSync("tar", ["-x", "-C", oldDir], { input: archive });
  OldSiteOps = ((await import(pathToFileURL(path.join(oldDir, "src/index.ts")).href)) as { SiteOps: ClientClass }).SiteOps;
} catch (err) {
  console.log(`(the core of ${BEFORE_COMMIT} is not available here, so it is left out: ${(err as Error).message.split("\n")[0]})\n`);
}

const emulator = await spawnEmulator([]);
const control = async (method: string, route: string, body?: unknown) => {
  const res = await fetch(`${emulator.url}/__emulator/${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${route}: ${res.status}`);
};
const observer = new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN });

const contenders: Record<string, () => Client> = {
  ...(OldSiteOps ? { [`before (${BEFORE_COMMIT}), defaults`]: () => new OldSiteOps!({ baseUrl: emulator.url, apiToken: TOKEN }) } : {}),
  "now, old defaults (2 retries)": () => new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN, maxRetries: 2, retryBudgetMs: 3_600_000 }),
  "now, defaults": () => new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN }),
};

async function pool<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

interface Outcome {
  failed: number;
  duplicates: number;
  /** Calls that failed although the change happened, or succeeded although it did not. */
  misreported: number;
}

async function run(make: () => Client, mix: Record<string, unknown>[]) {
  await control("POST", "reset");
  await control("DELETE", "faults");
  await control("POST", "faults", { rules: mix });
  const client = make();
  const names = Array.from({ length: SITES }, (_, i) => `fault-${i}`);
  const created = new Map<string, string>();
  const create: Outcome = { failed: 0, duplicates: 0, misreported: 0 };
  const remove: Outcome = { failed: 0, duplicates: 0, misreported: 0 };
  const started = Date.now();
  const createFailed = new Set<string>();
  await pool(names, async (name) => {
    try {
      created.set(name, (await client.sites.create({ name, url: `https://${name}.bench.example` })).id);
    } catch {
      createFailed.add(name);
    }
  });
  const existing = await observer.sites.list({ per_page: 100 }).toArray();
  for (const name of names) {
    const count = existing.filter((s) => s.name === name).length;
    if (count > 1) create.duplicates += count - 1;
    if (createFailed.has(name)) create.failed++;
    if (createFailed.has(name) !== (count === 0)) create.misreported++;
  }
  const deleteFailed = new Set<string>();
  const ids = existing.filter((s) => s.name.startsWith("fault-")).map((s) => s.id);
  await pool(ids, async (id) => {
    try {
      await client.sites.delete(id);
    } catch {
      deleteFailed.add(id);
    }
  });
  const left = new Set((await observer.sites.list({ per_page: 100 }).toArray()).map((s) => s.id));
  for (const id of ids) {
    if (deleteFailed.has(id)) remove.failed++;
    if (deleteFailed.has(id) !== left.has(id)) remove.misreported++;
  }
  const wallS = (Date.now() - started) / 1000;
  await control("DELETE", "faults");
  await client.close();
  return { create, remove, wallS };
}

try {
  console.log(`${SITES} creates then their deletes, ${CONCURRENCY} at a time; faults on both: 10 % 503 (Retry-After 1 s) and 5 % resets\n`);
  const rows: (string | number)[][] = [];
  for (const [mixName, mix] of Object.entries(MIXES)) {
    for (const [name, make] of Object.entries(contenders)) {
      process.stderr.write(`core-faults: ${mixName} faults, ${name} ...\n`);
      const r = await run(make, mix);
      rows.push([
        mixName,
        name,
        `${r.create.failed} / ${r.remove.failed}`,
        r.create.duplicates,
        `${r.create.misreported} / ${r.remove.misreported}`,
        r.wallS.toFixed(1),
      ]);
    }
  }
  console.log(table(["faults", "core", "failed (create / delete)", "duplicates", "told wrongly (create / delete)", "wall time (s)"], rows));
} finally {
  await observer.close();
  await emulator.close();
  rmSync(oldDir, { recursive: true, force: true });
}
