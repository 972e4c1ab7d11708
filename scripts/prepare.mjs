#!/usr/bin/env node
// npm's "prepare" hook. dist/ is built, not committed, so an install from a git URL (`npm i github:owner/siteops`:
// npm clones the repository, installs its dev dependencies and runs "prepare" before packing it) must build it.
// It builds only when dist/ is missing, and never under `npm ci`: CI and the README's setup run `npm run build`
// themselves, and a developer's `npm ci` should not fail on a half-written change.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (process.env.npm_command !== "ci" && !existsSync(path.join(root, "dist", "src", "index.js"))) {
  console.error("prepare: dist/ is missing; building it (npm run build)");
  const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  process.exitCode = r.status ?? 1;
}
