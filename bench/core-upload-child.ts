// The uploading process of bench/core-upload.bench.ts: bundled with esbuild and run with plain `node`, so
// its RSS is the uploader's own (no tsx loader thread). Prints one JSON line: { ms, before, peak, status }.
// Modes: "client" (so.snapshots.upload, defaults), and two raw undici.request baselines without any digest:
// "raw-whole" (one PUT) and "raw-chunks" (64 MiB Content-Range PUTs, the protocol the client uses).
import { createReadStream, statSync } from "node:fs";
import { request } from "undici";
import { SiteOps } from "../src/index.js";

const [baseUrl, token, siteId, snapshotId, file, mode] = process.argv.slice(2);
const total = statSync(file).size;
const url = `${baseUrl}/api/v1/sites/${siteId}/snapshots/${snapshotId}/upload`;
const headers = { authorization: `token ${token}`, "content-type": "application/octet-stream" };
const before = process.memoryUsage.rss();
let peak = before;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
// Every 5 ms (reading RSS costs a /proc read: on each 1 MiB progress event it took ~7% of the run's CPU).
const timer = setInterval(sample, 5);
let progressEvents = 0;
const started = performance.now();
let status = 0;

async function put(start: number, end: number, range: boolean): Promise<void> {
  const res = await request(url, {
    method: "PUT",
    body: createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 }),
    headers: { ...headers, "content-length": String(end - start), ...(range ? { "content-range": `bytes ${start}-${end - 1}/${total}` } : {}) },
  });
  await res.body.text();
  status = res.statusCode;
}

if (mode === "client") {
  const so = new SiteOps({ baseUrl, apiToken: token });
  let last = 0;
  const snapshot = await so.snapshots.upload(siteId, snapshotId, file, {
    onProgress: ({ sent }) => {
      progressEvents++;
      last = sent;
    },
  });
  status = snapshot.size_bytes === total && last === total && progressEvents > 0 ? 200 : 0;
  await so.close();
} else if (mode === "raw-whole") {
  await put(0, total, false);
} else {
  for (let start = 0; start < total; start += 64 * 1024 * 1024) await put(start, Math.min(start + 64 * 1024 * 1024, total), true);
}
const ms = performance.now() - started;
clearInterval(timer);
sample();
console.log(JSON.stringify({ ms, before, peak, status }));
