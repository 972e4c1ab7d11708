#!/usr/bin/env node
// Run the benchmarks in bench/ (each *.bench.ts prints its own side-by-side ratios).
// Usage: npm run bench [-- name-filter ...]; `npm run bench -- --list [name-filter ...]` lists what would run,
// running nothing. Their helpers are in bench/lib/.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(
    "usage: npm run bench [-- [--list] name-filter ...]\n  runs bench/*.bench.ts whose name contains a filter (all without one); --list prints them without running",
  );
  process.exit(0);
}
const list = args.includes("--list");
const filters = args.filter((a) => a !== "--list");
const files = readdirSync(path.join(root, "bench"))
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`bench: no benchmark matches ${filters.join(" ") || "(all)"}`);
  process.exit(1);
}
if (list) {
  for (const f of files) console.log(path.join("bench", f));
  process.exit(0);
}
let failed = 0;
for (const f of files) {
  console.log(`\n## ${f}\n`);
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join("bench", f)], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, CHECKPOINT_DISABLE: "1", NODE_ENV: "production" },
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
