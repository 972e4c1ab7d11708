// BENCH_PROFILE=1 part of the provider benchmark: one `terraform apply` per contender with the provider and
// the emulator under `node --cpu-prof`, then where their CPU went: the provider's by source (self time,
// per resource created) for siteops_noop and siteops_site, and the emulator's during siteops_site's apply
// (its request pipeline by source, and the create path by function, inclusive).
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { spawnEmulator } from "./core-helpers.js";
import { busyTime, inclusiveTime, loadSamples, selfTime, type Frame, type Sample } from "./provider-profile.js";
import { buildProvider, ROOT, table, Workspace } from "./provider-helpers.js";

interface Options {
  out: string;
  count: number;
  providerBlock(url: string): string;
  contenders: { name: string; hcl(n: number, prefix: string): string }[];
}

export const PRELOAD = path.join(ROOT, "bench/lib/provider-cpu-profile.cjs");
const SQLITE_NATIVE = new Set(["run", "get", "all", "iterate", "prepare", "exec", "pluck", "raw", "bind"]);

/** The first frame with a source module; native functions (no module) are named by what they are. */
function leaf(stack: Frame[]): { frame: Frame; native: string | undefined } {
  const native = stack[0]?.module === "" ? stack[0].name : undefined;
  return { frame: stack.find((f) => f.module !== "") ?? stack[0]!, native };
}

function common(stack: Frame[]): string | undefined {
  const top = stack[0]!.name;
  if (top === "(garbage collector)") return "GC";
  if (top === "(program)") return "V8 and native, unattributed (program)";
  const { frame, native } = leaf(stack);
  if (native === "parse" || native === "stringify") return "JSON.parse / JSON.stringify";
  const m = frame.module;
  if (m.startsWith("node:internal/modules") || m.startsWith("node:internal/bootstrap") || native === "compileFunction") return "module loading";
  if (/^node:(internal\/)?(http2|_http|http)/.test(m)) return "Node HTTP and HTTP/2";
  if (/tls/.test(m)) return "Node TLS";
  if (/^node:(internal\/)?(net|stream|streams|stream_base)/.test(m)) return "Node sockets and streams";
  return undefined;
}

export function providerCategory(stack: Frame[]): string {
  const c = common(stack);
  if (c) return c;
  const m = leaf(stack).frame.module;
  if (m === "provider/protocol/protobuf.ts") return "protobuf codec (ours)";
  if (m.startsWith("provider/values/")) return "msgpack and cty values (ours)";
  if (m.startsWith("provider/framework/")) return "framework: models, planning, validation, dispatch (ours)";
  if (m.startsWith("provider/protocol/")) return "gRPC server and handshake (ours)";
  if (m.startsWith("provider/") || m.startsWith("bench/")) return "resources (ours)";
  if (m.startsWith("src/")) return "API client, src/ (ours)";
  if (m.includes("undici")) return "undici (HTTP to the emulator)";
  if (m.startsWith("node:")) return "Node, other";
  return `other: ${m || leaf(stack).frame.name}`;
}

function emulatorCategory(stack: Frame[]): string {
  const { native } = leaf(stack);
  if (native && SQLITE_NATIVE.has(native)) return "SQLite (node:sqlite, native)";
  const c = common(stack);
  if (c) return c;
  const m = leaf(stack).frame.module;
  if (m === "node:sqlite") return "SQLite (node:sqlite, native)";
  if (m.startsWith("emulator/")) return m;
  if (
    /node_modules\/(@fastify|fastify|find-my-way|avvio|fast-json-stringify|light-my-request|fast-querystring|typebox|ajv|secure-json-parse|rfdc|toad-cache|pino)/.test(
      m,
    )
  ) {
    return `fastify and its parts (${m.split("/")[1]})`;
  }
  if (m.startsWith("node:")) return "Node, other";
  return `other: ${m || leaf(stack).frame.name}`;
}

const EMULATOR_FUNCTIONS = [
  { name: "createSite", module: "emulator/services/sites.ts" },
  { name: "checkFields", module: "emulator/services/sites.ts" },
  { name: "recordActivity", module: "emulator/services/activity-logs.ts" },
  { name: "emit", module: "emulator/events.ts" },
  { name: "firstHealthCheck", module: "emulator/services/health-checks.ts" },
  { name: "firstVulnerabilityScan", module: "emulator/services/vulnerability-records.ts" },
  { name: "poke", module: "emulator/jobs/scheduler.ts" },
  { name: "deleteSite", module: "emulator/services/sites.ts" },
];

const ms = (us: number) => (us / 1000).toFixed(0);
const perItem = (us: number, n: number) => (us / n).toFixed(0);

export function categoryTable(columns: { name: string; samples: Sample[] }[], categorize: (s: Frame[]) => string, count: number): string {
  const totals = columns.map((c) => selfTime(c.samples, categorize));
  const names = [...new Set(totals.flatMap((t) => [...t.keys()]))].sort((a, b) => (totals.at(-1)!.get(b) ?? 0) - (totals.at(-1)!.get(a) ?? 0));
  const rows = names.map((n) => [n, ...totals.map((t) => `${ms(t.get(n) ?? 0)} ms (${perItem(t.get(n) ?? 0, count)} us)`)]);
  rows.push(["**total busy**", ...columns.map((c) => `${ms(busyTime(c.samples))} ms (${perItem(busyTime(c.samples), count)} us)`)]);
  return table(["where (self time)", ...columns.map((c) => c.name)], rows);
}

export async function breakdown(o: Options): Promise<string> {
  const prof = process.env.BENCH_PROFILE_DIR ?? path.join(o.out, "profiles");
  const ws = new Workspace(await buildProvider(path.join(o.out, "profile-build"), { bench: true, minify: false }));
  // The emulator is profiled through the environment it inherits (spawnEmulator passes this process's on).
  const profiled = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    return { NODE_OPTIONS: `--require ${PRELOAD}`, SITEOPS_CPU_PROFILE_DIR: dir };
  };
  const saved = { ...process.env };
  Object.assign(process.env, profiled(path.join(prof, "emulator")));
  const starting = spawnEmulator([]);
  for (const k of ["NODE_OPTIONS", "SITEOPS_CPU_PROFILE_DIR"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  const emulator = await starting;
  const windows = new Map<string, [number, number]>();
  try {
    for (const c of o.contenders) {
      const dir = ws.dir(`profile-${c.name}`, { "main.tf": o.providerBlock(emulator.url) + c.hcl(o.count, `profile-${c.name}`) });
      await ws.terraform(dir, ["init", "-input=false"]);
      const from = Number(process.hrtime.bigint() / 1000n);
      await ws.terraform(dir, ["apply", "-auto-approve", "-input=false"], { env: profiled(path.join(prof, c.name)) });
      windows.set(c.name, [from, Number(process.hrtime.bigint() / 1000n)]);
      await ws.terraform(dir, ["destroy", "-auto-approve", "-input=false", "-parallelism=50"]);
    }
  } finally {
    await emulator.close(); // writes the emulator's profile
  }
  try {
    return report(o, prof, windows);
  } finally {
    ws.close(); // after reading the profiles: they point into the workspace's copy of the bundles
  }
}

function report(o: Options, prof: string, windows: Map<string, [number, number]>): string {
  const load = (dir: string) => readdirSync(dir).flatMap((f) => loadSamples(path.join(dir, f), ROOT));
  const providers = o.contenders.map((c) => ({ name: c.name, samples: load(path.join(prof, c.name)) }));
  const emulatorSamples = load(path.join(prof, "emulator"));
  const during = (name: string) => {
    const [from, to] = windows.get(name)!;
    return emulatorSamples.filter((s) => s.at >= from && s.at <= to);
  };

  const lines = [
    `Profiled apply of ${o.count} (unminified build, CPU profiles sampled every 0.5 ms through the inspector; profiling slows everything, read the shares): CPU ms in total (us per resource).`,
    "",
  ];
  lines.push("Provider processes of the apply (all 4), by source of the running code:", "");
  lines.push(categoryTable(providers, providerCategory, o.count), "");
  const site = o.contenders.at(-1)!.name;
  lines.push(`Emulator during the ${site} apply, by source of the running code:`, "");
  lines.push(
    categoryTable(
      o.contenders.map((c) => ({ name: `during ${c.name} apply`, samples: during(c.name) })),
      emulatorCategory,
      o.count,
    ),
    "",
  );
  const inclusive = inclusiveTime(during(site), EMULATOR_FUNCTIONS);
  lines.push(`Emulator create path during the ${site} apply, inclusive time by function:`, "");
  lines.push(
    table(
      ["function", "CPU ms", "us per site"],
      EMULATOR_FUNCTIONS.map((f) => [`${f.name} (${f.module})`, ms(inclusive.get(f.name) ?? 0), perItem(inclusive.get(f.name) ?? 0, o.count)]),
    ),
  );
  return lines.join("\n");
}
