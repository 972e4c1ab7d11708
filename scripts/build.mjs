#!/usr/bin/env node
// Build everything a user or CI needs: the compiled package (dist/) and, when their build steps exist,
// the bundled Terraform provider, GitHub Action and CLI. Each step is a module so parts can grow independently.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { STAMP, inputsHash } from "./build-inputs.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
// Hashed before building: an edit made while the build runs leaves dist/ stale, as it is.
const inputs = inputsHash(root);

// dist/release/ (npm run build:release: the provider's release packages) is slow to make and survives a build.
for (const entry of existsSync(path.join(root, "dist")) ? readdirSync(path.join(root, "dist")) : []) {
  if (entry !== "release") rmSync(path.join(root, "dist", entry), { recursive: true, force: true });
}
const tsc = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  stdio: "inherit",
});
if (tsc.status !== 0) {
  console.error("build: tsc failed");
  process.exit(1);
}
console.error("build: dist/ compiled");

for (const step of ["build-provider.mjs", "build-action.mjs", "build-cli.mjs"]) {
  const file = path.join(root, "scripts", step);
  if (!existsSync(file)) continue;
  const mod = await import(pathToFileURL(file).href);
  await mod.default({ root });
}
// Last: a build that failed above leaves no stamp, so the tests' global setup builds again.
writeFileSync(path.join(root, STAMP), `${inputs}\n`);
