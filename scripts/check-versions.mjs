#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): package.json's "version" is the one version number of the
// project; everything else follows it. The provider's version is read from it at build time
// (scripts/build-provider.mjs); this check covers what is written down elsewhere:
//   - package-lock.json's root version;
//   - the tarball name in the install commands of the guides (README.md, CONTRIBUTING.md, docs/*.md,
//     action/README.md, emulator/README.md) and examples/*/README.md (siteops-<version>.tgz);
//   - the action's major tag in those guides and examples/workflows/*.yml (siteops/siteops/action@v<major>:
//     v0 for 0.x, the tag each 0.x release moves), and the same tag where a workflow builds the CLI from the
//     repository (github:siteops/siteops#v<major>), so the action and the CLI of an example cannot drift apart;
//   - while the package is not on npm (NPM_PUBLISHED below), no example or guide runs it from the registry
//     (`npx siteops@...`, `npm i -g siteops@...`): that answers 404.
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
/** Flip to true with the first `npm publish` (CONTRIBUTING.md, Releasing): until then `siteops@<version>`
 * from the registry answers 404, so examples get the CLI from the repository's tag instead. */
const NPM_PUBLISHED = false;

function expectedVersions(version) {
  const major = Number(version.split(".")[0]);
  return { version, tarball: `siteops-${version}.tgz`, actionTag: `v${major}` };
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
    ...[...docs, ...workflows].map((file) => [file, /(?<=github:siteops\/siteops#)v\d+\b/g, expected.actionTag]),
  ];
}

/** Files that run siteops from the npm registry although it is not published there (404). */
function registryUses(files) {
  if (NPM_PUBLISHED) return [];
  const pattern = /\b(?:npx(?: --yes| -y)?|npm (?:i|install)(?: -g| --global)?) siteops@[^\s"'`]+/g;
  return files.flatMap((file) =>
    [...read(file).matchAll(pattern)].map((m) => `${file} runs ${m[0]}, but siteops is not on npm (404): use github:siteops/siteops#<tag> or the tarball`),
  );
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
  const all = mentions(expected);
  problems.push(...registryUses([...new Set(all.map(([file]) => file))]));
  for (const [file, pattern, wanted] of all) {
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
