#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): the generated references are current. It regenerates, in
// memory, docs/cli-reference.md and the command table of docs/cli.md (from the CLI's command declarations) and
// the input/output tables of action/README.md (from action/action.yml), and fails naming each stale file, its first differing line and
// the command that rewrites it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ACTION_README, actionReadme } from "./generate-action-readme.mjs";
import { CLI_GUIDE, CLI_REFERENCE, cliGuide, cliReference } from "./generate-cli-reference.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The first line where `committed` and `wanted` differ, as "line N: committed ... / generated ...". */
function firstDifference(committed, wanted) {
  const a = committed.split("\n");
  const b = wanted.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: committed ${JSON.stringify(a[i] ?? "(end of file)")}, generated ${JSON.stringify(b[i] ?? "(end of file)")}`;
  }
  return null;
}

const problems = [];
for (const [file, make] of [
  [CLI_REFERENCE, cliReference],
  [CLI_GUIDE, cliGuide],
  [ACTION_README, actionReadme],
]) {
  let committed = "";
  try {
    committed = readFileSync(path.join(ROOT, file), "utf8");
  } catch {
    problems.push(`${file} is missing: run npm run generate:docs`);
    continue;
  }
  const difference = firstDifference(committed, await make());
  if (difference) problems.push(`${file} is stale (${difference}): run npm run generate:docs and commit the result`);
}
if (problems.length) {
  console.error(`check-generated-docs: ${problems.join("\ncheck-generated-docs: ")}`);
  process.exitCode = 1;
} else {
  console.error(`check-generated-docs: ${CLI_REFERENCE}, the command table of ${CLI_GUIDE} and the tables of ${ACTION_README} are current`);
}
