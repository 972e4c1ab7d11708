#!/usr/bin/env node
// Installed entry point: the compiled CLI. From a source checkout, `npm run build` produces dist/.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const compiled = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(compiled))) {
  console.error("siteops: dist/ is missing; run `npm run build` first (or use `npx tsx src/cli/main.ts`).");
  process.exit(1);
}
const { main } = await import(compiled.href);
process.exitCode = await main(process.argv.slice(2));
