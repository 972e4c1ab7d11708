// Benchmark: where the wall time of an apply of 200 goes, `siteops_noop` (the plugin protocol floor) against
// Terraform alone. Each provider process stamps its start, RPC server ready and exit on the monotonic clock
// (bench/lib/provider-noop.ts), so the apply splits into: a provider process starting (Terraform waits for it),
// provider processes serving, and Terraform with no provider process. With Linux perf (bench/lib/perf-samples.ts),
// each part also gets who was on the CPUs, and Terraform's own CPU its functions (bench/lib/go-symbols.ts), alone
// and with the provider. BENCH_ROUNDS rounds (default 3), the two contenders in alternating order; medians (min-max).
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { goSymbolizer, type GoSymbolizer } from "./lib/go-symbols.js";
import { perfUnavailable, SAMPLE_HZ, sampled, type Sample } from "./lib/perf-samples.js";
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

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COUNT = 200;
const PHASES = ["provider starting", "provider serving", "terraform only"] as const;
type Phase = (typeof PHASES)[number];
const PARTIES = ["terraform", "provider", "idle", "other"] as const;
/** Terraform's functions by what they do, first match wins (Go runtime names, then packages). */
const GROUPS: [string, RegExp][] = [
  ["kernel (system calls, page faults)", /^\[kernel/],
  [
    "Go GC: marking and write barriers",
    /^(runtime\.(scan|findObject|grey|gc|markroot|wbBuf|bulkBarrier|shade|sweep|.*heapBits|typePointers|.*spanSet)|gcWriteBarrier)/,
  ],
  [
    "Go allocation",
    /^runtime\.(mallocgc|newobject|growslice|makeslice|memclr|nextFreeFast|deductAssistCredit|\(\*mcache\)|\(\*mcentral\)|\(\*mheap\)|\(\*mspan\))/,
  ],
  ["Go maps, copies, hashing", /^(runtime\.(map|memmove|duffcopy|memequal)|aeshash|memeqbody|cmpbody)/],
  ["Go scheduler and other runtime", /^(runtime|internal\/)/],
  ["encoding/json (the state file)", /^encoding\/json/],
  ["gRPC, HTTP/2, protobuf", /^(google\.golang\.org\/(grpc|protobuf)|golang\.org\/x\/net\/http2)/],
  ["TLS and crypto", /^(crypto\/|golang\.org\/x\/crypto)/],
  ["go-plugin", /^github\.com\/hashicorp\/go-plugin/],
  ["cty values, msgpack", /^github\.com\/(zclconf\/go-cty|vmihailenco\/msgpack)/],
  ["terraform core", /^github\.com\/hashicorp\/terraform\//],
  ["hcl", /^github\.com\/hashicorp\/hcl/],
];

interface Measured {
  run: Run;
  samples: Sample[];
}

/** The phase at `ms` of an apply with these provider processes. */
function phaseAt(run: Run, ms: number): Phase {
  if (run.providers.some((p) => ms >= p.startMs && ms <= p.readyMs)) return "provider starting";
  if (run.providers.some((p) => ms > p.readyMs && ms <= p.exitMs)) return "provider serving";
  return "terraform only";
}

/** Wall ms of each phase over the run (sampled every 0.1 ms of the monotonic clock). */
function phaseWall(run: Run): Record<Phase, number> {
  const wall: Record<Phase, number> = { "provider starting": 0, "provider serving": 0, "terraform only": 0 };
  for (let ms = run.startMs; ms < run.endMs; ms += 0.1) wall[phaseAt(run, ms)] += 0.1;
  return wall;
}

const partyOf = (run: Run, s: Sample): (typeof PARTIES)[number] =>
  s.comm === "terraform" ? "terraform" : run.providers.some((p) => p.pid === s.pid) ? "provider" : "other";

/** CPU ms of each party in each phase, from the samples inside the run; idle is what the CPUs had left. */
function phaseCpu({ run, samples }: Measured, wall: Record<Phase, number>): Record<Phase, Record<string, number>> {
  const cpu = Object.fromEntries(PHASES.map((p) => [p, Object.fromEntries(PARTIES.map((x) => [x, 0]))])) as Record<Phase, Record<string, number>>;
  // The idle task's samples (pid 0) are skipped: a tickless idle CPU is not sampled at the fixed rate.
  for (const s of samples) if (s.pid !== 0 && s.ms >= run.startMs && s.ms <= run.endMs) cpu[phaseAt(run, s.ms)][partyOf(run, s)]! += 1000 / SAMPLE_HZ;
  for (const phase of PHASES) cpu[phase].idle = Math.max(0, cpus().length * wall[phase] - PARTIES.reduce((t, p) => t + cpu[phase][p]!, 0));
  return cpu;
}

const symbolizers = new Map<string, GoSymbolizer | undefined>();
/** Terraform's CPU ms by group of functions. */
function terraformCpu({ run, samples }: Measured): Map<string, number> {
  const groups = new Map<string, number>();
  for (const s of samples) {
    if (s.comm !== "terraform" || s.ms < run.startMs || s.ms > run.endMs) continue;
    let name: string | undefined = s.object;
    if (!s.object.startsWith("[")) {
      if (!symbolizers.has(s.object)) symbolizers.set(s.object, goSymbolizer(s.object));
      name = symbolizers.get(s.object)?.(s.address);
    }
    const group = (name && GROUPS.find(([, re]) => re.test(name!))?.[0]) ?? "other";
    groups.set(group, (groups.get(group) ?? 0) + 1000 / SAMPLE_HZ);
  }
  return groups;
}

const noPerf = perfUnavailable();
const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-timeline-"));
const ws = new Workspace(await buildProvider(path.join(out, "build"), { bench: true }));
try {
  const apply = ["apply", "-auto-approve", "-input=false"];
  const destroy = ["destroy", "-auto-approve", "-input=false", "-parallelism=50"];
  const env = { XDG_CACHE_HOME: path.join(out, "cache") };
  // The provider block only configures it: siteops_noop makes no API call, so no emulator runs.
  const dirs = [
    ws.dir("alone", { "main.tf": dataHcl(COUNT) }),
    ws.dir("noop", { "main.tf": providerHcl("http://127.0.0.1:9", "unused") + sitesHcl("siteops_noop", COUNT, "timeline") }),
  ];
  for (const d of dirs) {
    await ws.terraform(d, ["init", "-input=false"]);
    await ws.terraform(d, apply, { env }); // warm-up, as after a user's first command (and the compile cache)
    await ws.terraform(d, destroy, { env });
  }
  const measured: Measured[][] = [[], []];
  for (let r = 0; r < ROUNDS; r++)
    for (const i of roundOrder([0, 1], r)) {
      const measure = () => ws.measure(dirs[i]!, apply, { env });
      measured[i]!.push(
        noPerf
          ? { run: await measure(), samples: [] }
          : await sampled(path.join(out, "perf.data"), measure).then(({ result, samples }) => ({ run: result, samples })),
      );
      await ws.terraform(dirs[i]!, destroy, { env });
    }

  const [alone, noop] = measured as [Measured[], Measured[]];
  console.log(
    `terraform apply of ${COUNT}, ${ROUNDS} rounds, ${cpus().length} CPUs, node ${process.version}; ${noPerf ? `no CPU samples: ${noPerf}` : `perf sampling every CPU at ${SAMPLE_HZ} Hz`}.\n`,
  );
  const ms = (values: number[], digits: number) => spread(values, 1, digits);
  const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
  const seconds = (list: Measured[], of: (run: Run) => number) =>
    spread(
      list.map((m) => of(m.run)),
      1000,
    );
  const row = (name: string, list: Measured[], provider: boolean) => [
    name,
    seconds(list, (r) => r.wallMs),
    seconds(list, (r) => r.terraformCpuMs),
    provider ? seconds(list, (r) => sum(r.providers.map((p) => p.cpuMs))) : "-",
  ];
  console.log(table(["apply of 200", "wall s", "terraform CPU s", "provider CPU s"], [row("terraform alone", alone, false), row("siteops_noop", noop, true)]));

  const walls = noop.map((m) => phaseWall(m.run));
  const cpuByPhase = noPerf ? [] : noop.map((m, k) => phaseCpu(m, walls[k]!));
  const cores = (phase: Phase, party: string) =>
    ms(
      cpuByPhase.map((c, k) => c[phase][party]! / walls[k]![phase]),
      2,
    );
  console.log(
    "\nThe apply of 200 siteops_noop by phase (a provider process starting: from its Node's start to its RPC server ready; serving: from ready to exit):\n",
  );
  console.log(
    table(
      ["phase", "wall ms", "share of the apply", ...(noPerf ? [] : PARTIES.map((p) => `${p} (CPUs busy)`))],
      PHASES.map((phase) => [
        phase,
        ms(
          walls.map((w) => w[phase]),
          0,
        ),
        `${ms(
          walls.map((w, k) => (100 * w[phase]) / noop[k]!.run.wallMs),
          0,
        )} %`,
        ...(noPerf ? [] : PARTIES.map((p) => cores(phase, p))),
      ]),
    ),
  );

  // Each run's provider processes in the order Terraform started them: schema, validate, plan, apply.
  const kinds = ["schema", "validate", "plan", "apply"];
  const ordered = noop.map((m) => [...m.run.providers].sort((a, b) => a.startMs - b.startMs));
  const across = (k: number, of: (procs: ProviderProcess[]) => number) => ms(ordered.filter((o) => o[k]).map(of), 1);
  console.log("\nEach provider process of the apply (in the order Terraform starts them):\n");
  console.log(
    table(
      ["process", "start to ready ms", "ready to exit ms", "gap to the next start ms"],
      kinds.map((kind, k) => [
        kind,
        across(k, (o) => o[k]!.readyMs - o[k]!.startMs),
        across(k, (o) => o[k]!.exitMs - o[k]!.readyMs),
        k < kinds.length - 1 ? across(k + 1, (o) => o[k + 1]!.startMs - o[k]!.exitMs) : "-",
      ]),
    ),
  );

  if (!noPerf) {
    const groupsAlone = alone.map(terraformCpu);
    const groupsNoop = noop.map(terraformCpu);
    const names = [...GROUPS.map(([g]) => g), "other"];
    const of = (list: Map<string, number>[], g: string) => list.map((m) => m.get(g) ?? 0);
    console.log("\nTerraform's own CPU by what its functions do (its process only, samples symbolized through .gopclntab), ms:\n");
    console.log(
      table(
        ["functions", "terraform alone", "with siteops_noop", "difference of the medians"],
        [
          ...names.map((g) => [g, ms(of(groupsAlone, g), 0), ms(of(groupsNoop, g), 0), (median(of(groupsNoop, g)) - median(of(groupsAlone, g))).toFixed(0)]),
          [
            "total",
            ms(
              groupsAlone.map((m) => sum(m.values())),
              0,
            ),
            ms(
              groupsNoop.map((m) => sum(m.values())),
              0,
            ),
            "",
          ],
        ],
      ),
    );
  }
} finally {
  ws.close();
  rmSync(out, { recursive: true, force: true });
}
