// A rollout's vocabulary: what it needs of a client, its options, what it records for a rerun, and how a site, a
// wave and the whole rollout went, with their counts (operations/rollout.ts runs it, rollout-site.ts one site; the
// options a person gives are declared in rollout-options.ts, the records every surface prints in rollout-rows.ts).

import { SiteOpsError } from "../errors.js";
import type { HealthChecks } from "../resources/health-checks.js";
import type { Site } from "../resources/sites.js";
import type { UpgradePipeline, UpgradePipelineCreateParams } from "../resources/upgrade-pipelines.js";
import type { OperationsClient } from "./client.js";
import type { GateCheck, RolloutGate } from "./rollout-gates.js";
import type { FailureBudget, MergedWave, RolloutTarget, WaveSpec } from "./rollout-plan.js";
import type { HttpGateLookup } from "./site-requests.js";
import type { Viewport } from "./visual-settings.js";
import type { VisualEvidence } from "./visual-verdict.js";

/** What a rollout needs of a client (SiteOps has it). */
export interface RolloutClient extends OperationsClient {
  readonly healthChecks: HealthChecks;
}

/** A site whose active pipeline goes elsewhere than the rollout: the service allows one per site. */
export class PipelineActiveError extends SiteOpsError {
  override readonly code: string = "PIPELINE_ACTIVE";
  /** The phrase every site refused alike shares. */
  readonly reason = "another pipeline, to another target, is active on the site";
}

/** A pipeline request of a rollout: what a rerun needs to adopt the pipeline rather than open another. */
export interface PipelineRequestRecord {
  siteId: string;
  /** Sent with the create request: the service answers a repeat with the pipeline the first one opened. */
  idempotencyKey: string;
  params: UpgradePipelineCreateParams;
  /** Known once the service answered (null: sent, answer not seen). */
  pipelineId: string | null;
  /** When the request was sent (ISO 8601, this machine's clock): past the service's idempotency window a rerun finds
   * the pipeline it opened among the site's pipelines from then on. Absent in records of older versions. */
  sentAt?: string;
}

/** What names a site's pipeline request in {@link RolloutOptions.requestKey}. */
export interface PipelineRequestName {
  site: Site;
  /** The create request's body, as sent: the service replays a key only for the same body. */
  params: UpgradePipelineCreateParams;
}

/** How one site went. */
export type SiteRolloutOutcome =
  /** Its pipeline succeeded (or the site's versions reached the target) and every gate passed. */
  | "passed"
  /** Its pipeline failed or was rolled back, a gate failed, or a request was refused: see `failure`. */
  | "failed"
  /** The wave's timeout passed before it could be judged; its pipeline carries on in the service. */
  | "timed_out"
  /** The signal aborted the rollout while this site was under way. */
  | "interrupted"
  /** At the target versions or newer (a pipeline cannot downgrade): when the rollout began (in no wave), found so
   * when its create was refused, or brought there since its pipeline of an earlier run failed. No pipeline opened. */
  | "already_upgraded"
  /** Nothing opened or followed for it in this run: its wave never started, or stopped (budget spent, deadline
   * passed, the run refused) before its turn. */
  | "untouched";

/** Every site outcome, in the order reports count them. */
export const SITE_ROLLOUT_OUTCOMES: readonly SiteRolloutOutcome[] = ["passed", "failed", "timed_out", "interrupted", "already_upgraded", "untouched"];

/** Why a site did not pass, as every surface shows it: a stable `code`, the HTTP status and request id when the
 * service answered, and one line. */
export interface RolloutFailure {
  /** GATE_FAILED, PIPELINE_ACTIVE, PIPELINE_STATE_UNKNOWN, WAIT_TIMEOUT, INTERRUPTED, TARGET_REFUSED, or an API error's
   * (UNPROCESSABLE_ENTITY, NOT_FOUND, ...). */
  code: string;
  status: number | null;
  request_id: string | null;
  /** About this site: ids, times and hosts included. */
  message: string;
  /** The phrase every site that failed the same way shares (no ids, times or hosts): what a summary says once. */
  reason: string;
}

/** One site's result in a {@link rolloutUpgrade} run. */
export interface SiteRolloutResult {
  site: Site;
  /** 1-based wave; null for a site at the target when the rollout began, in no wave. */
  wave: number | null;
  outcome: SiteRolloutOutcome;
  /** This run opened its pipeline. */
  opened: boolean;
  /** Its pipeline is one an earlier run (or someone else) opened: adopted, not opened again. */
  adopted: boolean;
  /** The pipeline as last seen (null when none). */
  pipeline: UpgradePipeline | null;
  /** The gates judged, in order; the first that failed says why. */
  checks: GateCheck[];
  /** Why it failed, timed out or was interrupted (null when it passed, was already upgraded or untouched). */
  failure: RolloutFailure | null;
  durationMs: number;
}

/** Sites by outcome, and the pipelines opened and adopted: every result carries its own, counted once. */
export interface RolloutCounts {
  sites: number;
  passed: number;
  failed: number;
  timed_out: number;
  interrupted: number;
  already_upgraded: number;
  untouched: number;
  opened: number;
  adopted: number;
}

/** How a wave went: `passed` lets the next start; the others end the rollout. */
export type WaveVerdict = "passed" | "stopped" | "timed_out" | "interrupted" | "refused" | "not_started";

export interface WaveResult {
  /** 1-based. */
  wave: number;
  verdict: WaveVerdict;
  sites: SiteRolloutResult[];
  /** The sites the wave asks something of, the denominator of its budget: its members, less those found at the
   * target when asked. */
  size: number;
  /** The failures the budget allows in this wave: allowedFailures(budget, size). */
  allowed: number;
  counts: RolloutCounts;
}

/** `done`: every wave passed; `stopped`: a wave's failures exceeded the budget; `timed_out`: a wave could not be
 * judged in time; `interrupted`: the signal aborted it; `refused`: the service refused the run as a whole (see
 * {@link RolloutResult.refusal}). */
export type RolloutOutcome = "done" | "stopped" | "timed_out" | "interrupted" | "refused";

/** Why the service refused the run as a whole: the credentials (401), their permission (403), or the target
 * itself (its versions are not ones the service offers): every other site would be refused alike. */
export interface RolloutRefusal {
  reason: "credentials" | "permission" | "target";
  failure: RolloutFailure;
  /** The error the service's answer made (an AuthenticationError, a TargetRefusedError, ...), for a surface's advice. */
  error: unknown;
}

export interface RolloutResult {
  outcome: RolloutOutcome;
  /** Set when `outcome` is `refused`. */
  refusal: RolloutRefusal | null;
  target: RolloutTarget;
  /** The waves of the plan (all of them, also when `onlyWave` ran one). */
  planned: number;
  waves: WaveResult[];
  /** Sites at the target or newer when the rollout began: in no wave (`already_upgraded`, wave null). */
  current: SiteRolloutResult[];
  /** Every site: wave by wave in rollout order, then those in no wave. */
  sites: SiteRolloutResult[];
  /** Waves as written that took no site of their own on this fleet. */
  merged: MergedWave[];
  counts: RolloutCounts;
}

export type RolloutEvent =
  /** The plan, before anything is asked: how many sites were given, each wave's, those in no wave, merged waves. */
  | {
      type: "rollout.planned";
      sites: number;
      target: RolloutTarget;
      waves: readonly (readonly Site[])[];
      current: readonly Site[];
      merged: readonly MergedWave[];
    }
  | { type: "wave.started"; wave: number; waves: number; sites: readonly Site[]; size: number; allowed: number; deadline: number }
  /** Before a wave, after the one before it passed. */
  | { type: "wave.paused"; wave: number; ms: number }
  | { type: "site.started"; wave: number; site: Site }
  /** An earlier run's pipeline (or one already active in the service) taken as this run's. */
  | { type: "site.adopted"; wave: number; site: Site; pipeline: UpgradePipeline }
  /** Opened, or its status or a step changed. */
  | { type: "site.pipeline"; wave: number; site: Site; pipeline: UpgradePipeline; opened: boolean }
  | { type: "site.finished"; wave: number; result: SiteRolloutResult; counts: RolloutCounts }
  | { type: "wave.finished"; result: WaveResult; waves: number };

/** What a person decides about a rollout: read from the CLI's flags or the action's inputs by rollout-settings.ts. */
export interface RolloutSettings {
  target: RolloutTarget;
  /** The waves (`parseWaves`). */
  waves: readonly WaveSpec[];
  /** Gates beyond the pipeline's outcome (always judged). Default: the core's `DEFAULT_ROLLOUT_GATES` (every gate but `visual`). */
  gates: readonly RolloutGate[];
  /** Paths of each site's URL the `http` gate asks for and the `visual` gate shoots. Default `["/"]`. */
  checkPaths: readonly string[];
  /** Response-time budget of an HTTP check in ms. Default DEFAULT_CHECK_BUDGET_MS (5 s). */
  checkBudget: number;
  /** Failures a wave may have before the rollout stops. Default `{ count: 0 }`: any failure stops it. */
  maxFailures: FailureBudget;
  /** Wait between a wave that passed and the next, in ms. Default 0. */
  pause: number;
  /** Open the pipelines with `requires_approval`: each waits in `awaiting_approval` for someone's approval, which
   * the wave waits for (within its timeout). Default false. */
  requireApproval: boolean;
  /** Sites in flight at a time within a wave. Default DEFAULT_ROLLOUT_CONCURRENCY (8). */
  concurrency: number;
  /** Time for a wave, from its start to its last site judged, in ms: no pipeline is opened after it. Default
   * DEFAULT_WAVE_TIMEOUT_MS (1 h). */
  waveTimeout: number;
  /** Time to wait for a health check after an upgrade, in ms (within the wave's). Default 10 min. */
  healthWait: number;
  /** How long a pipeline may sit in a state siteops does not know, with no change to it or its site, before the
   * site fails for it (PIPELINE_STATE_UNKNOWN), in ms. Default DEFAULT_UNKNOWN_STATE_WAIT_MS (10 min). */
  unknownStateWait: number;
  /** The `visual` gate: the viewports each path is shot in. Default {@link DEFAULT_VIEWPORTS} (desktop, mobile). */
  viewports: readonly Viewport[];
  /** The `visual` gate: CSS selectors painted over in both shots (dates, carousels, ads). Default none. */
  visualIgnore: readonly string[];
  /** The `visual` gate: the share of a page's pixels that may change, in percent. Default
   * {@link DEFAULT_VISUAL_THRESHOLD} (1). */
  visualThreshold: number;
  /** The `visual` gate: one page's time, load to picture, in ms. Default {@link DEFAULT_PAGE_TIMEOUT_MS} (30 s). */
  visualTimeout: number;
  /** The `visual` gate: the browser to drive (its path); undefined: the machine's, found by the surface. */
  browser?: string | undefined;
  /** The `visual` gate: the folder its pictures and reports go in; undefined: the surface's default. */
  artifacts?: string | undefined;
}

export interface RolloutOptions extends Partial<Omit<RolloutSettings, "target" | "waves">> {
  target: RolloutTarget;
  waves: readonly WaveSpec[];
  pollInterval?: number | undefined;
  /** Only this wave of the plan (1-based), for one job per wave: the other waves are left out of the result. A wave
   * past the plan's last is a RolloutSpecError. */
  onlyWave?: number | undefined;
  /** Pipeline requests of an earlier run of the same rollout (the latest per site): their sites keep their place in
   * the plan (planRollout) and their pipelines are adopted, never opened again. */
  adopt?: readonly PipelineRequestRecord[] | undefined;
  /**
   * This run may continue an earlier one whose records are not at hand (a re-run of a CI job, possibly past the
   * service's idempotency window): before a site's pipeline is opened, its pipelines to the target are looked for
   * (one listing per site), those opened since `since` when given, and the newest is adopted as it is now, a failed
   * or rolled-back one included. At most one pipeline per site and target, whenever the rerun comes.
   */
  earlierRun?: { since?: string | undefined } | undefined;
  /** The Idempotency-Key of a site's create request, the same on every run of one job (e.g. made from a CI run's id,
   * as the GitHub Action does). A rerun's request with the same key and body, within the service's idempotency
   * window, is answered with the pipeline the earlier run's request opened: adopted as it is now. Default: a random
   * key per request. */
  requestKey?: ((name: PipelineRequestName) => string) | undefined;
  /** Called before a create request is sent and again once its pipeline is known (or adopted): what the caller
   * keeps for a rerun (`adopt`). */
  onRequest?: ((record: PipelineRequestRecord) => void) | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((event: RolloutEvent) => void) | undefined;
  /** How the `http` gate resolves a site's names (each address it connects to is checked: never link-local or a
   * metadata service). Default node:dns's lookup; a test maps a name to an address. */
  lookup?: HttpGateLookup | undefined;
  /** The `visual` gate's pictures: required when `gates` names it. The core drives no browser; the CLI and the action
   * give visual/gate.ts's, an SDK user any {@link VisualEvidence}. */
  visual?: VisualEvidence | undefined;
}
