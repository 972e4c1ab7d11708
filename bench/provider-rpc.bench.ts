// Benchmark 3: the provider's CPU per RPC, without Terraform. A gRPC client in this process plays Terraform's
// part over the real transport (mutual TLS, HTTP/2 on the unix socket from the handshake line) and sends
// the RPCs of an apply for N resources, 10 at a time as `-parallelism=10` does: ValidateResourceConfig,
// PlanResourceChange, ApplyResourceChange, each phase measured apart. The provider's CPU is read from
// /proc (all its threads), so the client's own work is not counted, and CPU time does not grow when other
// processes preempt it the way wall time does: compare builds by these figures on a busy machine.
// Contenders: siteops_noop (no API call) and siteops_site (against the emulator in its own process).
// BENCH_RPC_COUNT resources (default 500), BENCH_ROUNDS rounds (default 5) interleaved; medians (min-max).
// BENCH_PROFILE=1 also writes a CPU profile of one provider process per contender and prints its breakdown
// (kept in BENCH_PROFILE_DIR when set, to open in Chrome DevTools). BENCH_BEFORE=<another checkout> (e.g.
// `git worktree add --detach /tmp/before main`) builds that one's provider too and runs its two contenders,
// "(before)", interleaved in the same rounds: a change's before and after under the same load.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { blockType } from "../provider/framework/schema.js";
import { siteSchema } from "../provider/resources/site-schema.js";
import { UNKNOWN, type ObjectValue } from "../provider/values/cty.js";
import { encodeMsgpack } from "../provider/values/cty-msgpack.js";
import { spawnEmulator, TOKEN } from "./lib/core-helpers.js";
import { pluginClient, startPlugin, type Plugin } from "./lib/plugin-launch.js";
import { categoryTable, PRELOAD, providerCategory } from "./lib/provider-breakdown.js";
import { loadSamples } from "./lib/provider-profile.js";
import { buildProvider, processCpuMs, ROOT, roundOrder, spread, table } from "./lib/provider-helpers.js";

const COUNT = Number(process.env.BENCH_RPC_COUNT ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PARALLEL = 10;
const PHASES = ["ValidateResourceConfig", "PlanResourceChange", "ApplyResourceChange"] as const;
type Phase = (typeof PHASES)[number];

const siteType = blockType(siteSchema);
const client = pluginClient();

const dv = (v: ObjectValue | null) => ({ msgpack: encodeMsgpack(siteType, v) });
const configOf = (i: number): ObjectValue => ({
  id: null,
  name: `rpc ${i}`,
  url: `https://rpc-${process.pid}-${Date.now()}-${i}.bench.example`,
  wp_version: null,
  php_version: null,
  status: null,
  created_at: null,
});

/** Runs `phase` for `count` resources, PARALLEL at a time; resolves with the provider's CPU ms for it. */
async function phase(p: Plugin, type: string, name: Phase, configs: ObjectValue[], planned: Map<number, unknown>): Promise<number> {
  const before = processCpuMs(p.pid);
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < configs.length) {
        const i = next++;
        const config = dv(configs[i]!);
        if (name === "ValidateResourceConfig") await p.call(name, { type_name: type, config });
        else if (name === "PlanResourceChange") {
          const proposed = dv({ ...configs[i]!, id: UNKNOWN, wp_version: UNKNOWN, php_version: UNKNOWN, status: UNKNOWN, created_at: UNKNOWN });
          const res = await p.call(name, { type_name: type, prior_state: dv(null), proposed_new_state: proposed, config });
          planned.set(i, res.planned_state);
        } else {
          const res = await p.call(name, { type_name: type, prior_state: dv(null), planned_state: planned.get(i), config });
          if ((res.diagnostics as unknown[]).length) throw new Error(`ApplyResourceChange: ${JSON.stringify(res.diagnostics)}`);
        }
      }
    }),
  );
  return processCpuMs(p.pid) - before;
}

async function runOnce(launcher: string, type: string, emulatorUrl: string, env?: Record<string, string>): Promise<Record<Phase, number>> {
  const p = await startPlugin(launcher, [], client, env);
  try {
    await p.call("GetProviderSchema", {});
    const providerType = blockType({
      description: "",
      attributes: Object.fromEntries(
        ["base_url", "api_token", "email", "password", "otp"].map((k) => [k, { type: "string", optional: true, description: "" }]),
      ),
    });
    const config = encodeMsgpack(["object", { ...(providerType[1] as object), max_retries: "number", request_timeout: "number", max_concurrency: "number" }], {
      base_url: emulatorUrl,
      api_token: TOKEN,
    });
    await p.call("ConfigureProvider", { terraform_version: "1.11.4", config: { msgpack: config } });
    const configs = Array.from({ length: COUNT }, (_, i) => configOf(i));
    const planned = new Map<number, unknown>();
    const out = {} as Record<Phase, number>;
    for (const name of PHASES) out[name] = await phase(p, type, name, configs, planned);
    return out;
  } finally {
    await p.stop();
  }
}

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-rpcbench-"));
const emulator = await spawnEmulator([]);
try {
  const built = await buildProvider(path.join(out, "build"), { bench: true });
  const before = process.env.BENCH_BEFORE;
  const launchers = new Map([["", built.launcher]]);
  if (before) launchers.set(" (before)", (await buildProvider(path.join(out, "before"), { bench: true, root: before })).launcher);
  const types = ["siteops_noop", "siteops_site"];
  const contenders = [...launchers.keys()].flatMap((suffix) => types.map((t) => t + suffix));
  /** A contender is a resource type, then the build's suffix. */
  const run = (c: string) => {
    const space = c.indexOf(" ");
    return space < 0 ? runOnce(built.launcher, c, emulator.url) : runOnce(launchers.get(c.slice(space))!, c.slice(0, space), emulator.url);
  };
  const results = new Map(contenders.map((c) => [c, PHASES.map(() => [] as number[])]));
  await runOnce(built.launcher, "siteops_noop", emulator.url); // warm up the page cache and the emulator
  const load = [loadavg()[0]!];
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of roundOrder(contenders, r)) {
      const cpu = await run(c);
      PHASES.forEach((ph, k) => results.get(c)![k]!.push((cpu[ph] * 1000) / COUNT));
    }
  }
  load.push(loadavg()[0]!);
  console.log(
    `provider CPU per RPC (us), ${COUNT} resources, ${PARALLEL} in flight, ${ROUNDS} rounds interleaved; median (min-max). Load average ${load.map((l) => l.toFixed(2)).join(" -> ")}.\n`,
  );
  const rows = PHASES.map((ph, k) => [ph, ...contenders.map((c) => spread(results.get(c)![k]!, 1, 0))]);
  const total = (c: string) => results.get(c)![0]!.map((_, round) => PHASES.reduce((t, _p, k) => t + results.get(c)![k]![round]!, 0));
  rows.push(["all three (one resource's apply, but 2 validates and 2 plans in Terraform)", ...contenders.map((c) => spread(total(c), 1, 0))]);
  console.log(table(["RPC", ...contenders], rows));

  if (process.env.BENCH_PROFILE === "1") {
    const columns = [];
    for (const c of types) {
      const kept = process.env.BENCH_PROFILE_DIR ?? path.join(out, "profiles");
      const dir = path.join(kept, c);
      mkdirSync(dir, { recursive: true });
      // Built beside the profiles: reading them maps the bundle's lines back to its modules.
      const unminified = await buildProvider(path.join(kept, `build-${c}`), { bench: true, minify: false });
      await runOnce(unminified.launcher, c, emulator.url, { NODE_OPTIONS: `--require ${PRELOAD}`, SITEOPS_CPU_PROFILE_DIR: dir });
      columns.push({ name: c, samples: readdirSync(dir).flatMap((f) => loadSamples(path.join(dir, f), ROOT)) });
    }
    console.log(`\nOne profiled provider process per contender (unminified), ms in total (us per resource, all three RPCs):\n`);
    console.log(categoryTable(columns, providerCategory, COUNT));
  }
} finally {
  await emulator.close();
  rmSync(out, { recursive: true, force: true });
}
