// A rollout's vocabulary: what it needs of a client, its options and defaults, what it records for a rerun, and
// how a site, a wave and the whole rollout went (operations/rollout.ts runs it, rollout-site.ts judges a site).

import { SiteOpsError } from "../errors.js";
import type { HealthChecks } from "../resources/health-checks.js";
import type { Site } from "../resources/sites.js";
import type { UpgradePipeline, UpgradePipelineCreateParams } from "../resources/upgrade-pipelines.js";
import type { OperationsClient } from "./client.js";
import type { GateCheck, RolloutGate } from "./rollout-gates.js";
import type { HttpGateLookup } from "./site-requests.js";
import type { FailureBudget, RolloutTarget, WaveSpec } from "./rollout-plan.js";

/** What a rollout needs of a client (SiteOps has it). */
export interface RolloutClient extends OperationsClient {
  readonly healthChecks: HealthChecks;
}

/** Pipelines opened and followed at a time within a wave unless `concurrency` says otherwise. */
export const DEFAULT_ROLLOUT_CONCURRENCY = 8;
/** How long a wave may take (pipelines, then checks) unless `waveTimeout` says otherwise. */
export const DEFAULT_WAVE_TIMEOUT_MS = 60 * 60_000;
/** How long to wait for a health check after an upgrade unless `healthWait` says otherwise. */
export const DEFAULT_HEALTH_WAIT_MS = 10 * 60_000;

/** A site whose active pipeline goes elsewhere than the rollout: the service allows one per site. */
export class PipelineActiveError extends SiteOpsError {
  override readonly code: string = "PIPELINE_ACTIVE";
}

/** A pipeline request of a rollout: what a rerun needs to adopt the pipeline rather than open another. */
export interface PipelineRequestRecord {
  siteId: string;
  /** Sent with the create request: the service answers a repeat with the pipeline the first one opened. */
  idempotencyKey: string;
  params: UpgradePipelineCreateParams;
  /** Known once the service answered (null: sent, answer not seen). */
  pipelineId: string | null;
}

/** What names a site's pipeline request in {@link RolloutOptions.requestKey}. */
export interface PipelineRequestName {
  site: Site;
  /** The create request's body, as sent: the service replays a key only for the same body. */
  params: UpgradePipelineCreateParams;
}

/** How one site went. */
export type SiteRolloutOutcome =
  /** Its pipeline succeeded and every gate passed. */
  | "passed"
  /** Its pipeline failed or was rolled back, a gate failed, or a request was refused: see `reason`. */
  | "failed"
  /** The wave's timeout passed before it could be judged; its pipeline carries on in the service. */
  | "timed_out"
  /** The signal aborted the rollout while this site was under way. */
  | "interrupted"
  /** Already at the target versions or newer (a pipeline cannot downgrade), or brought there since its pipeline of an
   * earlier run failed: no pipeline opened, no gate judged. */
  | "already_upgraded"
  /** In a wave that was never started: nothing was asked of the service for it. */
  | "untouched";

/** One site's result in a {@link rolloutUpgrade} run. */
export interface SiteRolloutResult {
  site: Site;
  /** 1-based wave. */
  wave: number;
  outcome: SiteRolloutOutcome;
  /** Its pipeline is one an earlier run (or someone else) opened: adopted, not opened again. */
  adopted: boolean;
  /** The pipeline as last seen (null when none). */
  pipeline: UpgradePipeline | null;
  /** The gates judged, in order; the first that failed says why. */
  checks: GateCheck[];
  /** Why it failed, timed out or was interrupted, in one phrase (null when passed or untouched). */
  reason: string | null;
  /** The error behind `reason`, when one was thrown (an API error, a timeout). */
  error: unknown;
  durationMs: number;
}

/** How a wave went: `passed` lets the next start; the others end the rollout. */
export type WaveVerdict = "passed" | "stopped" | "timed_out" | "interrupted" | "not_started";

export interface WaveResult {
  /** 1-based. */
  wave: number;
  verdict: WaveVerdict;
  sites: SiteRolloutResult[];
  failed: number;
  /** The failures the budget allows in this wave. */
  allowed: number;
}

/** `done`: every wave passed; `stopped`: a wave's failures exceeded the budget; `timed_out`: a wave could not be
 * judged in time; `interrupted`: the signal aborted it. */
export type RolloutOutcome = "done" | "stopped" | "timed_out" | "interrupted";

export interface RolloutResult {
  outcome: RolloutOutcome;
  waves: WaveResult[];
  /** Every site, wave by wave, in rollout order. */
  sites: SiteRolloutResult[];
}

export type RolloutEvent =
  | { type: "wave.started"; wave: number; waves: number; sites: readonly Site[] }
  /** Before a wave, after the one before it passed. */
  | { type: "wave.paused"; wave: number; ms: number }
  | { type: "site.started"; wave: number; site: Site }
  /** An earlier run's pipeline (or one already active in the service) taken as this run's. */
  | { type: "site.adopted"; wave: number; site: Site; pipeline: UpgradePipeline }
  /** Opened, or its status or a step changed. */
  | { type: "site.pipeline"; wave: number; site: Site; pipeline: UpgradePipeline; opened: boolean }
  | { type: "site.finished"; wave: number; result: SiteRolloutResult }
  | { type: "wave.finished"; result: WaveResult };

export interface RolloutOptions {
  target: RolloutTarget;
  /** The waves (`parseWaves`). */
  waves: readonly WaveSpec[];
  /** Gates beyond the pipeline's outcome (always judged). Default: all of {@link ROLLOUT_GATES}. */
  gates?: readonly RolloutGate[];
  /** Paths of each site's URL the `http` gate asks for. Default `["/"]`. */
  checkPaths?: readonly string[];
  /** Response-time budget of an HTTP check in ms. Default DEFAULT_CHECK_BUDGET_MS (5 s). */
  checkBudget?: number;
  /** Failures a wave may have before the rollout stops. Default `{ count: 0 }`: any failure stops it. */
  maxFailures?: FailureBudget;
  /** Wait between a wave that passed and the next, in ms. Default 0. */
  pause?: number;
  /** Open the pipelines with `requires_approval`: each waits in `awaiting_approval` for someone's approval,
   * which the wave waits for (within its timeout). Default false. */
  requireApproval?: boolean;
  /** Sites in flight at a time within a wave. Default DEFAULT_ROLLOUT_CONCURRENCY (8). */
  concurrency?: number;
  /** Time for a wave, from its start to its last site judged, in ms. Default DEFAULT_WAVE_TIMEOUT_MS (1 h). */
  waveTimeout?: number;
  /** Time to wait for a health check after an upgrade, in ms (within the wave's). Default 10 min. */
  healthWait?: number;
  pollInterval?: number;
  /** Pipeline requests of an earlier run of the same rollout (the latest per site). */
  adopt?: readonly PipelineRequestRecord[];
  /** The Idempotency-Key of a site's create request, the same on every run of one job (e.g. made from a CI run's
   * id, as the GitHub Action does). A rerun's request with the same key and body is answered with the pipeline
   * the earlier run's request opened (within the service's idempotency window, 24 h): the site adopts it as it is
   * now, failed or rolled back included (judged again, not opened again). Default: a random key per request. */
  requestKey?: (name: PipelineRequestName) => string;
  /** Called before a create request is sent and again once its pipeline is known (or adopted): what the caller
   * keeps for a rerun (`adopt`). */
  onRequest?: (record: PipelineRequestRecord) => void;
  signal?: AbortSignal;
  onProgress?: (event: RolloutEvent) => void;
  /** How the `http` gate resolves a site's names (each address it connects to is checked: never link-local or a
   * metadata service). Default node:dns's lookup; a test maps a name to an address. */
  lookup?: HttpGateLookup;
}
