#!/usr/bin/env node
"use strict";
let cli;
try {
  cli = require("../dist/cli/siteops.cjs");
} catch (err) {
  if (err?.code !== "MODULE_NOT_FOUND" || !String(err.message).includes("siteops.cjs")) throw err;
  console.error("siteops: dist/ is missing; run `npm run build` first (or use `npx tsx src/cli/main.ts`).");
  process.exit(1);
}
cli.main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
