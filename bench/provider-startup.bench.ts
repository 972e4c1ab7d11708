// Benchmark 1: provider process start to handshake line, vs `node -e 0` start to exit, 20 launches each,
// interleaved, medians. Target: <= 1.3x. Also shown: start to the first answered RPC (GetProviderSchema
// over mutual TLS), since the provider finishes loading HTTP/2 after printing the handshake line.
// Then CPU time to ready (user + system, read in the process): the provider's RPC server ready against what any
// Node.js plugin must do first (bench/lib/node-plugin-floor.cjs: Node alone, + node:tls, + a key and a listening
// socket), so the provider's own share of its start is apart from Node's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch, pluginClient, pluginEnv, startPlugin } from "./lib/plugin-launch.js";
import { buildProvider, median, ROOT, spread, table } from "./lib/provider-helpers.js";

const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 20);

// Terraform's side of AutoMTLS: a client certificate in PLUGIN_CLIENT_CERT (Terraform uses P-521).
const client = pluginClient();

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-startup-"));
try {
  const provider = await buildProvider(out);
  const env = pluginEnv(client);
  const node: number[] = [];
  const handshake: number[] = [];
  const firstReply: number[] = [];
  await launch(provider.launcher, [], env, client); // warm the page cache
  for (let i = 0; i < LAUNCHES; i++) {
    node.push((await launch(process.execPath, ["-e", "0"], env)).handshake);
    const p = await launch(provider.launcher, [], env, client);
    handshake.push(p.handshake);
    firstReply.push(p.firstReply);
  }
  const base = median(node);
  const row = (name: string, values: number[]) => [name, median(values).toFixed(1), Math.min(...values).toFixed(1), `${(median(values) / base).toFixed(2)}x`];
  console.log(`${LAUNCHES} launches each, interleaved; wall-clock ms\n`);
  console.log(
    table(
      ["process", "median ms", "min ms", "ratio (medians)"],
      [
        row("node -e 0 (start to exit)", node),
        row("provider launcher: start to handshake line", handshake),
        row("provider launcher: start to first RPC answered (mTLS)", firstReply),
      ],
    ),
  );
  console.log(
    `\nratio ${(median(handshake) / base).toFixed(2)}x to the handshake line (target <= 1.3x); ${(median(firstReply) / base).toFixed(2)}x to the first answered RPC`,
  );
  await cpuToReady(out);
} finally {
  rmSync(out, { recursive: true, force: true });
}

/** CPU time to ready, interleaved: the floor's three steps and the provider (built with the bench's stats). */
async function cpuToReady(dir: string): Promise<void> {
  const floor = path.join(ROOT, "bench/lib/node-plugin-floor.cjs");
  const built = await buildProvider(path.join(dir, "stats"), { bench: true });
  const stats = path.join(dir, "stats.jsonl");
  const rows: Record<string, number[]> = { node: [], tls: [], "tls-server": [], provider: [] };
  for (let i = 0; i < LAUNCHES; i++) {
    for (const mode of ["node", "tls", "tls-server"]) {
      rows[mode]!.push(Number(execFileSync(process.execPath, [floor, mode, path.join(dir, `floor-${i}.sock`)], { encoding: "utf8" })));
    }
    rmSync(stats, { force: true });
    const plugin = await startPlugin(built.launcher, [], client, { SITEOPS_BENCH_STATS: stats });
    await plugin.stop();
    rows.provider!.push((JSON.parse(readFileSync(stats, "utf8").trim()) as { readyCpuMs: number }).readyCpuMs);
  }
  const label: Record<string, string> = {
    node: "Node.js alone",
    tls: "Node.js + node:tls loaded",
    "tls-server": "+ node:net, node:crypto, an EC key, a socket listening (a Node plugin's floor)",
    provider: "the provider: RPC server ready (certificate, handshake line, TLS, the RPC half)",
  };
  console.log(`\nCPU time to ready, ms (user + system, read in the process), ${LAUNCHES} launches each, interleaved\n`);
  console.log(
    table(
      ["process", "median ms (min-max)", "above Node.js alone ms"],
      Object.entries(rows).map(([k, v]) => [label[k]!, spread(v, 1, 1), (median(v) - median(rows.node!)).toFixed(1)]),
    ),
  );
  const own = median(rows.provider!) - median(rows["tls-server"]!);
  console.log(
    `\nthe provider's own share of its start: ${own.toFixed(1)} ms of ${median(rows.provider!).toFixed(1)} (${((own / median(rows.provider!)) * 100).toFixed(0)} %)`,
  );
}
