#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): the committed CDK bindings (provider/cdktf/ and
// provider/cdktn/) must be exactly what `npm run generate` produces from the provider's current schema, and each
// flavour's example app (examples/cdktf/, examples/cdktn/) must typecheck against its bindings (through
// tsconfig.examples.json, which maps "siteops/*" to the sources).
//
//   node scripts/check-cdk.mjs [cdktf|cdktn ...] [--schema FILE] [--no-typecheck]
//     cdktf, cdktn     check only these flavours (default: both)
//     --schema FILE    compare against bindings generated from this `terraform providers schema -json`
//                      document instead of the provider's own (to test the check, or to debug)
//     --no-typecheck   skip the examples' typecheck
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { GenerateError, ROOT, loadProviderSchema, pickFlavors, renderBindings } from "./generate-cdk.mjs";

function committedFiles(dir, base = dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...committedFiles(full, base));
    else out.push(path.relative(base, full).split(path.sep).join("/"));
  }
  return out;
}

/** Differences between the bindings a fresh generation gives and those in the repository, for one flavour. */
export async function staleBindings({ root = ROOT, flavor, schema }) {
  const fresh = await renderBindings({ root, flavor, schema: schema ?? (await loadProviderSchema(root)) });
  const dir = path.join(root, flavor.dir);
  const onDisk = committedFiles(dir);
  const problems = [];
  for (const [rel, text] of fresh) {
    if (!onDisk.includes(rel)) problems.push(`${rel} is missing`);
    else if (readFileSync(path.join(dir, rel), "utf8") !== text) problems.push(`${rel} differs`);
  }
  for (const rel of onDisk) if (!fresh.has(rel)) problems.push(`${rel} is not generated any more`);
  return problems.sort();
}

function typecheckExamples(root) {
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.examples.json")], {
    cwd: root,
    encoding: "utf8",
  });
  return r.status === 0 ? null : `${r.stdout}${r.stderr}`.trim();
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { schema: { type: "string" }, "no-typecheck": { type: "boolean", default: false } },
  });
  const flavors = pickFlavors(positionals);
  const schema = values.schema ? JSON.parse(readFileSync(values.schema, "utf8")) : await loadProviderSchema();
  let failed = false;
  for (const flavor of flavors) {
    const problems = await staleBindings({ flavor, schema });
    if (problems.length) {
      console.error(
        `check-cdk: ${flavor.dir}/ is stale (the provider schema changed without regenerating the bindings):\n` +
          problems.map((p) => `  ${flavor.dir}/${p}`).join("\n") +
          "\nRun `npm run generate` and commit the result.",
      );
      failed = true;
    } else {
      console.error(`check-cdk: ${flavor.dir}/ is up to date`);
    }
  }
  if (failed || values["no-typecheck"]) return failed ? 1 : 0;
  const errors = typecheckExamples(ROOT);
  if (errors) {
    console.error(`check-cdk: the examples do not typecheck against the bindings (tsc -p tsconfig.examples.json):\n${errors}`);
    return 1;
  }
  console.error(`check-cdk: ${flavors.map((f) => f.example).join(" and ")} typecheck`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = await main();
  } catch (err) {
    console.error(`check-cdk: ${err instanceof GenerateError ? err.message : err instanceof Error ? err.stack : err}`);
    process.exitCode = 1;
  }
}
