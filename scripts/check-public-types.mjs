#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs, after the build): no `any` in the public types. Walks the
// declaration files the package's entry points ("siteops", "siteops/fleet", "siteops/emulator") reach through their imports in
// dist/, and fails on each `any` keyword it finds there, with file, line and the declaration it sits in. A
// user's editor shows these types; an `any` there switches off their type checking at that spot.
//
//   node scripts/check-public-types.mjs [FILE.d.ts ...]    default: dist/src/index.d.ts dist/src/fleet.d.ts dist/emulator/index.d.ts
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ENTRIES = ["dist/src/index.d.ts", "dist/src/fleet.d.ts", "dist/emulator/index.d.ts"];

/** The relative module a specifier names, as its .d.ts in dist (./x.js -> ./x.d.ts, ./dir -> ./dir/index.d.ts). */
function resolveDts(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base.replace(/\.(m|c)?js$/, ".d.$1ts"), `${base}.d.ts`, path.join(base, "index.d.ts")];
  return candidates.find((c) => c.endsWith(".d.ts") && existsSync(c));
}

/** Every `any` in the declaration files reachable from `entries`: { file, line, where }. */
function findAnys(entries) {
  const seen = new Set();
  const queue = [...entries];
  const found = [];
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node, where) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const next = resolveDts(file, node.moduleSpecifier.text);
        if (next) queue.push(next);
      }
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        const next = resolveDts(file, node.argument.literal.text);
        if (next) queue.push(next);
      }
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
      const here = name && (ts.isDeclarationStatement(node) || ts.isClassElement(node) || ts.isTypeElement(node)) ? (where ? `${where}.${name}` : name) : where;
      if (node.kind === ts.SyntaxKind.AnyKeyword) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({ file: path.relative(ROOT, file), line: line + 1, where: here ?? "(top level)" });
      }
      ts.forEachChild(node, (child) => visit(child, here));
    };
    visit(source, undefined);
  }
  return { files: seen.size, found };
}

function main() {
  const args = process.argv.slice(2);
  const entries = (args.length ? args : ENTRIES).map((e) => path.resolve(ROOT, e));
  const missing = entries.filter((e) => !existsSync(e));
  if (missing.length) {
    console.error(`check-public-types: ${missing.map((m) => path.relative(ROOT, m)).join(", ")} missing: run \`npm run build\` first`);
    return 1;
  }
  const { files, found } = findAnys(entries);
  if (found.length) {
    console.error(
      `check-public-types: \`any\` in the public types (${found.length}):\n` +
        found.map((f) => `  ${f.file}:${f.line}  ${f.where}`).join("\n") +
        "\nName the type (or `unknown` where the caller must check it): STYLE.md, habit 7.",
    );
    return 1;
  }
  console.error(`check-public-types: no \`any\` in the ${files} declaration files of the public entry points`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) process.exitCode = main();
