// Benchmark: the provider's instructions, counted by Valgrind's callgrind: a measure that does not move with the
// machine's load (on this shared VM CPU time grows with the load too, and the VM has no hardware counters for
// `perf stat`). A client in this process plays Terraform's part (bench/lib/plugin-launch.ts, startPlugin: the
// handshake, mutual TLS, HTTP/2) and sends the RPCs one Terraform process sends, 10 in flight, to a provider
// process under callgrind (Terraform itself gives up on a plugin that takes a minute to start, as Node does
// under callgrind on a loaded machine). Per contender, each in a fresh process:
//   start        GetProviderSchema, then Shutdown: Terraform's schema process, a start and little more
//   apply N      Terraform's apply process for N creates: ValidateProviderConfig, ValidateResourceConfig x N,
//                ConfigureProvider, PlanResourceChange x N, ApplyResourceChange x N
//   plan N       its no-op plan of N in state: ... ConfigureProvider, UpgradeResourceState x N (the stored JSON),
//                ReadResource x N, PlanResourceChange x N
// and per resource, (apply N - start) / N and (plan N - start) / N. Contenders: siteops_noop and siteops_site (the
// bench build, bench/lib/provider-noop.ts; siteops_site against the emulator, its sites deleted after each run),
// `node -e 0`, and with BENCH_BEFORE=<checkout> the two built from that checkout (its own emulator).
// Node runs with ASLR off (setarch -R); V8 still draws a random hash seed (a V8 flag fixing it would make Node
// reject its own modules' code cache), so counts vary by ~5 % of `node -e 0`: BENCH_RUNS runs (default 3),
// interleaved, medians. The main thread's count and all threads' (V8's compiler and GC helpers, and the thread
// that loads the root certificates) are given apart. BENCH_COUNT resources (default 200). Needs valgrind (Debian:
// apt-get install valgrind). The Go peer cannot run under callgrind (Valgrind 3.19 stops Go 1.19's runtime with
// SIGILL in runtime.cputicks): provider-terraform compares it by CPU time.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { arch, loadavg, tmpdir } from "node:os";
import path from "node:path";
import type { CtyType, ObjectValue } from "../provider/values/cty.js";
import { decodeMsgpack, encodeMsgpack } from "../provider/values/cty-msgpack.js";
import { spawnEmulator, TOKEN, type BenchEmulator } from "./lib/core-helpers.js";
import { pluginClient, startPlugin, type Plugin } from "./lib/plugin-launch.js";
import { buildProvider, median, roundOrder, table } from "./lib/provider-helpers.js";

const COUNT = Number(process.env.BENCH_COUNT ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PARALLEL = 10;

if (spawnSync("valgrind", ["--version"], { stdio: "ignore" }).status !== 0) {
  console.log("valgrind is not on the PATH (Debian: apt-get install valgrind): nothing measured");
  process.exit(0);
}

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-instr-"));
const cgDir = path.join(out, "callgrind");
mkdirSync(cgDir);
const client = pluginClient();

interface ProtoBlock {
  attributes: { name: string; type: Uint8Array }[];
  block_types: { type_name: string; block: ProtoBlock; nesting: number }[];
}
/** The cty type of a block as GetProviderSchema describes it (a tree before this one may have other attributes). */
function typeOf(b: ProtoBlock): CtyType {
  const attrs: Record<string, CtyType> = {};
  for (const a of b.attributes) attrs[a.name] = JSON.parse(Buffer.from(a.type).toString()) as CtyType;
  for (const nb of b.block_types)
    attrs[nb.type_name] =
      nb.nesting === 2
        ? ["list", typeOf(nb.block)]
        : nb.nesting === 3
          ? ["set", typeOf(nb.block)]
          : nb.nesting === 4
            ? ["map", typeOf(nb.block)]
            : typeOf(nb.block);
  return ["object", attrs];
}
interface Schemas {
  provider: CtyType;
  resource: CtyType;
  version: number;
}
const ARCH = arch() === "arm64" ? "aarch64" : "x86_64";

interface Counts {
  main: number;
  all: number;
}

/** Instructions of process `pid` (files `<pid>-<thread>`): its main thread's and all its threads'. */
function instructions(pid: number): Counts {
  const counts = { main: 0, all: 0 };
  for (const f of readdirSync(cgDir).filter((f) => f.startsWith(`${pid}-`))) {
    const n = Number(/^totals: (\d+)$/m.exec(readFileSync(path.join(cgDir, f), "utf8"))?.[1] ?? 0);
    counts.all += n;
    if (f.endsWith("-01")) counts.main = n;
    rmSync(path.join(cgDir, f));
  }
  return counts;
}

interface Contender {
  name: string;
  type?: string;
  bundle?: string;
  emulator?: BenchEmulator;
  cache: string;
}

const callgrind = (argv: string[]) =>
  ["-R", "valgrind", "-q", "--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${cgDir}/%p`, ...argv] as const;

/** Runs `fn` against a fresh provider process (under callgrind when `counted`) and returns its instructions. */
async function serve(c: Contender, counted: boolean, fn: (p: Plugin) => Promise<void>): Promise<Counts> {
  const argv = [process.execPath, c.bundle!];
  const env = { XDG_CACHE_HOME: c.cache };
  const p = counted ? await startPlugin("setarch", [ARCH, ...callgrind(argv)], client, env) : await startPlugin(argv[0]!, argv.slice(1), client, env);
  try {
    await fn(p);
  } finally {
    await p.stop();
  }
  return counted ? instructions(p.pid) : { main: 0, all: 0 };
}

/** `f(i)` for i < COUNT, PARALLEL at a time (Terraform's -parallelism=10). */
async function each(f: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < COUNT) await f(next++);
    }),
  );
}

async function configure(p: Plugin, c: Contender, s: Schemas): Promise<void> {
  const config = { msgpack: encodeMsgpack(s.provider, { base_url: c.emulator!.url, api_token: TOKEN }) };
  await p.call("ValidateProviderConfig", { config });
  await p.call("ConfigureProvider", { terraform_version: "1.11.4", config });
}

function check(rpc: string, res: Record<string, unknown>): Record<string, unknown> {
  const errors = (res.diagnostics as { severity: number; summary: string }[]).filter((d) => d.severity === 1);
  if (errors.length) throw new Error(`${rpc}: ${errors.map((d) => d.summary).join("; ")}`);
  return res;
}

/** One run of a contender: start, apply N, plan N (each a process), then its objects deleted (not counted). */
async function run(c: Contender, counted: boolean, tag: string): Promise<Record<string, Counts>> {
  let s: Schemas | undefined;
  const start = await serve(c, counted, async (p) => {
    const res = (await p.call("GetProviderSchema", {})) as {
      provider: { block: ProtoBlock };
      resource_schemas: Record<string, { version: number; block: ProtoBlock }>;
    };
    const r = res.resource_schemas[c.type!]!;
    s = { provider: typeOf(res.provider.block), resource: typeOf(r.block), version: Number(r.version) };
  });
  const { resource, version } = s!;
  const dv = (v: ObjectValue | null) => ({ msgpack: encodeMsgpack(resource, v) });
  const attributes = Object.keys((resource as ["object", Record<string, CtyType>])[1]);
  const configs: ObjectValue[] = Array.from({ length: COUNT }, (_, i) => {
    const config: ObjectValue = Object.fromEntries(attributes.map((a) => [a, null]));
    Object.assign(config, { name: `instr ${tag} ${i}`, url: `https://instr-${tag}-${i}.bench.example` });
    if ("deletion_protection" in config) config.deletion_protection = false;
    return config;
  });
  const states: ObjectValue[] = [];
  const privates: Uint8Array[] = [];
  const apply = await serve(c, counted, async (p) => {
    await configure(p, c, s!);
    await each(async (i) => void check("ValidateResourceConfig", await p.call("ValidateResourceConfig", { type_name: c.type, config: dv(configs[i]!) })));
    const planned: unknown[] = [];
    await each(async (i) => {
      const res = check(
        "PlanResourceChange",
        await p.call("PlanResourceChange", { type_name: c.type, prior_state: dv(null), proposed_new_state: dv(configs[i]!), config: dv(configs[i]!) }),
      );
      planned[i] = res.planned_state;
    });
    await each(async (i) => {
      const res = check(
        "ApplyResourceChange",
        await p.call("ApplyResourceChange", { type_name: c.type, prior_state: dv(null), planned_state: planned[i], config: dv(configs[i]!) }),
      );
      states[i] = decodeMsgpack(resource, (res.new_state as { msgpack: Uint8Array }).msgpack) as ObjectValue;
      privates[i] = res.private as Uint8Array;
    });
  });
  const plan = await serve(c, counted, async (p) => {
    await configure(p, c, s!);
    await each(async (i) => void check("ValidateResourceConfig", await p.call("ValidateResourceConfig", { type_name: c.type, config: dv(configs[i]!) })));
    await each(async (i) => {
      const upgraded = check(
        "UpgradeResourceState",
        await p.call("UpgradeResourceState", { type_name: c.type, version, raw_state: { json: Buffer.from(JSON.stringify(states[i])) } }),
      );
      const read = check("ReadResource", await p.call("ReadResource", { type_name: c.type, current_state: upgraded.upgraded_state, private: privates[i] }));
      const res = check(
        "PlanResourceChange",
        await p.call("PlanResourceChange", {
          type_name: c.type,
          prior_state: read.new_state,
          proposed_new_state: read.new_state,
          config: dv(configs[i]!),
          prior_private: read.private,
        }),
      );
      if (Buffer.compare(Buffer.from((res.planned_state as { msgpack: Uint8Array }).msgpack), Buffer.from((read.new_state as { msgpack: Uint8Array }).msgpack)))
        throw new Error(`${c.name}: the plan of ${i} is not a no-op`);
    });
  });
  if (c.type === "siteops_site") {
    await serve(c, false, async (p) => {
      await configure(p, c, s!);
      await each(
        async (i) =>
          void check(
            "ApplyResourceChange",
            await p.call("ApplyResourceChange", { type_name: c.type, prior_state: dv(states[i]!), planned_state: dv(null), config: dv(null) }),
          ),
      );
    });
  }
  return { start, apply, plan };
}

/** `node -e 0` under callgrind. */
function nodeStart(): Counts {
  const r = spawnSync("setarch", [ARCH, ...callgrind([process.execPath, "-e", "0"])], { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`node -e 0 under callgrind exited ${r.status}`);
  const f = readdirSync(cgDir).find((f) => f.endsWith("-01"))!;
  return instructions(Number(f.split("-")[0]));
}

const emulators: BenchEmulator[] = [];
try {
  const contenders: Contender[] = [];
  const trees = [{ label: "", root: undefined as string | undefined }];
  if (process.env.BENCH_BEFORE) trees.push({ label: " before", root: path.resolve(process.env.BENCH_BEFORE) });
  for (const t of trees) {
    const built = await buildProvider(path.join(out, `build${t.label.trim()}`), { bench: true, ...(t.root ? { root: t.root } : {}) });
    const emulator = await spawnEmulator([], t.root ? { root: t.root } : {});
    emulators.push(emulator);
    for (const type of ["siteops_noop", "siteops_site"])
      contenders.push({
        name: `${type}${t.label}`,
        type,
        bundle: path.join(built.dir, "siteops-provider.cjs"),
        emulator,
        cache: path.join(out, `cache${t.label.trim()}`),
      });
  }
  const loads = [loadavg()[0]!];
  // Unmeasured first: the compile cache filled, as a user's is after the first command.
  for (const c of contenders) await run(c, false, `warm-${c.name.replace(/\W+/g, "-")}`);
  const results = new Map<string, Record<string, Counts>[]>([["node -e 0", []], ...contenders.map((c) => [c.name, []] as [string, Record<string, Counts>[]])]);
  for (let r = 0; r < RUNS; r++) {
    results.get("node -e 0")!.push({ start: nodeStart() });
    for (const c of roundOrder(contenders, r)) results.get(c.name)!.push(await run(c, true, `r${r}-${c.name.replace(/\W+/g, "-")}`));
    loads.push(loadavg()[0]!);
  }
  console.log(
    `provider instructions (callgrind; M = millions, K = thousands), ${COUNT} resources, ${PARALLEL} in flight, ${RUNS} runs interleaved, medians; node ${process.version}; load ${loads.map((l) => l.toFixed(1)).join(" -> ")}.\n`,
  );
  const med = (name: string, scenario: string, f: (c: Counts) => number) => median(results.get(name)!.map((x) => f(x[scenario]!)));
  const M = (n: number) => (n / 1e6).toFixed(1);
  const K = (n: number) => (n / 1e3).toFixed(0);
  const rows = [...results.keys()].map((name) => {
    const has = (s: string) => s in results.get(name)![0]!;
    const perResource = (s: string, f: (c: Counts) => number) => (has(s) ? K(median(results.get(name)!.map((x) => (f(x[s]!) - f(x.start!)) / COUNT))) : "-");
    return [
      name,
      `${M(med(name, "start", (c) => c.main))} / ${M(med(name, "start", (c) => c.all))}`,
      has("apply") ? `${M(med(name, "apply", (c) => c.main))} / ${M(med(name, "apply", (c) => c.all))}` : "-",
      `${perResource("apply", (c) => c.main)} / ${perResource("apply", (c) => c.all)}`,
      has("plan") ? `${M(med(name, "plan", (c) => c.main))} / ${M(med(name, "plan", (c) => c.all))}` : "-",
      `${perResource("plan", (c) => c.main)} / ${perResource("plan", (c) => c.all)}`,
      results
        .get(name)!
        .map((x) => M(x.start!.main))
        .join(", "),
    ];
  });
  console.log(
    table(
      [
        "contender",
        "start M (main / all threads)",
        `apply ${COUNT} M`,
        "apply K per resource beyond the start",
        `no-op plan ${COUNT} M`,
        "plan K per resource beyond the start",
        "start M of each run (main)",
      ],
      rows,
    ),
  );
} finally {
  for (const e of emulators) await e.close();
  rmSync(out, { recursive: true, force: true });
}
