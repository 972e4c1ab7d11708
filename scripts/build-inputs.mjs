// Whether dist/ matches the sources: `npm run build` records a hash of its inputs in dist/.build-inputs when it
// ends, and the tests' global setup (test/global-setup.ts) builds only when that file, or an output the tests
// load, is missing, or when the inputs hash differently now (a pull, a branch switch, an edit). So `npm test`
// works on a fresh clone, and after CI's explicit `npm run build` it builds nothing again.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const STAMP = "dist/.build-inputs";

/** What the build reads: folders walked recursively (those that do not exist are skipped) and single files. */
const INPUT_DIRS = ["src", "common", "wire", "cli", "visual", "emulator", "provider", "action/src", "bin"];
const INPUT_FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "tsconfig.cdktf.json", "tsconfig.cdktn.json"];
/** Written by the build inside the input folders: not inputs. */
const BUILD_WRITES = new Set(["provider/docs"]);
/** The outputs the tests load; any of them missing means "build". */
const OUTPUTS = ["dist/src/index.js", "dist/emulator/index.js", "dist/cli/siteops.cjs", "dist/provider", "dist/cdktf/schema.json", "dist/cdktn/index.js"];

function walk(root, rel, files) {
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = `${rel}/${entry.name}`;
    if (BUILD_WRITES.has(child) || entry.name === "node_modules") continue;
    if (entry.isDirectory()) walk(root, child, files);
    else if (entry.isFile()) files.push(child);
  }
}

/** A hash of every input file's path and content (the build scripts' included). */
export function inputsHash(root) {
  const files = [];
  for (const dir of INPUT_DIRS) if (existsSync(path.join(root, dir))) walk(root, dir, files);
  for (const name of readdirSync(path.join(root, "scripts"))) if (/^(build|generate).*\.mjs$|^esbuild-/.test(name)) files.push(`scripts/${name}`);
  for (const file of INPUT_FILES) if (existsSync(path.join(root, file))) files.push(file);
  const hash = createHash("sha256");
  for (const file of files.sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

/** Why dist/ must be built before the tests, or null when it is current. */
export function staleReason(root) {
  const missing = OUTPUTS.find((out) => !existsSync(path.join(root, out)));
  if (missing) return `${missing} is missing`;
  const stamp = path.join(root, STAMP);
  if (!existsSync(stamp)) return `${STAMP} is missing (dist/ was not made by this version of npm run build)`;
  if (readFileSync(stamp, "utf8").trim() !== inputsHash(root)) return "the sources changed since the last build";
  return null;
}
