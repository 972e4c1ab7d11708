// The test runner's configuration: which files are tests, how many workers, the timeouts.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Builds dist/ first when it is missing or stale (the CLI, package and release tests load it).
    globalSetup: ["test/global-setup.ts"],
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
