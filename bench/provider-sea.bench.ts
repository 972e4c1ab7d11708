// Benchmark: the provider as a single executable (what `npm run build:release` packs, for this machine), from
// spawn to the handshake line and to the first answered RPC, against `node -e 0` of the Node.js it is made of,
// 20 launches each, interleaved, medians. Target: <= 1.3x. Also measured in the same run: the Node launcher
// (on this machine's Node.js, and on the executable's Node.js through SITEOPS_NODE), this machine's
// `node -e 0`, and two SEA options that could cut start-up: useCodeCache, and useSnapshot (everything loaded
// into a V8 startup snapshot at build time). Prints the executable's size and its zip's.
// Run: npm run bench -- provider-sea   (BENCH_LAUNCHES=n for another count)
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { launch, pluginClient, pluginEnv, type Launch } from "./lib/plugin-launch.js";
import { median, ratio } from "./lib/processes.js";
import { buildProvider, ROOT, table } from "./lib/provider-helpers.js";

const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 20);
const WARMUP = 2;

interface Sea {
  buildSeaBlob(o: {
    root: string;
    work: string;
    options?: Record<string, unknown>;
    entry?: string;
    define?: Record<string, string>;
  }): Promise<{ blob: string; nodeVersion: string }>;
  injectBlob(o: { root: string; target: string; blob: string; outFile: string }): string;
  nodeBinary(o: { root: string; target: string; log?: (m: string) => void }): { node: string; version: string };
  hostTarget(): string | undefined;
}
const sea = (await import(pathToFileURL(path.join(ROOT, "scripts/sea.mjs")).href)) as Sea;
const { zipFiles } = (await import(pathToFileURL(path.join(ROOT, "scripts/release-zip.mjs")).href)) as {
  zipFiles(f: { name: string; data: Buffer; mode: number }[]): Buffer;
};
const { descriptor } = (await import(pathToFileURL(path.join(ROOT, "scripts/build-provider.mjs")).href)) as { descriptor(root: string): unknown };

const target = sea.hostTarget();
if (!target) throw new Error(`provider-sea: single executables are built on linux x64/arm64, not ${process.platform} ${process.arch}`);
const log = (m: string) => console.error(`provider-sea: ${m}`);
const node24 = sea.nodeBinary({ root: ROOT, target, log });
const work = mkdtempSync(path.join(tmpdir(), "siteops-provider-sea-"));

/** A SEA of the provider for this machine with extra SEA options (or another entry). */
async function buildVariant(name: string, options: Record<string, unknown> = {}, entry?: string, define?: Record<string, string>): Promise<string> {
  const { blob } = await sea.buildSeaBlob({ root: ROOT, work: path.join(work, name), options, entry, define });
  return sea.injectBlob({ root: ROOT, target: target!, blob, outFile: path.join(work, name, "bin", "terraform-provider-siteops") });
}

// The snapshot variant's entry: the provider and its RPC half loaded while the snapshot is built; at run time
// the process starts from that heap and only serves.
const snapshotEntry = path.join(work, "snapshot-entry.ts");
writeFileSync(
  snapshotEntry,
  `import v8 from "node:v8";
import { servePlugin } from ${JSON.stringify(path.join(ROOT, "provider/protocol/plugin-server.js"))};
import { rpc } from ${JSON.stringify(path.join(ROOT, "provider/serve.js"))};
v8.startupSnapshot.setDeserializeMainFunction(() => {
  servePlugin(async () => rpc).catch((err) => { process.stderr.write(String(err) + "\\n"); process.exit(1); });
});
`,
);

try {
  log(`building the executables (Node.js ${node24.version}, ${target})`);
  const release = await buildVariant("release");
  const codeCache = await buildVariant("code-cache", { useCodeCache: true });
  let snapshot: string | undefined;
  try {
    // The protocol descriptor compiled in, or the provider would read the .proto at run time.
    snapshot = await buildVariant("snapshot", { useSnapshot: true, assets: {} }, snapshotEntry, { __TFPLUGIN6_DESCRIPTOR__: JSON.stringify(descriptor(ROOT)) });
  } catch (err) {
    console.log(`(useSnapshot: not measured: ${(err as Error).message.split("\n")[0]})`);
  }
  const launcher = await buildProvider(path.join(work, "launcher"));

  const client = pluginClient();
  const env = pluginEnv(client);
  const contenders: { label: string; cmd: string; args: string[]; env: NodeJS.ProcessEnv; plugin: boolean }[] = [
    { label: `node -e 0, Node.js ${node24.version} (the executable's)`, cmd: node24.node, args: ["-e", "0"], env, plugin: false },
    { label: "single executable (release build)", cmd: release, args: [], env, plugin: true },
    { label: "single executable, useCodeCache", cmd: codeCache, args: [], env, plugin: true },
    ...(snapshot ? [{ label: "single executable, useSnapshot", cmd: snapshot, args: [], env, plugin: true }] : []),
    {
      label: `Node launcher on Node.js ${node24.version} (SITEOPS_NODE)`,
      cmd: launcher.launcher,
      args: [],
      env: { ...env, SITEOPS_NODE: node24.node },
      plugin: true,
    },
    { label: `node -e 0, Node.js ${process.versions.node} (this machine's)`, cmd: process.execPath, args: ["-e", "0"], env, plugin: false },
    { label: `Node launcher on Node.js ${process.versions.node} (this machine's)`, cmd: launcher.launcher, args: [], env, plugin: true },
  ];
  const results: Launch[][] = contenders.map(() => []);
  for (let i = 0; i < WARMUP + LAUNCHES; i++) {
    for (const [j, c] of contenders.entries()) {
      const r = await launch(c.cmd, c.args, c.env, c.plugin ? client : undefined);
      if (i >= WARMUP) results[j]!.push(r);
    }
  }
  const base = median(results[0]!.map((r) => r.handshake));
  const base20 = median(results[5]!.map((r) => r.handshake));
  console.log(`${LAUNCHES} launches each, interleaved; wall-clock ms from spawn (node -e 0: to exit)\n`);
  console.log(
    table(
      ["process", "handshake median", "min", "vs node -e 0 (Node 24)", "first RPC median", "vs node -e 0 (Node 24)"],
      contenders.map((c, j) => {
        const h = median(results[j]!.map((r) => r.handshake));
        const f = median(results[j]!.map((r) => r.firstReply));
        return [
          c.label,
          h.toFixed(1),
          Math.min(...results[j]!.map((r) => r.handshake)).toFixed(1),
          ratio(h, base),
          c.plugin ? f.toFixed(1) : "",
          c.plugin ? ratio(f, base) : "",
        ];
      }),
    ),
  );
  const h = (j: number) => median(results[j]!.map((r) => r.handshake));
  const launcherIndex = contenders.length - 1;
  const low = (j: number) => Math.min(...results[j]!.map((r) => r.handshake));
  console.log(`\nsingle executable to the handshake line / node -e 0 of its Node.js: ${ratio(h(1), base)} (target <= 1.3x)`);
  // Minimums move less than medians when other work shares the machine.
  console.log(`the same, fastest launch of each: ${ratio(low(1), low(0))}`);
  console.log(
    `single executable / Node launcher on this machine's Node.js: ${ratio(h(1), h(launcherIndex))}; Node launcher / this machine's node -e 0: ${ratio(h(launcherIndex), base20)}`,
  );
  console.log(`single executable / Node launcher on the same Node.js: ${ratio(h(1), h(4))}`);

  const exe = readFileSync(release);
  const zip = zipFiles([{ name: "terraform-provider-siteops", data: exe, mode: 0o755 }]);
  const size = (file: string) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;
  console.log(
    `\nexecutable: ${(exe.length / 1e6).toFixed(1)} MB (Node.js ${node24.version} alone: ${size(node24.node)}); zipped: ${(zip.length / 1e6).toFixed(1)} MB`,
  );
  console.log(`useCodeCache executable: ${size(codeCache)}${snapshot ? `; useSnapshot executable: ${size(snapshot)}` : ""}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
