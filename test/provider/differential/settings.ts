// The differential tests' seed and run counts: fixed in CI, larger on demand (README.md in this folder).
//   DIFFERENTIAL_SEED=<n>   another seed (fast-check prints the failing seed and path to replay)
//   DIFFERENTIAL_SCALE=<k>  k times the runs of every property (the longer random run: k = 100)

const SEED = Number(process.env.DIFFERENTIAL_SEED ?? 53);
const SCALE = Number(process.env.DIFFERENTIAL_SCALE ?? 1);

/** fast-check's options for a property run `n` times at scale 1. */
export function runs(n: number): { seed: number; numRuns: number } {
  return { seed: SEED, numRuns: Math.max(1, Math.round(n * SCALE)) };
}

/** A longer test timeout at a larger scale. */
export const TIMEOUT = 120_000 * Math.max(1, SCALE);
