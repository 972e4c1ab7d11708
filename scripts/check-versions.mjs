#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): package.json's "version" is the one version number of the
// project; everything else follows it. The provider's version is read from it at build time
// (scripts/build-provider.mjs); this check covers what is written down elsewhere:
//   - package-lock.json's root version;
//   - the tarball name in the install commands of the guides (README.md, CONTRIBUTING.md, docs/*.md,
//     action/README.md, emulator/README.md) and examples/*/README.md (siteops-<version>.tgz);
//   - the action's major tag in those guides and examples/workflows/*.yml (siteops/siteops/action@v<major>,
//     where 0.x versions are pre-releases of v1).
//
//   node scripts/check-versions.mjs           fail, naming each file and what it says, when one disagrees
//   node scripts/check-versions.mjs --write   rewrite them to follow package.json (run by `npm run release:version`)
//   --root DIR                                 another checkout (tests)
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({ options: { write: { type: "boolean", default: false }, root: { type: "string" } } });
const ROOT = args.root ? path.resolve(args.root) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (rel) => readFileSync(path.join(ROOT, rel), "utf8");

function expectedVersions(version) {
  const major = Number(version.split(".")[0]);
  return { version, tarball: `siteops-${version}.tgz`, actionTag: `v${Math.max(1, major)}` };
}

/** [file, pattern, wanted] for every mention of a version outside package.json. */
function mentions(expected) {
  const guides = [
    "README.md",
    "CONTRIBUTING.md",
    "action/README.md",
    "emulator/README.md",
    ...readdirSync(path.join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const docs = [...guides, ...readdirSync(path.join(ROOT, "examples")).map((d) => `examples/${d}/README.md`)].filter((f) => {
    try {
      read(f);
      return true;
    } catch {
      return false;
    }
  });
  const workflows = readdirSync(path.join(ROOT, "examples/workflows"))
    .filter((f) => f.endsWith(".yml"))
    .map((f) => `examples/workflows/${f}`);
  return [
    ...docs.map((file) => [file, /siteops-\d+\.\d+\.\d+(?:-[\w.]+)?\.tgz/g, expected.tarball]),
    ...[...docs.filter((f) => guides.includes(f)), ...workflows].map((file) => [file, /(?<=siteops\/siteops\/action@)v\d+\b/g, expected.actionTag]),
  ];
}

function main() {
  const write = args.write;
  const pkg = JSON.parse(read("package.json"));
  const expected = expectedVersions(pkg.version);
  const problems = [];
  const lock = JSON.parse(read("package-lock.json"));
  if (lock.version !== pkg.version || lock.packages?.[""]?.version !== pkg.version) {
    problems.push(`package-lock.json says ${lock.version}: run npm install --package-lock-only`);
  }
  const rewritten = new Map();
  for (const [file, pattern, wanted] of mentions(expected)) {
    const text = rewritten.get(file) ?? read(file);
    const found = new Set([...text.matchAll(pattern)].map((m) => m[0]).filter((m) => m !== wanted));
    if (!found.size) continue;
    if (write) rewritten.set(file, text.replace(pattern, wanted));
    else problems.push(`${file} says ${[...found].join(", ")} where package.json's ${pkg.version} means ${wanted}`);
  }
  for (const [file, text] of rewritten) {
    writeFileSync(path.join(ROOT, file), text);
    console.error(`check-versions: ${file} now follows ${pkg.version}`);
  }
  if (problems.length) {
    console.error(`check-versions: ${problems.join("\ncheck-versions: ")}\nRun \`node scripts/check-versions.mjs --write\` after a version change.`);
    return 1;
  }
  console.error(`check-versions: ${pkg.version} everywhere (tarball ${expected.tarball}, action ${expected.actionTag})`);
  return 0;
}

process.exitCode = main();
