// Bench-only serve entry of the provider (built with buildProvider({ serveEntry }), never into the shipped
// provider): the siteops provider plus `siteops_noop`, a resource with siteops_site's schema, validators and
// plan modifiers that makes no API call at all. Its apply and plan cost Terraform's per-resource plugin
// protocol work (validate, plan, apply RPCs, msgpack, state) in this provider, apart from the API and the
// emulator: the protocol floor siteops_site is compared with.
//
// With SITEOPS_BENCH_STATS=<file>, each provider process appends one JSON line on exit: its CPU time, its
// lifetime, peak RSS, per RPC the number of calls and their summed wall time, and when it started, was ready
// and exited on the monotonic clock (ms; the clock `perf record -k CLOCK_MONOTONIC` stamps samples with).
// SITEOPS_BENCH_RPC_SPIN_US=<us> makes every RPC busy-wait that long first: a provider slower by a known CPU
// cost per RPC (bench/provider-critical-path.bench.ts).
import { appendFileSync } from "node:fs";
import { ProviderServer } from "../../provider/framework/provider-server.js";
import type { Resource } from "../../provider/framework/resource.js";
import type { RpcModule } from "../../provider/protocol/plugin-server.js";
import { startRpcServer } from "../../provider/protocol/rpc-server.js";
import type { ProviderData } from "../../provider/provider-data.js";
import { siteopsProvider } from "../../provider/provider.js";
import { siteSchema, type SiteModel } from "../../provider/resources/site-schema.js";

let created = 0;

const noopResource: Resource<ProviderData, typeof siteSchema, "id"> = {
  typeName: "siteops_noop",
  schema: siteSchema,
  identity: "id",
  async create({ plan }) {
    const now = new Date().toISOString();
    const state: SiteModel = {
      ...plan,
      id: `noop_${process.pid}_${++created}`,
      wp_version: plan.wp_version ?? "6.4",
      php_version: plan.php_version ?? "8.2",
      status: "unknown",
      created_at: now,
    };
    return { state, private: { updated_at: now } };
  },
  async read({ state, private: priv }) {
    const { name, url } = state;
    if (name === null || url === null) return { state: null }; // an import: nothing to read it from
    return { state: { ...state, name, url }, private: priv };
  },
  async update({ plan, prior }) {
    return { state: { ...plan, status: prior.status } };
  },
  async delete() {},
};

interface RpcStats {
  calls: number;
  wallMs: number;
}

/** ProviderServer's methods that serve an RPC each. */
const RPCS = [
  "getMetadata",
  "getProviderSchema",
  "validateProviderConfig",
  "validateResourceConfig",
  "validateDataResourceConfig",
  "configureProvider",
  "upgradeResourceState",
  "readResource",
  "planResourceChange",
  "applyResourceChange",
  "importResourceState",
  "readDataSource",
] as const;

/** CPU time of this process when its RPC server was ready (start-up: Node, bundles, certificate, TLS). */
let readyCpuMs = 0;
/** When the RPC server was ready, ms on the monotonic clock. */
let readyMs = 0;
/** CLOCK_MONOTONIC in ms, as libuv reads it. */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

function instrument(server: ProviderServer<unknown>, file: string): void {
  const spin = BigInt(Math.round(Number(process.env.SITEOPS_BENCH_RPC_SPIN_US ?? 0) * 1000));
  const rpcs: Record<string, RpcStats> = {};
  const methods = server as unknown as Record<string, (req: unknown) => unknown>;
  for (const name of RPCS) {
    const original = methods[name]!;
    const stats = (rpcs[name] = { calls: 0, wallMs: 0 });
    methods[name] = async (req: unknown) => {
      // hrtime, not performance.now(): that would load node:perf_hooks in every process, which the shipped
      // provider never does, and the bench measures the shipped provider's start.
      const started = process.hrtime.bigint();
      if (spin) while (process.hrtime.bigint() - started < spin);
      try {
        return await original.call(server, req);
      } finally {
        stats.calls++;
        stats.wallMs += Number(process.hrtime.bigint() - started) / 1e6;
      }
    };
  }
  process.on("exit", () => {
    const cpu = process.cpuUsage();
    const used = Object.fromEntries(Object.entries(rpcs).filter(([, s]) => s.calls > 0));
    appendFileSync(
      file,
      JSON.stringify({
        pid: process.pid,
        cpuMs: (cpu.user + cpu.system) / 1000,
        readyCpuMs,
        wallMs: Math.round(process.uptime() * 1000),
        startMs: monotonicMs() - process.uptime() * 1000,
        readyMs,
        exitMs: monotonicMs(),
        maxRssKb: process.resourceUsage().maxRSS,
        rpcs: used,
      }) + "\n",
    );
  });
}

export const rpc: RpcModule = {
  async start(options) {
    const def = siteopsProvider();
    const server = new ProviderServer({ ...def, resources: [...def.resources, noopResource] }) as ProviderServer<unknown>;
    const stats = process.env.SITEOPS_BENCH_STATS;
    if (stats) instrument(server, stats);
    const started = await startRpcServer(server, options);
    const cpu = process.cpuUsage();
    readyCpuMs = (cpu.user + cpu.system) / 1000;
    readyMs = monotonicMs();
    return started;
  },
};
