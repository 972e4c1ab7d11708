// Following one site's pipeline of a rollout to its end, on evidence the contract defines. The spec shows no pipeline
// states: the emulator's (pending, running, awaiting_approval, applying, succeeded, failed, rolled_back) are the ones
// siteops knows. A pipeline in a state it does not know is judged on what the contract does show, the site's own
// wp_version and php_version: once they reach the target the upgrade took (its health is judged after it, as for any
// site); a pipeline that sits in such a state with no change to it or the site fails the site after
// `unknownStateWait`, well before the wave's timeout, saying so.

import { SiteOpsError, WaitTimeoutError } from "../errors.js";
import { backoffDelay } from "../internal/retry.js";
import { sleep } from "../internal/sleep.js";
import type { Site } from "../resources/sites.js";
import type { UpgradePipeline } from "../resources/upgrade-pipelines.js";
import { formatTarget, reachesTarget, type RolloutTarget } from "./rollout-plan.js";
import { PIPELINE_FINAL_STATES, ROLLBACK_GRACE_MS } from "./upgrade.js";
import { DEFAULT_POLL_INTERVAL_MS, INITIAL_POLL_DELAY_MS } from "./wait.js";
import type { RolloutClient } from "./rollout-types.js";

/** The pipeline states siteops knows (the emulator's, docs/design.md section 2); any other is judged on the site. */
export const KNOWN_PIPELINE_STATES: ReadonlySet<string> = new Set(["pending", "running", "awaiting_approval", "applying", ...PIPELINE_FINAL_STATES]);

/** A pipeline in a state siteops does not know sat unchanged, its site short of the target, for the allowed wait. */
export class UnknownPipelineStateError extends SiteOpsError {
  override readonly code: string = "PIPELINE_STATE_UNKNOWN";
  /** The phrase every site judged alike shares. */
  readonly reason: string;
  constructor(message: string, state: string) {
    super(message);
    this.reason = `pipeline ${JSON.stringify(state)}, a state siteops does not know, with the site short of the target`;
  }
}

/** How a followed pipeline ended: as it was last seen, and the site's answer when that was the evidence (a state
 * siteops does not know, the site's versions at the target). */
export interface Followed {
  pipeline: UpgradePipeline;
  /** The site as it answered with its versions at the target, when the pipeline's state was not one siteops knows. */
  evidence: Site | null;
}

export interface FollowOptions {
  target: RolloutTarget;
  /** Epoch ms: a WaitTimeoutError after it. */
  deadline: number;
  unknownStateWait: number;
  pollInterval?: number | undefined;
  signal?: AbortSignal | undefined;
  onChange?: (pipeline: UpgradePipeline) => void;
}

/**
 * Whether a pipeline in a state siteops knows has ended for the rollout. One that failed after its apply step started
 * is followed until it reports `rolled_back` (for at most ROLLBACK_GRACE_MS after `failedAt`, as the upgrade waiter
 * does), so the wave moves on with the site restored and the reason says so.
 */
function settled(p: UpgradePipeline, failedAt: number): boolean {
  if (!PIPELINE_FINAL_STATES.has(p.status)) return false;
  if (p.status !== "failed") return true;
  const applied = (p.steps ?? []).some((step) => step.name === "apply" && step.status !== "pending" && step.status !== "skipped");
  return !applied || Date.now() - failedAt >= ROLLBACK_GRACE_MS;
}

const pipelineKey = (p: UpgradePipeline) => `${p.status}|${p.updated_at ?? ""}|${(p.steps ?? []).map((s) => s.status).join(",")}`;
const siteKey = (s: Site) => `${s.wp_version}|${s.php_version}`;

/** Follows `pipeline` until it ends (a known final state), or its site's versions reach the target while its state is
 * not one siteops knows. Throws WaitTimeoutError at the deadline, UnknownPipelineStateError as the file says. */
export async function followPipeline(client: RolloutClient, site: Site, first: UpgradePipeline, options: FollowOptions): Promise<Followed> {
  const schedule = {
    initialMs: Math.min(INITIAL_POLL_DELAY_MS, options.pollInterval ?? DEFAULT_POLL_INTERVAL_MS),
    maxMs: options.pollInterval ?? DEFAULT_POLL_INTERVAL_MS,
    jitter: "none" as const,
  };
  let pipeline = first;
  let key = pipelineKey(pipeline);
  let seen: string | undefined;
  let changedAt = Date.now();
  let failedAt: number | undefined;
  for (let polls = 0; ; polls++) {
    if (pipeline.status === "failed") failedAt ??= Date.now();
    if (KNOWN_PIPELINE_STATES.has(pipeline.status)) {
      if (settled(pipeline, failedAt ?? Date.now())) return { pipeline, evidence: null };
    } else {
      const now = await client.sites.get(site.id, { signal: options.signal });
      if (reachesTarget(now, options.target)) return { pipeline, evidence: now };
      if (seen !== undefined && siteKey(now) !== seen) changedAt = Date.now();
      seen = siteKey(now);
      const waited = Date.now() - changedAt;
      if (waited >= options.unknownStateWait) throw unknownState(pipeline, now, options.target, waited);
    }
    const left = options.deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`Timed out waiting: upgrade pipeline ${pipeline.id} of ${site.id} is ${pipeline.status}.`);
    const untilUnknown = KNOWN_PIPELINE_STATES.has(pipeline.status) ? left : Math.max(1, options.unknownStateWait - (Date.now() - changedAt));
    await sleep(Math.min(backoffDelay(polls, schedule), left, untilUnknown), { signal: options.signal, message: "The rollout was aborted." });
    pipeline = await client.upgradePipelines.get(site.id, pipeline.id, { signal: options.signal });
    const next = pipelineKey(pipeline);
    if (next !== key) {
      key = next;
      changedAt = Date.now();
      options.onChange?.(pipeline);
    }
  }
}

function unknownState(p: UpgradePipeline, site: Site, target: RolloutTarget, waitedMs: number): UnknownPipelineStateError {
  const have = formatTarget({ wp: target.wp ? String(site.wp_version) : undefined, php: target.php ? String(site.php_version) : undefined });
  const waited = waitedMs < 60_000 ? `${Math.round(waitedMs / 1000)} s` : `${Math.round(waitedMs / 60_000)} min`;
  return new UnknownPipelineStateError(
    `pipeline ${p.id} has been ${JSON.stringify(p.status)}, a state siteops does not know, for ${waited}, and the site is still at ${have}, short of ${formatTarget(target)}: not judged upgraded`,
    p.status,
  );
}
