#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): the committed CDKTF bindings in provider/cdktf/ must be
// exactly what `npm run generate` produces from the provider's current schema, and the example app in
// examples/cdktf/ must typecheck against them.
//
//   node scripts/check-cdktf.mjs [--schema FILE] [--no-typecheck]
//     --schema FILE    compare against bindings generated from this `terraform providers schema -json`
//                      document instead of the provider's own (to test the check, or to debug)
//     --no-typecheck   skip the example's typecheck
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { CDKTF_DIR, GenerateError, ROOT, loadProviderSchema, renderBindings } from "./generate-cdktf.mjs";

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

/** Differences between the bindings a fresh generation gives and those in the repository. */
export async function staleBindings({ root = ROOT, schema } = {}) {
  const fresh = await renderBindings({ root, schema: schema ?? (await loadProviderSchema(root)) });
  const dir = path.join(root, CDKTF_DIR);
  const onDisk = committedFiles(dir);
  const problems = [];
  for (const [rel, text] of fresh) {
    if (!onDisk.includes(rel)) problems.push(`${rel} is missing`);
    else if (readFileSync(path.join(dir, rel), "utf8") !== text) problems.push(`${rel} differs`);
  }
  for (const rel of onDisk) if (!fresh.has(rel)) problems.push(`${rel} is not generated any more`);
  return problems.sort();
}

function typecheckExample(root) {
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "examples/cdktf/tsconfig.json")], {
    cwd: root,
    encoding: "utf8",
  });
  return r.status === 0 ? null : `${r.stdout}${r.stderr}`.trim();
}

async function main() {
  const { values } = parseArgs({ options: { schema: { type: "string" }, "no-typecheck": { type: "boolean", default: false } } });
  const schema = values.schema ? JSON.parse(readFileSync(values.schema, "utf8")) : undefined;
  const problems = await staleBindings({ schema });
  if (problems.length) {
    console.error(
      `check-cdktf: ${CDKTF_DIR}/ is stale (the provider schema changed without regenerating the bindings):\n` +
        problems.map((p) => `  ${CDKTF_DIR}/${p}`).join("\n") +
        "\nRun `npm run generate` and commit the result.",
    );
    return 1;
  }
  if (!values["no-typecheck"]) {
    const errors = typecheckExample(ROOT);
    if (errors) {
      console.error(`check-cdktf: examples/cdktf does not typecheck against the bindings:\n${errors}`);
      return 1;
    }
  }
  console.error(`check-cdktf: ${CDKTF_DIR}/ is up to date${values["no-typecheck"] ? "" : "; examples/cdktf typechecks"}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = await main();
  } catch (err) {
    console.error(`check-cdktf: ${err instanceof GenerateError ? err.message : err instanceof Error ? err.stack : err}`);
    process.exitCode = 1;
  }
}
