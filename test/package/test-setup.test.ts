// `npm ci && npm run demo`, then `npm test`: the tests' global setup (test/global-setup.ts) builds dist/ when it
// is missing or stale, and leaves a current one alone (CI builds first and must not build twice). Run in a copy
// of the repository's files without dist/, as a fresh clone has them, with this checkout's node_modules linked.
import { spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { removeDir, tempDir } from "../support/temp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { staleReason } = (await import(pathToFileURL(path.join(ROOT, "scripts/build-inputs.mjs")).href)) as {
  staleReason(root: string): string | null;
};

const clone = tempDir("fresh-clone");
afterAll(() => removeDir(clone));

function copyTrackedFiles(): void {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    try {
      copyFileSync(path.join(ROOT, file), path.join(clone, file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err; // deleted in the work tree, not yet committed
    }
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"));
}

const vitest = (file: string) =>
  spawnSync(process.execPath, [path.join(clone, "node_modules/vitest/vitest.mjs"), "run", file], {
    cwd: clone,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CHECKPOINT_DISABLE: "1" },
  });

describe("npm test on a checkout without dist/", () => {
  it("builds dist/ once before the tests, then finds it current; an edited source makes it stale", { timeout: 600_000 }, () => {
    copyTrackedFiles();
    expect(staleReason(clone)).toBe("dist/src/index.js is missing");

    const first = vitest("test/cli/entry.test.ts");
    expect(first.status, first.stdout + first.stderr).toBe(0);
    expect(first.stderr).toContain("test: dist/src/index.js is missing; building dist/ first (npm run build)");
    expect(first.stdout).toMatch(/Test Files\s+1 passed/);

    // What `npm run build` wrote is recognised: the next run (and CI's, after its own build) does not build.
    expect(staleReason(clone)).toBeNull();
    const second = vitest("test/cli/entry.test.ts");
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(second.stderr).not.toContain("building dist/");

    appendFileSync(path.join(clone, "src/index.ts"), "\n");
    expect(staleReason(clone)).toBe("the sources changed since the last build");
  });
});
