// Benchmark 2: uploading a 1 GiB file as snapshot data with `so.snapshots.upload()` vs `curl -T` of the
// same file to the same endpoint, in the same run; and the peak RSS of this (the uploading) process.
import { spawnSync } from "node:child_process";
import { build } from "esbuild";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { SiteOps } from "../src/index.js";
import { median, mib, spawnEmulator, table, TOKEN } from "./core-helpers.js";

const SIZE_MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const emulator = await spawnEmulator();
const so = new SiteOps({ baseUrl: emulator.url, apiToken: TOKEN });
const file = path.join(emulator.dir, "upload.bin");
const block = randomBytes(1024 * 1024);
const fd = openSync(file, "w");
for (let i = 0; i < SIZE_MIB; i++) {
  block.writeUInt32BE(i, 0); // every MiB differs
  writeSync(fd, block);
}
closeSync(fd);
const bytes = SIZE_MIB * 1024 * 1024;

const site = (await so.sites.list()).data[0];
const child = path.join(emulator.dir, "uploader.mjs");
await build({
  entryPoints: [path.join(import.meta.dirname, "core-upload-child.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: child,
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: "error",
});
const newSnapshot = async () => (await so.snapshots.create(site.id, { upload: true })).id;

async function curl(): Promise<number> {
  const id = await newSnapshot();
  const started = performance.now();
  const r = spawnSync(
    "curl",
    ["-sS", "-f", "-o", "/dev/null", "-T", file, "-H", `Authorization: token ${TOKEN}`, "-H", "Content-Type: application/octet-stream",
      `${emulator.url}/api/v1/sites/${site.id}/snapshots/${id}/upload`],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (r.status !== 0) throw new Error(`curl exited with ${r.status}`);
  return performance.now() - started;
}

/** The client runs in its own plain-node process (bench/core-upload-child.ts), as curl does. */
async function client(): Promise<{ ms: number; peak: number; before: number }> {
  const id = await newSnapshot();
  const r = spawnSync(process.execPath, [child, emulator.url, TOKEN, site.id, id, file], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) throw new Error(`uploader exited with ${r.status}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as { ms: number; peak: number; before: number; size: number };
  if (out.size !== bytes) throw new Error(`uploaded ${out.size} bytes, expected ${bytes}`);
  return out;
}

try {
  const curlMs: number[] = [];
  const clientMs: number[] = [];
  let peak = 0;
  let before = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    curlMs.push(await curl());
    const c = await client();
    clientMs.push(c.ms);
    peak = Math.max(peak, c.peak);
    before = Math.min(before, c.before);
  }
  const rate = (ms: number) => (SIZE_MIB / (ms / 1000)).toFixed(0);
  // curl is timed with its process start; the client's time starts inside its process (node start-up,
  // ~50 ms, is not the upload).
  console.log(`${SIZE_MIB} MiB file, median of ${ROUNDS} rounds, each uploader in its own process; the client sends resumable 64 MiB chunks (Content-Range) with a Content-Digest of the whole data\n`);
  console.log(
    table(
      ["uploader", "ms", "MiB/s", "vs curl -T", "uploader peak RSS MiB (at start)"],
      [
        ["curl -T", median(curlMs).toFixed(0), rate(median(curlMs)), "1.00x", "-"],
        ["so.snapshots.upload", median(clientMs).toFixed(0), rate(median(clientMs)), `${(median(curlMs) / median(clientMs)).toFixed(2)}x`, `${mib(peak)} (${mib(before)})`],
      ],
    ),
  );
} finally {
  rmSync(file, { force: true });
  await so.close();
  await emulator.close();
}
