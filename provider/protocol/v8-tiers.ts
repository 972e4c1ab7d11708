// Which of V8's compilers run the provider's RPCs. Terraform starts the provider 3-5 times per command and each
// process serves one phase's RPCs, a few hundred for a few hundred resources, while Terraform works on the same
// cores: there V8's optimizing compilers (Maglev, TurboFan) spent more CPU than their code saved in so short a
// life. So a process serves its first BASELINE_CALLS RPCs on the interpreter and the baseline compiler (Sparkplug)
// only, then turns the optimizing compilers back on for a long run (thousands of resources), where they pay.
// Provider CPU per resource, bench provider-rpc on a busy machine (bench/results/provider-issue-51.md, "Less work
// per RPC"): 200 per process 876 -> 422 us (siteops_noop), 2,432 -> 1,863 (siteops_site); 2,000 per process (6,000
// RPCs) cost 11-25 % more without the optimizing compilers, so they come back for longer runs. SITEOPS_V8_OPTIMIZE=1
// keeps Node's default from the start.

/** RPCs served before the optimizing compilers come back: an apply's process serves 3 per resource, the process of
 * a no-op plan 4 (UpgradeResourceState, ReadResource, ValidateResourceConfig, PlanResourceChange). */
export const BASELINE_CALLS = 5_000;
const BASELINE = "--no-maglev --no-turbofan --always-sparkplug";
const DEFAULT = "--maglev --turbofan --no-always-sparkplug";

type SetFlags = (flags: string) => void;

export interface Tiers {
  /** Counts one RPC; the BASELINE_CALLS-th turns the optimizing compilers back on. */
  served(): void;
}

/** Baseline tiers from now on, unless SITEOPS_V8_OPTIMIZE is set (V8 reads the flags at each tier-up decision).
 * node:v8 through getBuiltinModule: loaded when called, not at start-up. */
export function baselineTiersFirst(env: NodeJS.ProcessEnv, setFlags: SetFlags | undefined = process.getBuiltinModule?.("node:v8")?.setFlagsFromString): Tiers {
  if (env.SITEOPS_V8_OPTIMIZE || !setFlags) return { served() {} };
  setFlags(BASELINE);
  let left = BASELINE_CALLS;
  return {
    served() {
      if (left > 0 && --left === 0) setFlags(DEFAULT);
    },
  };
}
