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
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
