#!/usr/bin/env node
// Compiles the generated CDK bindings into dist/: provider/cdktf/ into dist/cdktf/ ("siteops/cdktf") and
// provider/cdktn/ into dist/cdktn/ ("siteops/cdktn"), and writes dist/cdktf/schema.json (the provider's
// `terraform providers schema -json` document, the generators' input; also exported as
// "siteops/cdktn/schema.json"). Runs after `npm run build` (package.json "postbuild"); shaped like the other
// build steps (`default({ root })`) so scripts/build.mjs can call it too.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export default async function buildCdk({ root, quiet = false }) {
  const { FLAVORS, loadProviderSchema } = await import(pathToFileURL(path.join(root, "scripts/generate-cdk.mjs")).href);
  for (const flavor of Object.values(FLAVORS)) {
    rmSync(path.join(root, "dist", flavor.id), { recursive: true, force: true });
    const tsconfig = path.join(root, `tsconfig.${flavor.id}.json`);
    const tsc = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", tsconfig], { cwd: root, stdio: "inherit" });
    if (tsc.status !== 0) throw new Error(`build: tsc failed on ${flavor.dir} (tsconfig.${flavor.id}.json)`);
  }
  // The bindings' input ships beside them, for users who generate bindings with another generator.
  writeFileSync(path.join(root, "dist", "cdktf", "schema.json"), `${JSON.stringify(await loadProviderSchema(root))}\n`);
  if (!quiet) console.error("build: CDK bindings compiled into dist/cdktf and dist/cdktn");
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    await buildCdk({ root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..") });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
