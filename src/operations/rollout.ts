// An upgrade rollout over a fleet: the plan (operations/rollout-plan.ts: the sites that need the upgrade in waves,
// the others apart), then wave by wave each site's pipeline opened or adopted and judged on evidence
// (rollout-site.ts). Each wave's budget is resolved against its denominator, the sites it asks something of, and the
// guard below is where the rule "nothing opened after the wave's deadline or its budget" is kept. When a wave's
// failures exceed the budget the rollout stops there and the later waves' sites are never touched. A rerun adopts
// what an earlier run requested (`adopt`, kept by the caller through `onRequest`; `earlierRun`; or, with
// `requestKey`, what the service answers to the same key): it never opens a second pipeline for a site and target.
// The core keeps no state of its own.

import { sleep } from "../internal/sleep.js";
import { mapPool } from "../pool.js";
import type { Site } from "../resources/sites.js";
import { DEFAULT_CHECK_BUDGET_MS, DEFAULT_ROLLOUT_GATES } from "./rollout-gates.js";
import {
  DEFAULT_CHECK_PATH,
  DEFAULT_HEALTH_WAIT_MS,
  DEFAULT_ROLLOUT_CONCURRENCY,
  DEFAULT_UNKNOWN_STATE_WAIT_MS,
  DEFAULT_WAVE_TIMEOUT_MS,
} from "./rollout-options.js";
import { allowedFailures, type FailureBudget, planRollout, RolloutSpecError } from "./rollout-plan.js";
import { rolloutCounts } from "./rollout-rows.js";
import { rolloutSite, type SiteRunOptions, siteResult, type WaveGuard } from "./rollout-site.js";
import { DEFAULT_PAGE_TIMEOUT_MS, DEFAULT_VIEWPORTS, DEFAULT_VISUAL_THRESHOLD } from "./visual-settings.js";
import type {
  RolloutClient,
  RolloutOptions,
  RolloutOutcome,
  RolloutRefusal,
  RolloutResult,
  SiteRolloutResult,
  WaveResult,
  WaveVerdict,
} from "./rollout-types.js";

/** The options with every default filled in (the defaults are declared in rollout-options.ts). */
function withDefaults(options: RolloutOptions): SiteRunOptions {
  return {
    ...options,
    gates: options.gates ?? DEFAULT_ROLLOUT_GATES,
    checkPaths: options.checkPaths ?? [DEFAULT_CHECK_PATH],
    checkBudget: options.checkBudget ?? DEFAULT_CHECK_BUDGET_MS,
    maxFailures: options.maxFailures ?? { count: 0 },
    pause: options.pause ?? 0,
    requireApproval: options.requireApproval ?? false,
    concurrency: options.concurrency ?? DEFAULT_ROLLOUT_CONCURRENCY,
    waveTimeout: options.waveTimeout ?? DEFAULT_WAVE_TIMEOUT_MS,
    healthWait: options.healthWait ?? DEFAULT_HEALTH_WAIT_MS,
    unknownStateWait: options.unknownStateWait ?? DEFAULT_UNKNOWN_STATE_WAIT_MS,
    viewports: options.viewports ?? DEFAULT_VIEWPORTS,
    visualIgnore: options.visualIgnore ?? [],
    visualThreshold: options.visualThreshold ?? DEFAULT_VISUAL_THRESHOLD,
    visualTimeout: options.visualTimeout ?? DEFAULT_PAGE_TIMEOUT_MS,
  };
}

/**
 * A wave's guard. Its denominator `size` starts at the wave's members (all need the upgrade, as listed) and loses a
 * site found at the target when asked; `allowed` is the budget against it. Worked cases (budget 10%): 20 members
 * allow 2 failures; 2 of them found already upgraded leave 18, which allow 1. The denominator only shrinks, so once
 * `failed > allowed` the wave is over its budget for good: no pipeline is opened from then on, nor after `deadline`,
 * nor once the run is refused or aborted.
 */
class Wave implements WaveGuard {
  size: number;
  failed = 0;
  refusal: RolloutRefusal | null = null;
  constructor(
    members: number,
    readonly budget: FailureBudget,
    readonly deadline: number,
    readonly signal: AbortSignal | undefined,
    readonly run: { refusal: RolloutRefusal | null },
  ) {
    this.size = members;
  }
  get allowed(): number {
    return allowedFailures(this.budget, this.size);
  }
  closed(): "deadline" | "budget" | "refused" | "aborted" | null {
    if (this.signal?.aborted) return "aborted";
    if (this.run.refusal) return "refused";
    if (this.failed > this.allowed) return "budget";
    return Date.now() >= this.deadline ? "deadline" : null;
  }
  atTarget(): void {
    this.size--;
  }
  refuse(refusal: RolloutRefusal): void {
    this.run.refusal ??= refusal;
  }
}

/**
 * Rolls an upgrade out over `sites`, wave by wave. Resolves with every site's result, each wave's verdict with its
 * denominator and counts, and the rollout's outcome; never rejects for a site's failure. The sites of waves after the
 * one that stopped it are `untouched`: no request is made for them.
 */
export async function rolloutUpgrade(client: RolloutClient, sites: readonly Site[], rolloutOptions: RolloutOptions): Promise<RolloutResult> {
  const options = withDefaults(rolloutOptions);
  // The pictures come from whoever drives a browser: a visual gate without them would judge nothing.
  if (options.gates.includes("visual") && !options.visual)
    throw new RolloutSpecError("the visual gate needs its pictures: give `visual` (a VisualEvidence: the CLI and the action give visual/gate.ts's)");
  const earlier = new Map((options.adopt ?? []).map((r) => [r.siteId, r]));
  const plan = planRollout(sites, options.waves, options.target, { earlier: new Set(earlier.keys()) });
  const only = options.onlyWave;
  if (only !== undefined && only > plan.waves.length)
    throw new RolloutSpecError(
      `there is no wave ${only}: the rollout has ${plan.waves.length} wave${plan.waves.length === 1 ? "" : "s"} over the ${plan.waves.flat().length} sites that need the upgrade`,
    );
  const current = plan.current.map((site) => siteResult(site, null, "already_upgraded"));
  options.onProgress?.({ type: "rollout.planned", sites: new Set(sites.map((s) => s.id)).size, target: options.target, ...plan });
  const run: { refusal: RolloutRefusal | null } = { refusal: null };
  const waves: WaveResult[] = [];
  let outcome: RolloutOutcome = "done";
  let previousTouched = false;
  const notStarted = (members: readonly Site[], wave: number): WaveResult => {
    const results = members.map((site) => siteResult(site, wave));
    return {
      wave,
      verdict: "not_started",
      sites: results,
      size: members.length,
      allowed: allowedFailures(options.maxFailures, members.length),
      counts: rolloutCounts(results),
    };
  };
  for (let i = 0; i < plan.waves.length; i++) {
    const wave = i + 1;
    const members = plan.waves[i]!;
    if (only !== undefined && wave !== only) continue;
    if (outcome !== "done") {
      waves.push(notStarted(members, wave));
      continue;
    }
    try {
      // A wave whose sites were all settled in an earlier run was watched then: no second pause after it.
      if (i > 0 && only === undefined && previousTouched && options.pause > 0) {
        options.onProgress?.({ type: "wave.paused", wave, ms: options.pause });
        await sleep(options.pause, { signal: options.signal, message: "The rollout was aborted." });
      }
    } catch {
      outcome = "interrupted";
      waves.push(notStarted(members, wave));
      continue;
    }
    const guard = new Wave(members.length, options.maxFailures, Date.now() + options.waveTimeout, options.signal, run);
    options.onProgress?.({
      type: "wave.started",
      wave,
      waves: plan.waves.length,
      sites: members,
      size: guard.size,
      allowed: guard.allowed,
      deadline: guard.deadline,
    });
    let touched = false;
    const finished: SiteRolloutResult[] = [];
    const results = await mapPool(members, options.concurrency, async (site) => {
      if (guard.closed()) return siteResult(site, wave);
      const done = await rolloutSite(client, site, wave, guard, earlier.get(site.id), options);
      if (done.result.outcome === "failed") guard.failed++;
      touched ||= done.touched;
      finished.push(done.result);
      options.onProgress?.({ type: "site.finished", wave, result: done.result, counts: rolloutCounts(finished) });
      return done.result;
    });
    previousTouched = touched;
    const counts = rolloutCounts(results);
    const verdict: WaveVerdict = run.refusal
      ? "refused"
      : options.signal?.aborted
        ? "interrupted"
        : guard.failed > guard.allowed
          ? "stopped"
          : counts.timed_out > 0 || counts.untouched > 0
            ? "timed_out"
            : "passed";
    const result: WaveResult = { wave, verdict, sites: results, size: guard.size, allowed: guard.allowed, counts };
    waves.push(result);
    options.onProgress?.({ type: "wave.finished", result, waves: plan.waves.length });
    if (verdict !== "passed") outcome = verdict;
  }
  const all = [...waves.flatMap((w) => w.sites), ...current];
  return {
    outcome,
    refusal: run.refusal,
    target: options.target,
    planned: plan.waves.length,
    waves,
    current,
    sites: all,
    merged: plan.merged,
    counts: rolloutCounts(all),
  };
}
