// Benchmark 2: uploading a 1 GiB file as snapshot data with `so.snapshots.upload()` vs `curl -T` of the
// same file to the same endpoint, in the same run; and the peak RSS of this (the uploading) process.
import { spawnSync } from "node:child_process";
import { build } from "esbuild";
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { SiteOps } from "../src/index.js";
import { mib, spawnEmulator, table, TOKEN } from "./lib/core-helpers.js";
import { median } from "./lib/processes.js";

const SIZE_MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const emulator = await spawnEmulator();
const so = new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN });
const file = path.join(emulator.dir, "upload.bin");
const block = randomBytes(1024 * 1024);
const fd = openSync(file, "w");
for (let i = 0; i < SIZE_MIB; i++) {
  block.writeUInt32BE(i, 0); // every MiB differs
  writeSync(fd, block);
}
// On disk before any timing: writing it back later would slow whichever upload runs then.
fsyncSync(fd);
closeSync(fd);

const site = (await so.sites.list()).data[0];
const child = path.join(emulator.dir, "uploader.mjs");
await build({
  entryPoints: [path.join(import.meta.dirname, "core-upload-child.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: child,
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
  logLevel: "error",
});
const newSnapshot = async () => (await so.snapshots.create(site.id, { upload: true })).id;
// Each upload's snapshot is deleted once timed: the emulator removes its data file while the kernel still
// holds it in memory, so no round waits on the write-back of earlier rounds' gigabytes.
const done = (id: string) => so.snapshots.delete(site.id, id);

async function curl(): Promise<number> {
  const id = await newSnapshot();
  const started = performance.now();
  const r = spawnSync(
    "curl",
    [
      "-sS",
      "-f",
      "-o",
      "/dev/null",
      "-T",
      file,
      "-H",
      `Authorization: token ${TOKEN}`,
      "-H",
      "Content-Type: application/octet-stream",
      `${emulator.url}/api/v1/sites/${site.id}/snapshots/${id}/upload`,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`curl exited with ${r.status}`);
  await done(id);
  return ms;
}

/** Every uploader but curl runs in its own plain-node process (bench/core-upload-child.ts), as curl does. */
async function node(mode: "client" | "raw-whole" | "raw-chunks"): Promise<{ ms: number; peak: number; before: number }> {
  const id = await newSnapshot();
  const r = spawnSync(process.execPath, [child, emulator.url, TOKEN, site.id, id, file, mode], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) throw new Error(`uploader ${mode} exited with ${r.status}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as { ms: number; peak: number; before: number; status: number };
  if (out.status !== 200) throw new Error(`uploader ${mode}: final status ${out.status}`);
  await done(id);
  return out;
}

try {
  const times: Record<string, number[]> = {};
  let peak = 0;
  let before = Infinity;
  const modes = ["curl", "raw-whole", "raw-chunks", "client"] as const;
  // Untimed: the first upload of a run is slower whichever uploader makes it (the emulator's code paths and
  // the kernel's buffers warm up).
  await curl();
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < modes.length; i++) {
      const mode = modes[(round + i) % modes.length]; // rotate, so load from other processes hits all alike
      if (mode === "curl") {
        (times.curl ??= []).push(await curl());
        continue;
      }
      const r = await node(mode);
      (times[mode] ??= []).push(r.ms);
      if (mode === "client") {
        peak = Math.max(peak, r.peak);
        before = Math.min(before, r.before);
      }
    }
  }
  if (process.env.BENCH_SAMPLES) for (const [k, v] of Object.entries(times)) console.log(k, v.map((x) => x.toFixed(0)).join(" "));
  const base = median(times.curl);
  const rate = (ms: number) => (SIZE_MIB / (ms / 1000)).toFixed(0);
  const row = (label: string, key: string, rss = "-") => [
    label,
    median(times[key]).toFixed(0),
    rate(median(times[key])),
    `${(base / median(times[key])).toFixed(2)}x`,
    rss,
  ];
  console.log(`${SIZE_MIB} MiB file, median of ${ROUNDS} rounds, each uploader in its own process (curl timed with its process start)\n`);
  console.log(
    table(
      ["uploader", "ms", "MiB/s", "vs curl -T", "peak RSS MiB (at start)"],
      [
        row("curl -T (one PUT, no digest)", "curl"),
        row("undici.request, one PUT, no digest", "raw-whole"),
        row("undici.request, 64 MiB Content-Range PUTs, no digest", "raw-chunks"),
        row("so.snapshots.upload (64 MiB resumable chunks + Content-Digest)", "client", `${mib(peak)} (${mib(before)})`),
      ],
    ),
  );
} finally {
  rmSync(file, { force: true });
  await so.close();
  await emulator.close();
}
