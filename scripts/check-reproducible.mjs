#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs, after `npm run build`): the npm tarball carries nothing of the
// machine that built it, and is the same bytes wherever it is built. Copies this checkout's files (tracked and
// untracked, not ignored) to a directory of another name and length, with node_modules hard-linked (a symlink
// where hard links cannot be made), builds there (`npm run build`), packs both, and compares the two tarballs
// byte for byte (npm pack writes every entry with the same mtime, owner and mode bits). Both tarballs are also
// searched for the absolute paths of this machine: the two checkouts, $HOME and the Node.js that built them.
// On a difference it names the files that differ. test/package/build-paths.test.ts searches the tarball too.
//
//   node scripts/check-reproducible.mjs [--keep]   --keep: leave the copy and the tarballs (it prints where)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { staleReason } from "./build-inputs.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Packs the package at `root` into `dir`; returns the tarball's path. */
export function packInto(root, dir) {
  const r = spawnSync("npm", ["pack", "--json", "--pack-destination", dir], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  if (r.status !== 0) throw new Error(`npm pack in ${root} failed:\n${r.stdout}${r.stderr}`);
  return path.join(dir, JSON.parse(r.stdout)[0].filename);
}

/** Every file of a tarball, by its path inside it (package/...), read after `tar -x` into a temp dir. */
export function tarballFiles(tarball) {
  const dir = mkdtempSync(path.join(tmpdir(), "siteops-unpacked-"));
  try {
    const r = spawnSync("tar", ["-xzf", tarball, "-C", dir], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${r.stderr}`);
    const files = new Map();
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(dir, file), readFileSync(file));
    }
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The absolute paths of the building machine that must not appear in the package: the checkouts (as given and
 * resolved), the directory of the Node.js that builds, and $HOME followed by a path (a bare "/root" can be prose).
 */
export function machinePaths({ checkouts = [ROOT], node = process.execPath, home = homedir() } = {}) {
  const literal = new Set();
  for (const dir of [...checkouts, path.dirname(node)]) {
    literal.add(dir);
    if (existsSync(dir)) literal.add(realpathSync(dir));
  }
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const patterns = [...literal].filter((p) => p.length > 1).map((p) => new RegExp(`${escape(p)}(?![\\w.-])|${escape(p)}/`));
  if (home && home !== "/") patterns.push(new RegExp(`${escape(home)}/[\\w.-]`));
  return patterns;
}

/** Each file of `files` (a Map of name to bytes) that contains one of `patterns`, with the text around it. */
export function buildPathProblems(files, patterns) {
  const problems = [];
  for (const [name, bytes] of files) {
    const text = bytes.toString("latin1");
    for (const re of patterns) {
      const m = re.exec(text);
      if (!m) continue;
      const around = text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, " ");
      problems.push(`${name} contains ${JSON.stringify(m[0])}, a path of the machine that built it: ...${around}...`);
      break;
    }
  }
  return problems;
}

/** The files in which two tarballs differ (added, removed or changed), at most `limit`. */
function differences(a, b, limit = 20) {
  const left = tarballFiles(a);
  const right = tarballFiles(b);
  const names = [...new Set([...left.keys(), ...right.keys()])].sort();
  const out = [];
  for (const name of names) {
    if (!left.has(name)) out.push(`${name}: only in the copy's tarball`);
    else if (!right.has(name)) out.push(`${name}: only in this checkout's tarball`);
    else if (!left.get(name).equals(right.get(name))) out.push(`${name}: differs`);
    if (out.length >= limit) break;
  }
  return out.length ? out : ["no file differs: the tar or gzip framing does (npm pack)"];
}

/** Copies this checkout's files (git's view: tracked and untracked, not ignored) into `dest`. */
function copyCheckout(dest) {
  const r = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  for (const file of r.stdout.split("\0").filter(Boolean)) {
    const from = path.join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    copyFileSync(from, path.join(dest, file));
  }
  // Hard links keep node_modules' paths inside the copy (a symlink would resolve to this checkout's), at no cost.
  const linked = spawnSync("cp", ["-al", path.join(ROOT, "node_modules"), dest], { encoding: "utf8" });
  if (linked.status === 0) return "hard-linked";
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dest, "node_modules"));
  return `symlinked (cp -al: ${linked.stderr.trim()})`;
}

const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

function main() {
  const { values } = parseArgs({ options: { keep: { type: "boolean" } } });
  const stale = staleReason(ROOT);
  if (stale) {
    console.error(`check-reproducible: dist/ is not current (${stale}): run npm run build first`);
    return 1;
  }
  const work = mkdtempSync(path.join(tmpdir(), "siteops-repro-"));
  // Another name and another length than any checkout: a path that leaks shows as a difference.
  const copy = path.join(work, "another-checkout-of-siteops");
  try {
    const started = Date.now();
    const modules = copyCheckout(copy);
    const build = spawnSync("npm", ["run", "build"], { cwd: copy, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
    if (build.status !== 0) throw new Error(`npm run build in the copy failed:\n${build.stdout}${build.stderr}`);
    const dirIn = (name) => {
      mkdirSync(path.join(work, name));
      return path.join(work, name);
    };
    const here = packInto(ROOT, dirIn("here"));
    const there = packInto(copy, dirIn("there"));
    const patterns = machinePaths({ checkouts: [ROOT, copy, work] });
    const failures = [...buildPathProblems(tarballFiles(here), patterns), ...buildPathProblems(tarballFiles(there), patterns)];
    const [a, b] = [sha256(here), sha256(there)];
    if (a !== b) failures.push(`the tarballs differ (${a} here, ${b} built in ${copy}):\n  ${differences(there, here).join("\n  ")}`);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    if (failures.length) {
      console.error(`check-reproducible: ${failures.join("\n")}`);
      return 1;
    }
    console.error(
      `check-reproducible: the same tarball (sha256 ${a.slice(0, 16)}...) built in ${ROOT} and in ${copy} (node_modules ${modules}; ${seconds} s); no path of this machine in it`,
    );
    return 0;
  } finally {
    if (values.keep) console.error(`check-reproducible: kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (err) {
    console.error(`check-reproducible: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  }
}
