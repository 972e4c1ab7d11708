// One of the processes of bench/core-rate-limit.bench.ts: sends COUNT `GET /api/v1/me` through the core, 8 at
// a time, and prints one JSON line: { ok, failed, refused (429 answers), sent (attempts) }.
import { SiteOps } from "../src/index.js";

const [baseUrl, token, count, pacing] = process.argv.slice(2);
let refused = 0;
let sent = 0;
const so = new SiteOps({
  baseUrl,
  apiToken: token,
  pacing: pacing === "on",
  logger: (e) => {
    if (e.kind !== "response") return;
    sent++;
    if (e.status === 429) refused++;
  },
});
let ok = 0;
let failed = 0;
let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next++ < Number(count)) {
      try {
        await so.me();
        ok++;
      } catch {
        failed++;
      }
    }
  }),
);
await so.close();
console.log(JSON.stringify({ ok, failed, refused, sent }));
