// Runs in each test worker before its file (vitest.config.ts, setupFiles): takes NODE_COMPILE_CACHE out of the
// worker's environment when vitest.config.ts put it there for the workers' own start, so that every process a test
// starts (the CLI, the provider, the emulator, terraform's plugins) runs with the environment a user's would, and
// with its own compile cache where it has one.
if (process.env.SITEOPS_TEST_COMPILE_CACHE && process.env.NODE_COMPILE_CACHE === process.env.SITEOPS_TEST_COMPILE_CACHE) {
  delete process.env.NODE_COMPILE_CACHE;
}
delete process.env.SITEOPS_TEST_COMPILE_CACHE;
