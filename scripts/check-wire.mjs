#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): the committed src/generated/ (the client's wire types) and
// wire/generated/ (the field tables) must be exactly what `npm run generate:wire` produces from the schemas of
// wire/; when they are not, the check lists the differing lines.
//
//   node scripts/check-wire.mjs [--registry FILE]
//     --registry FILE   compare against what this module's WIRE_TYPES and RESOURCES generate instead of
//                       wire/registry.ts (to test the check, or to debug)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { GenerateError, OUTPUTS, ROOT, loadRegistry, renderWire } from "./generate-wire.mjs";

const MAX_LINES = 40;

/** The removed (-) and added (+) lines from `before` to `after`, in order (a longest-common-subsequence diff). */
function lineChanges(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out = [];
  let i = 0;
  let j = 0;
  let decl = "";
  let shown = "";
  const emit = (line) => {
    if (decl !== shown) out.push(`@ ${(shown = decl)}`); // the declaration the change is in
    out.push(line);
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      if (a[i].startsWith("export ")) decl = a[i];
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) emit(`- ${a[i++]}`);
    else {
      if (b[j].startsWith("export ")) decl = b[j];
      emit(`+ ${b[j++]}`);
    }
  }
  return out;
}

/** Differences between a fresh generation and the committed files: [] when up to date. */
export async function staleWire({ root = ROOT, registry } = {}) {
  const fresh = renderWire(await loadRegistry(registry));
  const problems = [];
  for (const [name, text] of fresh) {
    const file = path.join(root, name);
    if (!existsSync(file)) {
      problems.push(`${name} is missing`);
      continue;
    }
    const committed = readFileSync(file, "utf8");
    if (committed === text) continue;
    const changes = lineChanges(committed, text);
    const shown = changes.slice(0, MAX_LINES).map((c) => `    ${c}`);
    if (changes.length > MAX_LINES) shown.push(`    ... and ${changes.length - MAX_LINES} more lines`);
    problems.push(`${name} differs:\n${shown.join("\n") || "    (order or whitespace only)"}`);
  }
  return problems;
}

async function main() {
  const { values } = parseArgs({ options: { registry: { type: "string" } } });
  const problems = await staleWire(values.registry ? { registry: path.resolve(values.registry) } : {});
  const dirs = [...new Set(OUTPUTS.map((f) => `${path.dirname(f)}/`))].join(" and ");
  if (problems.length) {
    console.error(
      `check-wire: ${dirs} are stale (a schema in wire/ changed without npm run generate:wire):\n` +
        problems.map((p) => `  ${p}`).join("\n") +
        "\nRun `npm run generate:wire` and commit the result.",
    );
    return 1;
  }
  console.error(`check-wire: ${dirs} are up to date with wire/`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = await main();
  } catch (err) {
    console.error(`check-wire: ${err instanceof GenerateError ? err.message : err instanceof Error ? err.stack : err}`);
    process.exitCode = 1;
  }
}
