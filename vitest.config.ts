// The test runner's configuration: which files are tests, how many workers, the timeouts.
import path from "node:path";
import { defineConfig } from "vitest/config";

// Each test file runs in a fresh worker process, and on two slow cores its start took ~1.5 s, most of it compiling
// vitest's own modules again (2026-11-29: 16 files of test/core, one worker, 70 s -> 48 s with the cache). Node's
// compile cache is turned on for the workers through the environment they inherit from this process; the setup file
// takes it out again before a test runs (test/support/worker-env.ts). Kept when the caller set NODE_COMPILE_CACHE.
if (!process.env.NODE_COMPILE_CACHE) {
  process.env.NODE_COMPILE_CACHE = path.join(import.meta.dirname, "node_modules", ".cache", "vitest-compile-cache");
  process.env.SITEOPS_TEST_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE;
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Builds dist/ first when it is missing or stale (the CLI, package and release tests load it).
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/support/worker-env.ts"],
    pool: "forks",
    // Two cores here: more workers only add contention for the emulator and terraform child processes.
    maxWorkers: 2,
    // Hang guards, not timing thresholds: a terraform or Chromium test that takes 15 s on a quiet machine took
    // 60-120 s at a load of 19 (2026-11-29), and a guard that fires there fails a correct test.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default"],
  },
});
