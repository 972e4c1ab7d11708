// Where the installed siteops package is, for the code that reads its files (package.json's peer ranges, the
// provider's launcher and release files): the nearest directory above the running module whose package.json is
// named "siteops". Found by walking up, so it holds from a source run (common/), from the CLI's bundles
// (dist/cli/*.mjs) and from tsc's output (dist/common/) alike.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const file = path.join(dir, "package.json");
    if (existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === "siteops") return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the siteops package root");
    dir = parent;
  }
}
