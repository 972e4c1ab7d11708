// Benchmark: how much of the provider's own CPU per RPC is on Terraform's critical path in an apply of 200.
// siteops_noop (the plugin protocol floor, bench/lib/provider-noop.ts) is applied as it is and made slower by a
// known busy wait at the start of every RPC (SITEOPS_BENCH_RPC_SPIN_US: 0, 500, 1000 us), with Terraform alone
// in the same rounds. The wall time each added ms of provider CPU costs the apply says what a faster provider
// could still gain: 1.0 if Terraform waited for every reply in turn, 0 if the provider were never waited for.
// Also each provider process of the apply as built (schema, validate, plan, apply): its lifetime and CPU.
// BENCH_ROUNDS rounds (default 5), contenders in an order that rotates each round (roundOrder); medians with the min-max range.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnEmulator, TOKEN } from "./lib/core-helpers.js";
import { nodeStartMs } from "./lib/machine-speed.js";
import {
  buildProvider,
  dataHcl,
  median,
  providerHcl,
  roundOrder,
  sitesHcl,
  spread,
  table,
  Workspace,
  type ProviderProcess,
  type Run,
} from "./lib/provider-helpers.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const COUNT = 200;
const SPINS_US = [0, 500, 1000];
const ALONE = "terraform alone";
const contenders = [ALONE, ...SPINS_US.map((us) => `siteops_noop +${us} us per RPC`)];

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-critical-"));
const emulator = await spawnEmulator([]);
const ws = new Workspace(await buildProvider(path.join(out, "build"), { bench: true }));
try {
  const apply = ["apply", "-auto-approve", "-input=false"];
  const destroy = ["destroy", "-auto-approve", "-input=false", "-parallelism=50"];
  const env = (i: number) => ({ XDG_CACHE_HOME: path.join(out, "cache"), SITEOPS_BENCH_RPC_SPIN_US: String(SPINS_US[i - 1] ?? 0) });
  const dirs = contenders.map((_, i) =>
    ws.dir(`apply-${i}`, { "main.tf": i === 0 ? dataHcl(COUNT) : providerHcl(emulator.url, TOKEN) + sitesHcl("siteops_noop", COUNT, `critical-${i}`) }),
  );
  for (const d of dirs) await ws.terraform(d, ["init", "-input=false"]);
  await ws.terraform(dirs[1]!, apply, { env: env(1) }); // warms the provider's compile cache, as after a user's first command
  await ws.terraform(dirs[1]!, destroy, { env: env(1) });

  const runs: Run[][] = contenders.map(() => []);
  const speeds: number[] = [];
  const loads: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const i of roundOrder([...contenders.keys()], r)) {
      runs[i]!.push(await ws.measure(dirs[i]!, apply, { env: env(i), emulatorPid: emulator.pid }));
      await ws.terraform(dirs[i]!, destroy, { env: env(i) });
    }
    loads.push(loadavg()[0]!);
    speeds.push(nodeStartMs());
  }

  const rpcs = (run: Run) => run.providers.reduce((t, p) => t + Object.values(p.rpcs).reduce((s, x) => s + x.calls, 0), 0);
  const cpu = (run: Run) => run.providers.reduce((t, p) => t + p.cpuMs, 0);
  const seconds = (ms: number[]) => spread(ms, 1000);
  console.log(`terraform apply of ${COUNT}, ${ROUNDS} rounds interleaved, default -parallelism=10; node ${process.version}; load after the rounds`);
  console.log(`${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}; node -e 0 after the rounds ${spread(speeds, 1, 1)} ms.\n`);
  console.log(
    table(
      ["contender", "apply s", "/ terraform alone", "RPCs", "provider CPU s (all processes)"],
      contenders.map((name, i) => {
        const own = runs[i]!;
        return [
          name,
          seconds(own.map((r) => r.wallMs)),
          `${spread(own.map((r, k) => r.wallMs / runs[0]![k]!.wallMs))}x`,
          i === 0 ? "-" : median(own.map(rpcs)),
          i === 0 ? "-" : seconds(own.map(cpu)),
        ];
      }),
    ),
  );
  // The provider processes of one apply, one after the other, named by the last RPC Terraform sent each.
  const noop = runs[1]!;
  const role = (p: ProviderProcess) =>
    p.rpcs.applyResourceChange ? "apply" : p.rpcs.planResourceChange ? "plan" : p.rpcs.validateResourceConfig ? "validate" : "schema";
  const roles = [...new Set(noop.flatMap((r) => r.providers.map(role)))];
  const of = (name: string) => noop.flatMap((r) => r.providers.filter((p) => role(p) === name));
  console.log(
    "\n" +
      table(
        ["siteops_noop as built: provider process", "lifetime s", "CPU s", "CPU to ready ms"],
        roles.map((name) => [
          name,
          seconds(of(name).map((p) => p.wallMs)),
          seconds(of(name).map((p) => p.cpuMs)),
          spread(
            of(name).map((p) => p.readyCpuMs),
            1,
            0,
          ),
        ]),
      ),
  );
  // Per round: the apply's added wall time over the provider CPU the busy waits added (RPCs x wait).
  const slopes = SPINS_US.slice(1).map((us, j) => {
    const i = j + 2;
    return runs[i]!.map((run, k) => (run.wallMs - runs[1]![k]!.wallMs) / ((rpcs(run) * us) / 1000));
  });
  console.log(
    "\n" +
      table(
        ["busy wait per RPC", "apply wall added per ms of provider CPU added (per round)"],
        SPINS_US.slice(1).map((us, j) => [`${us} us`, `${spread(slopes[j]!)} ms`]),
      ),
  );
  const busy = noop.map((r) => cpu(r) - r.providers.reduce((t, p) => t + p.readyCpuMs, 0));
  const share = median(slopes.flat());
  console.log(
    `\nsiteops_noop as built: the provider's CPU serving RPCs (all processes, start-up excluded) ${spread(busy, 1000)} s; at ${share.toFixed(2)} ms of wall` +
      ` per ms of it, ~${((median(busy) * share) / 1000).toFixed(2)} s of its ${(median(noop.map((r) => r.wallMs)) / 1000).toFixed(2)} s apply.`,
  );
} finally {
  ws.close();
  await emulator.close();
  rmSync(out, { recursive: true, force: true });
}
