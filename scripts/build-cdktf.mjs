#!/usr/bin/env node
// Compiles the generated CDKTF bindings (provider/cdktf/) into dist/cdktf/, the target of the package's
// "siteops/cdktf" export, and writes dist/cdktf/schema.json (the provider's `terraform providers schema -json`
// document, the generator's input). Runs after `npm run build` (package.json "postbuild"); shaped like the other build
// steps (`default({ root })`) so scripts/build.mjs can call it too.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export default async function buildCdktf({ root, quiet = false }) {
  rmSync(path.join(root, "dist", "cdktf"), { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.cdktf.json")], {
    cwd: root,
    stdio: "inherit",
  });
  if (tsc.status !== 0) throw new Error("build: tsc failed on provider/cdktf (tsconfig.cdktf.json)");
  // The bindings' input ships beside them, for users who generate bindings with another generator.
  const { loadProviderSchema } = await import(pathToFileURL(path.join(root, "scripts/generate-cdktf.mjs")).href);
  writeFileSync(path.join(root, "dist", "cdktf", "schema.json"), `${JSON.stringify(await loadProviderSchema(root))}\n`);
  if (!quiet) console.error("build: CDKTF bindings compiled into dist/cdktf");
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    await buildCdktf({ root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..") });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
