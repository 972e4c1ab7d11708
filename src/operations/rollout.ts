// An upgrade rollout over a fleet: pipelines opened wave by wave (operations/rollout-plan.ts), each wave waited
// for and each of its sites judged on evidence (operations/rollout-gates.ts); when a wave's failures exceed the
// budget the rollout stops there and the later waves' sites are never touched. A rerun of the same rollout
// adopts what an earlier run requested (`adopt`, kept by the caller through `onRequest`, as snapshotFleet does)
// and, whatever the records say, the site's active pipeline in the service: it never opens a second pipeline
// for a site. The core keeps no state of its own.

import { APIError, APIUserAbortError, AuthenticationError, PermissionDeniedError, SiteOpsError, WaitTimeoutError } from "../errors.js";
import { sameVersion } from "../equivalence.js";
import { builtin } from "../internal/builtins.js";
import { sleep } from "../internal/sleep.js";
import { mapPool } from "../pool.js";
import type { HealthChecks } from "../resources/health-checks.js";
import type { Site } from "../resources/sites.js";
import type { UpgradePipeline, UpgradePipelineCreateParams } from "../resources/upgrade-pipelines.js";
import type { OperationsClient } from "./client.js";
import { checkHttp, DEFAULT_CHECK_BUDGET_MS, type GateCheck, judgeHealth, judgePipeline, type RolloutGate, ROLLOUT_GATES } from "./rollout-gates.js";
import { allowedFailures, type FailureBudget, planWaves, type RolloutTarget, type WaveSpec } from "./rollout-plan.js";
import { activeUpgrade, PIPELINE_FINAL_STATES } from "./upgrade.js";
import { waitUntil } from "./wait.js";

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
  /** Already at the target versions or newer (a pipeline cannot downgrade): no pipeline opened, no gate judged. */
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
  /** Called before a create request is sent and again once its pipeline is known (or adopted): what the caller
   * keeps for a rerun (`adopt`). */
  onRequest?: (record: PipelineRequestRecord) => void;
  signal?: AbortSignal;
  onProgress?: (event: RolloutEvent) => void;
  /** The fetch the `http` gate uses. Default the global fetch. */
  fetch?: typeof fetch;
}

/** The create request's body for a target. */
function pipelineParams(target: RolloutTarget, requireApproval: boolean): UpgradePipelineCreateParams {
  return {
    ...(target.wp ? { to_wp_version: target.wp } : {}),
    ...(target.php ? { to_php_version: target.php } : {}),
    requires_approval: requireApproval,
  };
}

/** -1, 0 or 1 as version `a` is below, the same as or above `b` (numeric parts; NaN when either is not one). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  if ([...pa, ...pb].some((n) => !Number.isInteger(n))) return Number.NaN;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0) ? -1 : 1;
  return 0;
}

/** Whether the site is at the target or past it already (as listed when the rollout selected it). */
function reached(site: Site, target: RolloutTarget): boolean {
  const at = (have: unknown, want: string | undefined) => want === undefined || (typeof have === "string" && compareVersions(have, want) >= 0);
  return at(site.wp_version, target.wp) && at(site.php_version, target.php);
}

/** Whether a pipeline goes where the rollout goes (a version the target leaves open may be anything). */
function goesTo(pipeline: UpgradePipeline, target: RolloutTarget): boolean {
  const same = (have: unknown, want: string | undefined) => want === undefined || (typeof have === "string" && sameVersion(have, want));
  return same(pipeline.to_wp_version, target.wp) && same(pipeline.to_php_version, target.php);
}

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
    const results = await mapPool(members, options.concurrency ?? DEFAULT_ROLLOUT_CONCURRENCY, async (site) => {
      const run = await rolloutSite(client, site, wave, deadline, earlier.get(site.id), options);
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

/** One site: its pipeline (adopted or opened), followed to its end, then judged gate by gate. `touched`: this run
 * waited on something new (a pipeline opened or still running when adopted). */
async function rolloutSite(
  client: RolloutClient,
  site: Site,
  wave: number,
  deadline: number,
  prior: PipelineRequestRecord | undefined,
  options: RolloutOptions,
): Promise<{ result: SiteRolloutResult; touched: boolean }> {
  const { signal, onProgress, target } = options;
  const result: SiteRolloutResult = { site, wave, outcome: "failed", adopted: false, pipeline: null, checks: [], reason: null, error: null, durationMs: 0 };
  const begin = Date.now();
  let touched = false;
  onProgress?.({ type: "site.started", wave, site });
  try {
    if (signal?.aborted) throw new APIUserAbortError("The rollout was aborted.");
    let pipeline = await adoptable(client, site, prior, target, signal);
    if (!pipeline && reached(site, target)) {
      result.outcome = "already_upgraded";
      result.durationMs = Date.now() - begin;
      return { result, touched };
    }
    if (pipeline) {
      result.adopted = true;
      if (prior?.pipelineId !== pipeline.id)
        options.onRequest?.({
          siteId: site.id,
          idempotencyKey: prior?.idempotencyKey ?? `adopted-${pipeline.id}`,
          params: prior?.params ?? {},
          pipelineId: pipeline.id,
        });
      onProgress?.({ type: "site.adopted", wave, site, pipeline });
    } else {
      const record: PipelineRequestRecord = {
        siteId: site.id,
        idempotencyKey: `siteops-${builtin("node:crypto").randomUUID()}`,
        params: pipelineParams(target, options.requireApproval ?? false),
        pipelineId: null,
      };
      options.onRequest?.(record);
      pipeline = await client.upgradePipelines.create(site.id, record.params, { signal, idempotencyKey: record.idempotencyKey });
      options.onRequest?.({ ...record, pipelineId: pipeline.id });
      onProgress?.({ type: "site.pipeline", wave, site, pipeline, opened: true });
    }
    result.pipeline = pipeline;
    if (!PIPELINE_FINAL_STATES.has(pipeline.status)) {
      touched = true;
      pipeline = await waitUntil(
        () => client.upgradePipelines.get(site.id, pipeline!.id, { signal }),
        (p) => PIPELINE_FINAL_STATES.has(p.status),
        {
          waitTimeout: Math.max(1, deadline - Date.now()),
          pollInterval: options.pollInterval,
          signal,
          first: pipeline,
          key: (p) => `${p.status}|${(p.steps ?? []).map((s) => s.status).join(",")}`,
          describe: (p) => `upgrade pipeline ${p.id} of ${site.id} is ${p.status}`,
          onChange: (p) => {
            result.pipeline = p;
            onProgress?.({ type: "site.pipeline", wave, site, pipeline: p, opened: false });
          },
        },
      );
      result.pipeline = pipeline;
    }
    await judge(client, result, pipeline, deadline, options);
  } catch (err) {
    result.error = err;
    if (err instanceof APIUserAbortError && signal?.aborted) {
      result.outcome = "interrupted";
      result.reason = result.pipeline ? `interrupted; pipeline ${result.pipeline.id} carries on in the service` : "interrupted before its pipeline was opened";
    } else if (err instanceof WaitTimeoutError) {
      result.outcome = "timed_out";
      result.reason = `the wave's timeout passed: ${err.message.replace(/^Timed out waiting: /, "").replace(/\.$/, "")}`;
    } else {
      result.outcome = "failed";
      result.reason = err instanceof Error ? err.message : String(err);
    }
  }
  result.durationMs = Date.now() - begin;
  return { result, touched };
}

/** The gates, in order; the first failure decides. */
async function judge(client: RolloutClient, result: SiteRolloutResult, pipeline: UpgradePipeline, deadline: number, options: RolloutOptions): Promise<void> {
  const gates = new Set(options.gates ?? ROLLOUT_GATES);
  const verdict = (check: GateCheck): boolean => {
    result.checks.push(check);
    if (!check.ok) result.reason = check.detail;
    return check.ok;
  };
  if (!verdict(judgePipeline(pipeline))) return;
  if (gates.has("health")) {
    const since = pipeline.completed_at ?? pipeline.updated_at;
    const waitMs = Math.max(1, Math.min(options.healthWait ?? DEFAULT_HEALTH_WAIT_MS, deadline - Date.now()));
    const check = await judgeHealth(client.healthChecks, result.site.id, since, { waitMs, pollInterval: options.pollInterval, signal: options.signal });
    if (!verdict(check)) return;
  }
  if (gates.has("http")) {
    for (const path of options.checkPaths ?? ["/"]) {
      const check = await checkHttp(result.site.url, path, {
        budgetMs: options.checkBudget ?? DEFAULT_CHECK_BUDGET_MS,
        signal: options.signal,
        fetch: options.fetch,
      });
      if (!verdict(check)) return;
    }
  }
  result.outcome = "passed";
}

/**
 * The pipeline a rerun takes as its own, as it is now; undefined when one must be opened. In order: the one an
 * earlier run recorded; the site's active pipeline when it goes to the target (an earlier run killed before it
 * recorded the answer, or someone else); an earlier request whose answer was never seen, sent again with its
 * key. An active pipeline that goes elsewhere fails the site: the service allows one per site.
 */
async function adoptable(
  client: RolloutClient,
  site: Site,
  prior: PipelineRequestRecord | undefined,
  target: RolloutTarget,
  signal: AbortSignal | undefined,
): Promise<UpgradePipeline | undefined> {
  if (prior?.pipelineId) {
    const pipeline = await client.upgradePipelines.get(site.id, prior.pipelineId, { signal });
    if (goesTo(pipeline, target)) return pipeline;
  }
  const active = await activeUpgrade(client, site.id, { signal });
  if (active) {
    if (goesTo(active, target)) return active;
    throw new PipelineActiveError(
      `site ${site.id} already has pipeline ${active.id} (${active.status}) to WordPress ${active.to_wp_version} / PHP ${active.to_php_version}, not this rollout's target; the service allows one active pipeline per site: let it end (or approve it), then run the rollout again`,
    );
  }
  if (prior && !prior.pipelineId && prior.idempotencyKey) {
    try {
      const pipeline = await client.upgradePipelines.create(site.id, prior.params, { signal, idempotencyKey: prior.idempotencyKey });
      if (goesTo(pipeline, target)) return pipeline;
    } catch (err) {
      // The repeat refused (its first answer was a refusal, kept with the key): a new request decides.
      const refused = err instanceof APIError && err.status >= 400 && err.status < 500 && err.status !== 429;
      if (!refused || err instanceof AuthenticationError || err instanceof PermissionDeniedError) throw err;
    }
  }
  return undefined;
}
