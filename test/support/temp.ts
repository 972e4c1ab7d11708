// Temp folders for tests: each under the system's temp dir with a `siteops-<label>-` prefix (so the runs of
// several developers never collide), removed by the test file when it is done with them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach } from "vitest";

/** A fresh, empty folder: `<tmpdir>/siteops-<label>-XXXXXX` (mode 0700, as mkdtemp makes it). */
export function tempDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `siteops-${label}-`));
}

/** Removes a folder and everything in it; nothing when it is already gone. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * For a test file: a function that makes temp folders, each removed after the test that made it (`"each"`) or
 * after the file's last test (`"all"`).
 */
export function useTempDirs(scope: "each" | "all" = "each"): (label: string) => string {
  const dirs: string[] = [];
  (scope === "each" ? afterEach : afterAll)(() => {
    for (const d of dirs.splice(0)) removeDir(d);
  });
  return (label) => {
    const d = tempDir(label);
    dirs.push(d);
    return d;
  };
}
