#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs, after `npm run build`): the npm tarball as a user gets it.
// Packs the package, then
//   - publint (--strict: warnings fail too) over the tarball: exports, files, fields;
//   - @arethetypeswrong/cli with the ESM-only profile over the tarball: every export's types resolve under
//     node16 (ESM) and bundler resolution (CommonJS `require` goes through Node's require(esm));
//   - its contents: only bin/, dist/ and the top-level documents, no source maps or .ts sources, every export
//     target present, and a size budget so that an accident (a test fixture, a second bundle) shows up here.
// Prints the tarball's size and file count.
//
//   node scripts/check-package.mjs [--keep DIR]   --keep: leave the tarball in DIR
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Packed (gzip) size budget; 0.1.0 packs to about 250 kB, about 490 kB since the CLI ships as one bundle
 * (dist/cli/siteops.cjs with undici's llhttp, for its start-up time: BENCHMARKS.md, CLI), about 560 kB with issue
 * 39's error sentences, about 660 kB with issues 41-42 (the vulnerability reports, policies and SARIF, rollouts, and
 * the YAML parser the CLI bundles for policy files: about 37 kB of it), about 790 kB with issues 47-53 (measured
 * against the tree before them, gzip per file: the core's operations +45 kB, the rollout's options, texts and results
 * declared once and the vulnerability rules; the CLI's bundles +46 kB, of which the visual engine's own module 19.5
 * kB; the provider +11 kB, the codecs' checks). Raise it deliberately, with a reason in the
 * commit. The size the docs state is checked too
 * (sizeClaimProblems). */
const PACKED_BUDGET = 820_000;
const ALLOWED = [/^bin\/[\w.-]+\.js$/, /^bin\/package\.json$/, /^dist\//, /^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8", ...opts });
  return { code: r.status ?? 1, out: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim(), stdout: r.stdout ?? "" };
}

/** Packs the package into dir; returns npm's description of the tarball. */
export function pack(dir) {
  const r = run("npm", ["pack", "--json", "--pack-destination", dir], { env: { ...process.env, npm_config_loglevel: "error" } });
  if (r.code !== 0) throw new Error(`npm pack failed:\n${r.out}`);
  const [info] = JSON.parse(r.stdout);
  return { ...info, tarball: path.join(dir, info.filename) };
}

/** Problems with the packed files themselves (not the tools' findings). */
export function contentProblems(info, pkg) {
  const files = info.files.map((f) => f.path);
  const problems = [];
  for (const f of files) {
    if (!ALLOWED.some((re) => re.test(f))) problems.push(`${f} is packed but is neither in bin/, dist/ nor a top-level document`);
    else if (f.endsWith(".map")) problems.push(`${f}: source maps are not shipped (tsconfig.build.json)`);
    else if (/\.ts$/.test(f) && !f.endsWith(".d.ts")) problems.push(`${f}: TypeScript sources are not shipped`);
  }
  const targets = [];
  const walk = (v) => (typeof v === "string" ? targets.push(v) : v && typeof v === "object" && Object.values(v).forEach(walk));
  walk(pkg.exports);
  targets.push(...Object.values(pkg.bin ?? {}));
  for (const t of targets) if (!files.includes(t.replace(/^\.\//, ""))) problems.push(`${t} (from package.json) is not in the tarball: run npm run build`);
  for (const doc of ["LICENSE", "README.md"]) if (!files.includes(doc)) problems.push(`${doc} is not in the tarball`);
  if (info.size > PACKED_BUDGET) problems.push(`the tarball is ${info.size} bytes, over the ${PACKED_BUDGET} budget (scripts/check-package.mjs)`);
  return problems;
}

/** Documents that say how large the tarball is ("writes siteops-0.1.0.tgz (about 470 kB)"). */
export const SIZE_CLAIMS = ["README.md", "docs/install.md"];

/** Size claims more than 5 % off the packed size: `texts` maps a document to its text. */
export function sizeClaimProblems(size, texts) {
  const problems = [];
  for (const [file, text] of Object.entries(texts)) {
    for (const m of text.matchAll(/\(about (\d+) kB\)/g)) {
      const claimed = Number(m[1]) * 1000;
      if (Math.abs(claimed - size) > size * 0.05) problems.push(`${file} says "about ${m[1]} kB"; the tarball packs to ${Math.round(size / 1000)} kB`);
    }
  }
  return problems;
}

function main() {
  const { values } = parseArgs({ options: { keep: { type: "string" } } });
  const dir = values.keep ? path.resolve(values.keep) : mkdtempSync(path.join(tmpdir(), "siteops-pack-"));
  mkdirSync(dir, { recursive: true });
  try {
    const info = pack(dir);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const failures = contentProblems(info, pkg).map((p) => `contents: ${p}`);
    const texts = Object.fromEntries(SIZE_CLAIMS.map((f) => [f, readFileSync(path.join(ROOT, f), "utf8")]));
    failures.push(...sizeClaimProblems(info.size, texts).map((p) => `docs: ${p}`));
    const bin = (name) => path.join(ROOT, "node_modules", ".bin", name);
    const publint = run(bin("publint"), ["run", info.tarball, "--strict"]);
    if (publint.code !== 0) failures.push(`publint:\n${publint.out}`);
    const attw = run(bin("attw"), [info.tarball, "--profile", "esm-only", "--format", "table-flipped", "--no-color"]);
    if (attw.code !== 0) failures.push(`@arethetypeswrong/cli (--profile esm-only):\n${attw.out}`);
    const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
    const summary = `${info.filename}: ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked, ${info.entryCount} files`;
    if (failures.length) {
      console.error(`check-package: ${summary}\n${failures.join("\n")}`);
      return 1;
    }
    console.error(`check-package: ${summary}; publint and attw (esm-only) pass`);
    return 0;
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (err) {
    console.error(`check-package: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  }
}
