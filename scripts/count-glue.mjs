// Counts the glue lines of each fleet operation's surfaces (issue 52 item 4), in the working tree or at a commit.
//
// A glue line is a non-blank line that is not a comment: `//` lines and the lines of `/* ... */` blocks are left
// out. Each surface is a set of path patterns matched against the tree's files, so a file that was split or
// renamed still counts. Usage:
//   node scripts/count-glue.mjs               the working tree
//   node scripts/count-glue.mjs 5b99a2c       the tree at a commit (read with `git show`, nothing checked out)
//   node scripts/count-glue.mjs 5b99a2c HEAD  both, with the ratio
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The surfaces issue 52 measures; each pattern is a path prefix plus a file-name pattern. */
const SURFACES = [
  { name: "vulnerabilities CLI", patterns: [/^cli\/commands\/vulns\/[^/]+\.ts$/] },
  {
    name: "vulnerabilities action",
    patterns: [/^action\/src\/commands\/vulnerabilit[^/]*\.ts$/, /^action\/src\/input-vulnerabilit[^/]*\.ts$/],
  },
  { name: "rollouts CLI", patterns: [/^cli\/commands\/upgrade\/rollout[^/]*\.ts$/] },
  { name: "rollouts action", patterns: [/^action\/src\/commands\/rollout[^/]*\.ts$/, /^action\/src\/input-rollout[^/]*\.ts$/] },
  { name: "vulnerabilities core", patterns: [/^src\/operations\/vulnerability-[^/]+\.ts$/] },
  { name: "rollouts core", patterns: [/^src\/operations\/rollout-[^/]+\.ts$/] },
];

function git(args) {
  return execFileSync("git", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** Non-blank lines outside comments. Block comments are followed line by line; a string holding `/*` is rare here. */
export function codeLines(text) {
  let inBlock = false;
  let count = 0;
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    if (inBlock) {
      const end = line.indexOf("*/");
      if (end < 0) continue;
      inBlock = false;
      line = line.slice(end + 2).trim();
    }
    while (line.startsWith("/*")) {
      const end = line.indexOf("*/", 2);
      if (end < 0) {
        inBlock = true;
        line = "";
        break;
      }
      line = line.slice(end + 2).trim();
    }
    if (line === "" || line.startsWith("//")) continue;
    count += 1;
  }
  return count;
}

function measure(commit) {
  const files = commit
    ? git(["ls-tree", "-r", "--name-only", commit]).split("\n")
    : git(["ls-files", "--cached", "--others", "--exclude-standard"]).split("\n");
  const read = (path) => (commit ? git(["show", `${commit}:${path}`]) : readFileSync(path, "utf8"));
  return SURFACES.map((surface) => {
    const matched = files.filter((file) => surface.patterns.some((pattern) => pattern.test(file))).sort();
    const perFile = matched.map((file) => ({ file, lines: codeLines(read(file)) }));
    return { name: surface.name, lines: perFile.reduce((sum, f) => sum + f.lines, 0), perFile };
  });
}

const [before, after] = process.argv.slice(2);
const verbose = process.env.VERBOSE === "1";
if (after === undefined) {
  for (const surface of measure(before)) {
    console.log(`${surface.name.padEnd(24)} ${String(surface.lines).padStart(5)}`);
    if (verbose) for (const f of surface.perFile) console.log(`  ${f.file} ${f.lines}`);
  }
} else {
  const old = measure(before);
  const now = measure(after === "." ? undefined : after);
  console.log(`${"surface".padEnd(24)} ${before.padStart(8)} ${after.padStart(8)}  ratio`);
  for (const [i, surface] of now.entries()) {
    const ratio = Math.round((surface.lines / old[i].lines) * 100);
    console.log(`${surface.name.padEnd(24)} ${String(old[i].lines).padStart(8)} ${String(surface.lines).padStart(8)}  ${ratio} %`);
    if (verbose) for (const f of surface.perFile) console.log(`  ${f.file} ${f.lines}`);
  }
}
