#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): what the parts of the repository may import from each other
// (docs/project-layout.md, "Public and package-private").
//   - The core (src/) imports none of the parts built on it: cli/, action/, provider/, emulator/, visual/.
//   - The parts (cli/, action/src/, provider/, emulator/, visual/, examples/) import the core through its public entries,
//     src/index.ts (the package "siteops") and src/fleet.ts ("siteops/fleet"); nothing else of src/ by path:
//     src/internal/ is the core's own.
//     ALLOWED lists the exceptions, each with its reason. What the parts share and users should not rely on
//     lives in common/ (package-private), which imports nothing of the repository: every part may use it.
//   - Inside the provider, protocol/ stands below framework/ (terraform-plugin-go's tfprotov6 below the framework):
//     it knows wire formats only (protobuf, gRPC, HTTP/2, the handshake, tfplugin6's messages and service), so it
//     imports nothing of provider/ but itself, values/ (msgpack) and log.ts; the converters between tfplugin6
//     messages and framework values live on the framework's side, in provider/framework/wire/.
// Tests and benchmarks may import any module (they test and measure internals). Prints each violation.
//
//   node scripts/check-boundaries.mjs
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PARTS = ["cli", "action/src", "provider", "emulator", "visual", "examples"];
const GENERATED = /^provider\/(cdktf|cdktn)\//;
/** Importer -> core module allowed by path, and why. */
const ALLOWED = {
  // The client (and undici) is loaded only when a command makes a request, not at every start-up: a static
  // import of the public entry would evaluate it in the bundle at once (bench/cli-startup.bench.ts).
  "cli/context.ts": ["src/client.ts"],
};

function sources(dir) {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) return [];
    if (entry.isDirectory()) return sources(rel);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** The relative specifiers a file imports (static, dynamic, type-only and re-exports), resolved to .ts paths. */
function importsOf(file) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm)].map((m) => m[1]);
  return specs.map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, ".ts"));
}

/** Folder -> what its files may import of provider/ (PROVIDER_LAYERS: see the header). */
const PROVIDER_LAYERS = { "provider/protocol/": ["provider/protocol/", "provider/values/", "provider/log.ts"] };

const problems = [];
for (const file of sources("common")) {
  for (const target of importsOf(file)) {
    if (!target.startsWith("common/")) problems.push(`${file} imports ${target}: common/ stands below every part and imports none of them`);
  }
}
for (const file of sources("src")) {
  for (const target of importsOf(file)) {
    const part = ["cli/", "action/", "provider/", "emulator/", "visual/"].find((p) => target.startsWith(p));
    if (part) problems.push(`${file} imports ${target}: the core must not depend on ${part}`);
  }
}
for (const dir of PARTS) {
  for (const file of sources(dir)) {
    if (GENERATED.test(file)) continue;
    for (const target of importsOf(file)) {
      if (!target.startsWith("src/") || target === "src/index.ts" || target === "src/fleet.ts") continue;
      if (ALLOWED[file]?.includes(target)) continue;
      problems.push(`${file} imports ${target}: import the core from src/index.ts or src/fleet.ts (its public API); what the parts share goes in common/`);
    }
  }
}
for (const [folder, allowed] of Object.entries(PROVIDER_LAYERS)) {
  for (const file of sources(folder.replace(/\/$/, ""))) {
    for (const target of importsOf(file)) {
      if (!target.startsWith("provider/") || allowed.some((a) => target.startsWith(a))) continue;
      problems.push(`${file} imports ${target}: ${folder} stands below the rest of the provider (it may import ${allowed.join(", ")})`);
    }
  }
}
if (problems.length) {
  console.error(`check-boundaries: ${problems.length} import(s) across a part's boundary:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.error(
  "check-boundaries: the parts import the core through src/index.ts and src/fleet.ts only, common/ imports nothing of the repository; provider/protocol/ imports no layer above it",
);
