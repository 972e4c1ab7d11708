// Benchmark 1: provider process start to handshake line, vs `node -e 0` start to exit, 20 launches each,
// interleaved, medians. Target: <= 1.3x. Also shown: start to the first answered RPC (GetProviderSchema
// over mutual TLS), since the provider finishes loading HTTP/2 after printing the handshake line.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch, pluginClient, pluginEnv } from "./lib/plugin-launch.js";
import { buildProvider, median, table } from "./lib/provider-helpers.js";

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
} finally {
  rmSync(out, { recursive: true, force: true });
}
