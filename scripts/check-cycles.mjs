#!/usr/bin/env node
// CI check (.ci/run runs every scripts/check-*.mjs): no import cycle anywhere in the tree, type-only
// imports included (as `npx madge --circular --extensions ts emulator src` counts them): a cycle is a
// place where a change ripples into its importers' importers. STYLE.md habit 8 says how to break one.
//
//   node scripts/check-cycles.mjs [DIR ...]    default: every source folder of the repository
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SOURCE_DIRS = ["emulator", "src", "common", "wire", "cli", "visual", "provider", "action/src", "bench", "test", "examples", "scripts"];
const EXCLUDE = [/node_modules/, /(^|\/)provider\/cdktf\//, /(^|\/)action\/dist\//, /(^|\/)dist\//, /\.d\.ts$/, /(^|\/)\.terraform\//];

/** Every cycle madge finds under `dirs` (paths relative to `root`), type-only imports included. */
export async function findCycles({ root = ROOT, dirs = SOURCE_DIRS } = {}) {
  const { default: madge } = await import("madge");
  const { existsSync } = await import("node:fs");
  const present = dirs.filter((d) => existsSync(path.join(root, d)));
  // suppressDeprecatedPropertyWarnings goes to @typescript-eslint/typescript-estree's parse: node-source-walk
  // (under detective-typescript) reads every key of every node, the deprecated aliases too (TSImportType's
  // `argument`), and each read printed "DeprecationWarning: The 'argument' property is deprecated on
  // TSImportType nodes" into npm test and .ci/run. Nothing here reads the alias itself.
  const detective = { skipTypeImports: false, skipAsyncImports: false, suppressDeprecatedPropertyWarnings: true };
  const detectiveEs = { skipTypeImports: false, skipAsyncImports: false };
  const result = await madge(
    present.map((d) => path.join(root, d)),
    {
      baseDir: root,
      fileExtensions: ["ts", "mts", "mjs", "js"],
      excludeRegExp: EXCLUDE,
      tsConfig: path.join(root, "tsconfig.json"),
      detectiveOptions: { ts: detective, tsx: detective, es6: detectiveEs },
    },
  );
  return result.circular();
}

async function main() {
  const dirs = process.argv.slice(2);
  const cycles = await findCycles(dirs.length ? { dirs } : {});
  if (cycles.length) {
    console.error(
      `check-cycles: ${cycles.length} import cycle(s):\n` +
        cycles.map((c) => `  ${c.join(" -> ")} -> ${c[0]}`).join("\n") +
        "\nBreak each where it reads most naturally: move the shared piece below both files (a types file, a store" +
        " module), or send the effect through an event (STYLE.md, habit 8).",
    );
    return 1;
  }
  console.error("check-cycles: no import cycles");
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = await main();
  } catch (err) {
    console.error(`check-cycles: ${err instanceof Error ? err.stack : err}`);
    process.exitCode = 1;
  }
}
