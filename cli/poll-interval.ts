// How often a command that waits (snapshot create, upgrade) polls the service: SITEOPS_POLL_INTERVAL_MS.

import { UsageError } from "./exit-codes.js";

/** Time between two polls while waiting: env SITEOPS_POLL_INTERVAL_MS, else the core's default. */
export function pollIntervalFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SITEOPS_POLL_INTERVAL_MS?.trim();
  if (!raw) return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > 600_000)
    throw new UsageError(`SITEOPS_POLL_INTERVAL_MS must be a whole number of milliseconds from 1 to 600000 (got ${JSON.stringify(raw)})`);
  return n;
}
