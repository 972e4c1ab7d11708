// One site of a rollout: its pipeline found (rollout-open.ts) or opened while its wave allows it, followed to its end
// (rollout-follow.ts), then judged gate by gate (rollout-gates.ts); every way it can end, as a result with a
// structured failure. Never a second pipeline for a site and target.

import { APIError, APIUserAbortError, AuthenticationError, PermissionDeniedError, SiteOpsError, WaitTimeoutError } from "../errors.js";
import { describeError } from "../describe-error.js";
import { apiErrorPhrase } from "../internal/format.js";
import type { Site } from "../resources/sites.js";
import type { UpgradePipeline } from "../resources/upgrade-pipelines.js";
import { followPipeline } from "./rollout-follow.js";
import { checkHttp, type GateCheck, judgeHealth, judgePipeline, judgeVisual } from "./rollout-gates.js";
import { existingPipeline, newRequestKey, openPipeline, pipelineParams, TargetRefusedError } from "./rollout-open.js";
import { formatTarget, reachesTarget } from "./rollout-plan.js";
import type {
  PipelineRequestRecord,
  RolloutClient,
  RolloutFailure,
  RolloutOptions,
  RolloutRefusal,
  RolloutSettings,
  SiteRolloutResult,
} from "./rollout-types.js";
import { PIPELINE_FINAL_STATES } from "./upgrade.js";

/** What a site asks of its wave (rollout.ts keeps it): whether a pipeline may still be opened, and what it found. */
export interface WaveGuard {
  readonly deadline: number;
  /** Why no pipeline may be opened now (the wave's deadline passed, its budget is spent, the run was refused or
   * aborted), or null when one may. Asked right before each create. */
  closed(): "deadline" | "budget" | "refused" | "aborted" | null;
  /** The site turned out to be at the target when asked: it leaves the wave's denominator. */
  atTarget(): void;
  /** The service refused the run as a whole: no site opens anything from now on. */
  refuse(refusal: RolloutRefusal): void;
}

/** The options a site runs with: the settings complete, and the run's hooks. */
export type SiteRunOptions = RolloutSettings & RolloutOptions;

/** A site's result before anything was asked. */
export function siteResult(site: Site, wave: number | null, outcome: SiteRolloutResult["outcome"] = "untouched"): SiteRolloutResult {
  return { site, wave, outcome, opened: false, adopted: false, pipeline: null, checks: [], failure: null, durationMs: 0 };
}

/** A failure as every surface shows it, from what was thrown: an API error's code, status, request id and the
 * service's words (`reason` without the request id, the same for every site refused alike). */
function failureOf(err: unknown): RolloutFailure {
  if (err instanceof APIError)
    return { code: err.code, status: err.status, request_id: err.requestId ?? null, message: describeError(err), reason: apiErrorPhrase(err) };
  const message = err instanceof Error ? err.message : String(err);
  const code = err instanceof SiteOpsError ? err.code : "ERROR";
  if (err instanceof TargetRefusedError) return { code, status: err.status, request_id: err.requestId ?? null, message, reason: message };
  // The rollout's own errors say their shared phrase apart (PipelineActiveError, UnknownPipelineStateError).
  const shared = (err as { reason?: unknown }).reason;
  return { code, status: null, request_id: null, message, reason: typeof shared === "string" ? shared : message };
}

/**
 * One site: its pipeline adopted or opened, followed, judged. `touched`: this run waited on something new (a pipeline
 * opened, or still running when adopted). Never throws for the site; a refusal of the whole run (credentials,
 * permission, the target) is handed to the guard as well as recorded on the site.
 */
export async function rolloutSite(
  client: RolloutClient,
  site: Site,
  wave: number,
  guard: WaveGuard,
  prior: PipelineRequestRecord | undefined,
  options: SiteRunOptions,
): Promise<{ result: SiteRolloutResult; touched: boolean }> {
  const { signal, onProgress, target } = options;
  const result = siteResult(site, wave, "failed");
  const begin = Date.now();
  let touched = false;
  const done = () => {
    result.durationMs = Date.now() - begin;
    return { result, touched };
  };
  onProgress?.({ type: "site.started", wave, site });
  try {
    if (signal?.aborted) throw new APIUserAbortError("The rollout was aborted.");
    let pipeline = await existingPipeline(client, site, prior, target, options.earlierRun, signal);
    // At the target already, or since its pipeline failed (upgraded by hand after a stop: dealt with): none needed.
    const superseded = pipeline !== undefined && PIPELINE_FINAL_STATES.has(pipeline.status) && pipeline.status !== "succeeded";
    if ((!pipeline || superseded) && reachesTarget(site, target)) {
      result.outcome = "already_upgraded";
      guard.atTarget();
      return done();
    }
    const visual = options.gates.includes("visual") ? options.visual : undefined;
    if (pipeline) {
      result.adopted = true;
      if (prior?.pipelineId !== pipeline.id) options.onRequest?.(adoptedRecord(site, pipeline, prior));
      onProgress?.({ type: "site.adopted", wave, site, pipeline });
      // An adopted pipeline that has not started to apply leaves the site as it was: its pictures can still be taken.
      if (visual && !visual.hasBefore(site) && NOT_APPLIED.has(pipeline.status)) await abortable(visual.before(site, signal), signal);
    } else {
      // A create is the one request that puts a site at risk: never after the wave's deadline or budget.
      if (guard.closed()) {
        result.outcome = "untouched";
        return done();
      }
      const resend = prior && !prior.pipelineId ? prior : undefined;
      // The visual gate's pictures from before: the last moment the site is as it was. A page that cannot be shot
      // leaves nothing to compare with after: the site fails now, with no pipeline opened. (A request sent again
      // may have opened its pipeline already: its pictures are the earlier run's, when it kept them.)
      if (visual && !resend) {
        const missed = await abortable(visual.before(site, signal), signal);
        if (missed !== null) {
          const check: GateCheck = {
            gate: "visual",
            ok: false,
            detail: `${missed}; no pipeline opened`,
            reason: "a page could not be shot before the upgrade",
          };
          result.checks.push(check);
          result.failure = { code: "GATE_FAILED", status: null, request_id: null, message: check.detail, reason: check.reason };
          return done();
        }
        if (guard.closed()) {
          result.outcome = "untouched";
          return done();
        }
      }
      const params = resend?.params ?? pipelineParams(site, target, options.requireApproval);
      const record: PipelineRequestRecord = {
        siteId: site.id,
        idempotencyKey: resend?.idempotencyKey ?? newRequestKey(options.requestKey?.({ site, params })),
        params,
        pipelineId: null,
        sentAt: resend?.sentAt ?? new Date().toISOString(),
      };
      options.onRequest?.(record);
      const opened = await openPipeline(client, site, params, record.idempotencyKey, target, signal);
      if (opened.pipeline === null) {
        result.outcome = "already_upgraded";
        guard.atTarget();
        return done();
      }
      pipeline = opened.pipeline;
      options.onRequest?.({ ...record, pipelineId: pipeline.id });
      result.adopted = opened.how === "adopted";
      result.opened = opened.how === "opened";
      onProgress?.(result.adopted ? { type: "site.adopted", wave, site, pipeline } : { type: "site.pipeline", wave, site, pipeline, opened: true });
    }
    result.pipeline = pipeline;
    const ended = PIPELINE_FINAL_STATES.has(pipeline.status) && pipeline.status !== "failed";
    if (!ended) touched = true;
    const followed = await followPipeline(client, site, pipeline, {
      target,
      deadline: guard.deadline,
      unknownStateWait: options.unknownStateWait,
      pollInterval: options.pollInterval,
      signal,
      onChange: (p) => {
        result.pipeline = p;
        onProgress?.({ type: "site.pipeline", wave, site, pipeline: p, opened: false });
      },
    });
    result.pipeline = followed.pipeline;
    await judge(client, result, followed.pipeline, followed.evidence, guard.deadline, options);
  } catch (err) {
    settleFailure(result, err, guard, signal);
  }
  return done();
}

/** Pipeline states in which nothing was applied to the site yet. */
const NOT_APPLIED = new Set(["pending", "awaiting_approval"]);

/** `work`, its failure after an abort the rollout's own (an APIUserAbortError, as the API client's). */
async function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (signal?.aborted) throw new APIUserAbortError("The rollout was aborted.", { cause: err });
    throw err;
  }
}

/** A record of a pipeline adopted without a request of this run, for the caller's state. */
function adoptedRecord(site: Site, pipeline: UpgradePipeline, prior: PipelineRequestRecord | undefined): PipelineRequestRecord {
  return {
    siteId: site.id,
    idempotencyKey: prior?.idempotencyKey ?? `adopted-${pipeline.id}`,
    params: prior?.params ?? {},
    pipelineId: pipeline.id,
    ...(prior?.sentAt ? { sentAt: prior.sentAt } : {}),
  };
}

function settleFailure(result: SiteRolloutResult, err: unknown, guard: WaveGuard, signal: AbortSignal | undefined): void {
  if (err instanceof APIUserAbortError && signal?.aborted) {
    result.outcome = "interrupted";
    const message = result.pipeline ? `interrupted; pipeline ${result.pipeline.id} carries on in the service` : "interrupted before its pipeline was opened";
    result.failure = { code: "INTERRUPTED", status: null, request_id: null, message, reason: message.replace(/ upg\S*/, "") };
    return;
  }
  if (err instanceof WaitTimeoutError) {
    result.outcome = "timed_out";
    const p = result.pipeline;
    const message = p
      ? `the wave's timeout passed before it was judged; pipeline ${p.id} is ${p.status} and carries on in the service`
      : "the wave's timeout passed before it was judged";
    result.failure = { code: "WAIT_TIMEOUT", status: null, request_id: null, message, reason: "the wave's timeout passed before it was judged" };
    return;
  }
  result.outcome = "failed";
  result.failure = failureOf(err);
  if (err instanceof AuthenticationError) guard.refuse({ reason: "credentials", failure: result.failure, error: err });
  else if (err instanceof PermissionDeniedError) guard.refuse({ reason: "permission", failure: result.failure, error: err });
  else if (err instanceof TargetRefusedError) guard.refuse({ reason: "target", failure: result.failure, error: err });
}

/** The gates, in order; the first failure decides. A site whose pipeline's state siteops does not know passes the
 * pipeline gate on `evidence`: the site's own versions at the target. */
async function judge(
  client: RolloutClient,
  result: SiteRolloutResult,
  pipeline: UpgradePipeline,
  evidence: Site | null,
  deadline: number,
  options: SiteRunOptions,
): Promise<void> {
  const gates = new Set(options.gates);
  const verdict = (check: GateCheck): boolean => {
    result.checks.push(check);
    if (!check.ok) result.failure = { code: "GATE_FAILED", status: null, request_id: null, message: check.detail, reason: check.reason };
    return check.ok;
  };
  const pipelineCheck: GateCheck = evidence
    ? {
        gate: "pipeline",
        ok: true,
        detail: `pipeline ${pipeline.id} is ${JSON.stringify(pipeline.status)}, a state siteops does not know; the site runs ${formatTarget({ wp: options.target.wp ? String(evidence.wp_version) : undefined, php: options.target.php ? String(evidence.php_version) : undefined })}: upgraded`,
        reason: "the site's own versions reached the target",
      }
    : judgePipeline(pipeline);
  if (!verdict(pipelineCheck)) return;
  if (Date.now() >= deadline) throw new WaitTimeoutError("Timed out waiting: the wave's deadline passed before the gates.");
  if (gates.has("health")) {
    const since = pipeline.completed_at ?? pipeline.updated_at ?? pipeline.created_at;
    const waitMs = Math.max(1, Math.min(options.healthWait, deadline - Date.now()));
    const check = await judgeHealth(client.healthChecks, result.site.id, String(since), { waitMs, pollInterval: options.pollInterval, signal: options.signal });
    if (!verdict(check)) return;
  }
  if (gates.has("http")) {
    for (const path of options.checkPaths) {
      if (Date.now() >= deadline) throw new WaitTimeoutError("Timed out waiting: the wave's deadline passed before the gates.");
      const check = await checkHttp(result.site.url, path, { budgetMs: options.checkBudget, signal: options.signal, lookup: options.lookup });
      if (!verdict(check)) return;
    }
  }
  if (gates.has("visual") && options.visual) {
    if (Date.now() >= deadline) throw new WaitTimeoutError("Timed out waiting: the wave's deadline passed before the gates.");
    // Pictures from before exist when this run took them (or an earlier run into the same folder); a site adopted
    // from an earlier run that kept none was judged by that run: said, not compared.
    const check: GateCheck = options.visual.hasBefore(result.site)
      ? judgeVisual(await abortable(options.visual.after(result.site, options.signal), options.signal), options.visualThreshold)
      : {
          gate: "visual",
          ok: true,
          detail: `not compared: no picture from before its upgrade (pipeline ${pipeline.id} was opened by an earlier run; give that run's artifacts folder to compare)`,
          reason: "not compared: no picture from before its upgrade",
        };
    if (!verdict(check)) return;
  }
  result.outcome = "passed";
}
