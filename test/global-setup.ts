// Vitest's global setup: builds dist/ (npm run build) before any test when it is missing or older than the
// sources, so `npm test` works as the README runs it, right after `npm ci` (scripts/build-inputs.mjs decides).
// After CI's explicit `npm run build` it finds dist/ current and builds nothing.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default async function setup(): Promise<void> {
  const { staleReason } = (await import(pathToFileURL(path.join(ROOT, "scripts/build-inputs.mjs")).href)) as {
    staleReason(root: string): string | null;
  };
  const reason = staleReason(ROOT);
  if (reason === null) return;
  process.stderr.write(`test: ${reason}; building dist/ first (npm run build)\n`);
  // stdout to stderr too: the build's lines are progress, not test output.
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", process.stderr, process.stderr] });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status ?? build.signal}): fix it, then run the tests again`);
}
