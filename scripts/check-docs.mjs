#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs), and `npm run docs`: the API reference and the links.
//   1. TypeDoc generates the API reference of the public entry points ("siteops", "siteops/emulator") from their
//      doc comments (typedoc.json): a broken {@link}, or a public type that refers to one the entry points do
//      not export, fails it (treatWarningsAsErrors).
//   2. Every relative link of the generated HTML resolves to a file, and its #anchor to an id in that file.
//   3. Every relative link of the repository's Markdown (README.md, docs/, examples/, provider/*/README.md, ...)
//      resolves to a file or folder of the repository, and its #anchor to a heading there (GitHub's slugs).
//
//   node scripts/check-docs.mjs              generate into a temp dir, check, remove it (CI)
//   node scripts/check-docs.mjs --out DIR    generate into DIR and keep it (`npm run docs`: docs/api/)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SKIP_DIRS = new Set(["node_modules", ".git", "dist", ".tmp", "coverage", ".terraform", "api"]);

function walk(dir, keep) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!SKIP_DIRS.has(name)) out.push(...walk(full, keep));
    } else if (keep(name)) out.push(full);
  }
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingSlugs(markdown) {
  const seen = new Map();
  const slugs = new Set();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .replace(/<[^>]+>/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n ? `${base}-${n}` : base);
  }
  return slugs;
}

/** The anchors of a Markdown file: its headings' slugs and the ids of HTML anchors in it (<a id="...">). */
function markdownAnchors(markdown) {
  const anchors = headingSlugs(markdown);
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/** Broken relative links of the Markdown files under root. */
export function markdownProblems(root) {
  const problems = [];
  for (const file of walk(root, (n) => n.endsWith(".md"))) {
    const text = readFileSync(file, "utf8")
      .replace(/^\s*```[\s\S]*?^\s*```/gm, "")
      .replace(/`[^`\n]*`/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][\w+.-]*:/i.test(target)) continue; // https:, mailto:
      const [rel, anchor] = target.split("#");
      const resolved = rel ? path.resolve(path.dirname(file), decodeURIComponent(rel)) : file;
      const where = `${path.relative(root, file)}: (${target})`;
      if (!existsSync(resolved)) problems.push(`${where} points to a missing ${path.relative(root, resolved)}`);
      else if (anchor && resolved.endsWith(".md") && !markdownAnchors(readFileSync(resolved, "utf8")).has(anchor)) {
        problems.push(`${where}: no heading #${anchor} in ${path.relative(root, resolved)}`);
      }
    }
  }
  return problems;
}

/** Broken relative links of the generated HTML. */
export function htmlProblems(dir) {
  const problems = [];
  const ids = new Map();
  const idsOf = (file) => {
    if (!ids.has(file)) ids.set(file, new Set([...readFileSync(file, "utf8").matchAll(/\s(?:id|name)="([^"]+)"/g)].map((m) => m[1])));
    return ids.get(file);
  };
  for (const file of walk(dir, (n) => n.endsWith(".html"))) {
    for (const m of readFileSync(file, "utf8").matchAll(/\s(?:href|src)="([^"]+)"/g)) {
      const target = m[1].replace(/&amp;/g, "&");
      if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith("//")) continue;
      const [rel, anchor] = target.split("#");
      const resolved = rel ? path.resolve(path.dirname(file), decodeURIComponent(rel.split("?")[0])) : file;
      const where = `${path.relative(dir, file)}: ${target}`;
      if (!existsSync(resolved)) problems.push(`${where} points to a missing file`);
      else if (anchor && resolved.endsWith(".html") && !idsOf(resolved).has(decodeURIComponent(anchor))) problems.push(`${where}: no id "${anchor}"`);
    }
  }
  return problems;
}

function main() {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const out = values.out ? path.resolve(values.out) : mkdtempSync(path.join(tmpdir(), "siteops-api-"));
  try {
    const typedoc = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typedoc/bin/typedoc"), "--out", out, "--logLevel", "Warn"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    const problems = [];
    if (typedoc.status !== 0) problems.push(`TypeDoc (typedoc.json) failed:\n${`${typedoc.stdout}${typedoc.stderr}`.trim()}`);
    else problems.push(...htmlProblems(out).map((p) => `API reference: ${p}`));
    problems.push(...markdownProblems(ROOT));
    if (problems.length) {
      console.error(`check-docs: ${problems.join("\ncheck-docs: ")}`);
      return 1;
    }
    console.error(
      `check-docs: API reference generated${values.out ? ` in ${path.relative(process.cwd(), out) || out}` : ""}; its links and the Markdown links resolve`,
    );
    return 0;
  } finally {
    if (!values.out) rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
