// The emulator's public entry ("siteops/emulator"): `startEmulator()` in-process, or `siteops emulator` from the CLI.
// The server loads at the first call, not at import: without the optional peer dependencies the import works and
// the call throws one line with the `npm i` that installs them (common/emulator-peers.ts, as the CLI prints it),
// instead of Node's "Cannot find package 'fastify'".
import { missingPeersMessage } from "../common/emulator-peers.js";
import type { EmulatorOptions } from "./options.js";
import type { RunningEmulator } from "./server.js";

export type { RunningEmulator } from "./server.js";
export type { EmulatorOptions, LoginThrottleOptions, RateLimitOptions } from "./options.js";
export type { ProfileName } from "./profile.js";
export type { SeedFile, SeedGenerate, SeedSpread, SeedUser, DemoCredentials } from "./seed.js";
export type { FaultPhase, FaultRule } from "./control/faults.js";

/** Thrown by {@link startEmulator} when the emulator's optional peer dependencies are not installed. */
class MissingPeersError extends Error {
  override name = "MissingPeersError";
  readonly code = "ERR_SITEOPS_EMULATOR_PEERS";
}

/**
 * Starts the emulator in this process and resolves once it listens. Rejects with one line naming the `npm i -D`
 * command when its optional peer dependencies are missing (`code` `ERR_SITEOPS_EMULATOR_PEERS`).
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  let server: typeof import("./server.js");
  try {
    server = await import("./server.js");
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" ? missingPeersMessage("siteops/emulator") : null;
    if (missing) throw new MissingPeersError(missing, { cause: err });
    throw err;
  }
  return server.startEmulator(options);
}
