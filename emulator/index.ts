// The emulator's public entry: `startEmulator()` in-process, or `siteops emulator` from the CLI.
export { startEmulator, type RunningEmulator } from "./server.js";
export type { EmulatorOptions, LoginThrottleOptions, RateLimitOptions } from "./options.js";
export type { ProfileName } from "./profile.js";
export type { SeedFile, SeedGenerate, SeedUser, DemoCredentials } from "./seed.js";
export type { FaultPhase, FaultRule } from "./control/faults.js";
