// An upgrade rollout over a fleet: pipelines opened wave by wave (operations/rollout-plan.ts), each wave waited
// for and each of its sites judged on evidence (operations/rollout-gates.ts); when a wave's failures exceed the
// budget the rollout stops there and the later waves' sites are never touched. A rerun of the same rollout
// adopts what an earlier run requested (`adopt`, kept by the caller through `onRequest`, as snapshotFleet does;
// or, with `requestKey`, what the service answers to the same key) and, whatever the records say, the site's
// active pipeline in the service: it never opens a second pipeline for a site. The core keeps no state of its own.

import { sleep } from "../internal/sleep.js";
import { mapPool } from "../pool.js";
import type { Site } from "../resources/sites.js";
import { allowedFailures, planWaves } from "./rollout-plan.js";
import { rolloutSite } from "./rollout-site.js";
import {
  DEFAULT_ROLLOUT_CONCURRENCY,
  DEFAULT_WAVE_TIMEOUT_MS,
  type RolloutClient,
  type RolloutOptions,
  type RolloutOutcome,
  type RolloutResult,
  type SiteRolloutResult,
  type WaveResult,
  type WaveVerdict,
} from "./rollout-types.js";

/**
 * Rolls an upgrade out over `sites`, wave by wave. Resolves with every site's result and the rollout's
 * outcome; never rejects for a site's failure. The sites of waves after the one that stopped it are
 * `untouched`: no request is made for them.
 */
export async function rolloutUpgrade(client: RolloutClient, sites: readonly Site[], options: RolloutOptions): Promise<RolloutResult> {
  const plan = planWaves(sites, options.waves, options.target);
  const earlier = new Map((options.adopt ?? []).map((r) => [r.siteId, r]));
  const waves: WaveResult[] = [];
  let outcome: RolloutOutcome = "done";
  let previousTouched = false;
  for (let i = 0; i < plan.length; i++) {
    const wave = i + 1;
    const members = plan[i]!;
    if (outcome !== "done") {
      waves.push({ wave, verdict: "not_started", sites: members.map((site) => untouched(site, wave)), failed: 0, allowed: 0 });
      continue;
    }
    const allowed = allowedFailures(options.maxFailures ?? { count: 0 }, members.length);
    try {
      // A wave whose sites were all settled in an earlier run was watched then: no second pause after it.
      if (i > 0 && previousTouched && (options.pause ?? 0) > 0) {
        options.onProgress?.({ type: "wave.paused", wave, ms: options.pause! });
        await sleep(options.pause!, { signal: options.signal, message: "The rollout was aborted." });
      }
    } catch {
      outcome = "interrupted";
      waves.push({ wave, verdict: "not_started", sites: members.map((site) => untouched(site, wave)), failed: 0, allowed });
      continue;
    }
    options.onProgress?.({ type: "wave.started", wave, waves: plan.length, sites: members });
    const deadline = Date.now() + (options.waveTimeout ?? DEFAULT_WAVE_TIMEOUT_MS);
    let touched = false;
    let failedSoFar = 0;
    const results = await mapPool(members, options.concurrency ?? DEFAULT_ROLLOUT_CONCURRENCY, async (site) => {
      // A wave already over its budget opens no more pipelines: its sites not yet started stay untouched.
      if (failedSoFar > allowed) return untouched(site, wave);
      const run = await rolloutSite(client, site, wave, deadline, earlier.get(site.id), options);
      if (run.result.outcome === "failed") failedSoFar++;
      touched ||= run.touched;
      options.onProgress?.({ type: "site.finished", wave, result: run.result });
      return run.result;
    });
    previousTouched = touched;
    const failed = results.filter((r) => r.outcome === "failed").length;
    const verdict: WaveVerdict = options.signal?.aborted
      ? "interrupted"
      : failed > allowed
        ? "stopped"
        : results.some((r) => r.outcome === "timed_out")
          ? "timed_out"
          : "passed";
    const result: WaveResult = { wave, verdict, sites: results, failed, allowed };
    waves.push(result);
    options.onProgress?.({ type: "wave.finished", result });
    if (verdict !== "passed") outcome = verdict === "stopped" ? "stopped" : verdict;
  }
  return { outcome, waves, sites: waves.flatMap((w) => w.sites) };
}

function untouched(site: Site, wave: number): SiteRolloutResult {
  return { site, wave, outcome: "untouched", adopted: false, pipeline: null, checks: [], reason: null, error: null, durationMs: 0 };
}
