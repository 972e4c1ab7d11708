// The uploading process of bench/core-upload.bench.ts: bundled with esbuild and run with plain `node`, so
// its RSS is the client's (no tsx loader thread). Prints one JSON line: { ms, before, peak }.
import { SiteOps } from "../src/index.js";

const [baseUrl, token, siteId, snapshotId, file] = process.argv.slice(2);
const so = new SiteOps({ baseUrl, apiToken: token });
const before = process.memoryUsage.rss();
let peak = before;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
const timer = setInterval(sample, 5);
const started = performance.now();
const snapshot = await so.snapshots.upload(siteId, snapshotId, file, { onProgress: sample });
const ms = performance.now() - started;
clearInterval(timer);
sample();
await so.close();
console.log(JSON.stringify({ ms, before, peak, size: snapshot.size_bytes }));
