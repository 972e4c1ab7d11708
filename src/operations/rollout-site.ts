// One site of a rollout: its pipeline adopted (recorded by an earlier run, or active in the service) or opened,
// followed to its end, then judged gate by gate (operations/rollout-gates.ts). Never a second pipeline for a site.

import { withResponse } from "../api-promise.js";
import { APIError, APIUserAbortError, AuthenticationError, PermissionDeniedError, WaitTimeoutError } from "../errors.js";
import { sameVersion } from "../equivalence.js";
import { builtin } from "../internal/builtins.js";
import type { Site } from "../resources/sites.js";
import type { UpgradePipeline, UpgradePipelineCreateParams } from "../resources/upgrade-pipelines.js";
import { REPLAYED_HEADER } from "./keyed-snapshot.js";
import { checkHttp, DEFAULT_CHECK_BUDGET_MS, type GateCheck, judgeHealth, judgePipeline, ROLLOUT_GATES } from "./rollout-gates.js";
import type { RolloutTarget } from "./rollout-plan.js";
import {
  DEFAULT_HEALTH_WAIT_MS,
  PipelineActiveError,
  type PipelineRequestRecord,
  type RolloutClient,
  type RolloutOptions,
  type SiteRolloutResult,
} from "./rollout-types.js";
import { activeUpgrade, PIPELINE_FINAL_STATES, ROLLBACK_GRACE_MS } from "./upgrade.js";
import { waitUntil } from "./wait.js";

/** The create request's body for a target. */
function pipelineParams(target: RolloutTarget, requireApproval: boolean): UpgradePipelineCreateParams {
  return {
    ...(target.wp ? { to_wp_version: target.wp } : {}),
    ...(target.php ? { to_php_version: target.php } : {}),
    requires_approval: requireApproval,
  };
}

/**
 * Whether a pipeline has ended for the rollout. A pipeline that failed after its apply step started is followed
 * until it reports `rolled_back` (for at most ROLLBACK_GRACE_MS after `failedAt`, as the upgrade waiter does), so
 * the wave moves on with the site restored and the reason says so.
 */
function settled(p: UpgradePipeline, failedAt: number): boolean {
  if (!PIPELINE_FINAL_STATES.has(p.status)) return false;
  if (p.status !== "failed") return true;
  const applied = (p.steps ?? []).some((step) => step.name === "apply" && step.status !== "pending" && step.status !== "skipped");
  return !applied || Date.now() - failedAt >= ROLLBACK_GRACE_MS;
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

/** One site: its pipeline (adopted or opened), followed to its end, then judged gate by gate. `touched`: this run
 * waited on something new (a pipeline opened or still running when adopted). */
export async function rolloutSite(
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
    // A site at the target already, or since its adopted pipeline failed (upgraded by hand after a stop: the
    // failure is dealt with), needs no pipeline.
    const superseded = pipeline !== undefined && PIPELINE_FINAL_STATES.has(pipeline.status) && pipeline.status !== "succeeded";
    if ((!pipeline || superseded) && reached(site, target)) {
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
      const params = pipelineParams(target, options.requireApproval ?? false);
      const record: PipelineRequestRecord = {
        siteId: site.id,
        idempotencyKey: options.requestKey?.({ site, params }) ?? `siteops-${builtin("node:crypto").randomUUID()}`,
        params,
        pipelineId: null,
      };
      options.onRequest?.(record);
      const opened = await openPipeline(client, site, params, record.idempotencyKey, target, signal);
      pipeline = opened.pipeline;
      options.onRequest?.({ ...record, pipelineId: pipeline.id });
      result.adopted = opened.adopted;
      onProgress?.(opened.adopted ? { type: "site.adopted", wave, site, pipeline } : { type: "site.pipeline", wave, site, pipeline, opened: true });
    }
    result.pipeline = pipeline;
    if (!settled(pipeline, Date.now())) {
      touched = true;
      let failedAt: number | undefined;
      pipeline = await waitUntil(
        () => client.upgradePipelines.get(site.id, pipeline!.id, { signal }),
        (p) => {
          if (p.status === "failed") failedAt ??= Date.now();
          return settled(p, failedAt ?? Date.now());
        },
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

/** Opens the site's pipeline. The service answering with an earlier request's pipeline under this key (an earlier
 * attempt's, `requestKey`) gives that pipeline as it is now. A refusal while the site has an active pipeline (the
 * service allows one) adopts it when it goes to the target and fails the site when not; any other refusal stands. */
async function openPipeline(
  client: RolloutClient,
  site: Site,
  params: UpgradePipelineCreateParams,
  idempotencyKey: string,
  target: RolloutTarget,
  signal: AbortSignal | undefined,
): Promise<{ pipeline: UpgradePipeline; adopted: boolean }> {
  try {
    const { data, headers } = await withResponse(client.upgradePipelines.create(site.id, params, { signal, idempotencyKey }));
    if (headers[REPLAYED_HEADER] === "true") return { pipeline: await client.upgradePipelines.get(site.id, data.id, { signal }), adopted: true };
    return { pipeline: data, adopted: false };
  } catch (err) {
    if (!refusal(err)) throw err;
    const active = await activeUpgrade(client, site.id, { signal });
    if (!active) throw err;
    if (!goesTo(active, target)) throw elsewhere(site, active);
    return { pipeline: active, adopted: true };
  }
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
        lookup: options.lookup,
      });
      if (!verdict(check)) return;
    }
  }
  result.outcome = "passed";
}

/** A refusal the request will get again as it is (a 4xx but 429), not credentials or permission. */
function refusal(err: unknown): boolean {
  return (
    err instanceof APIError &&
    err.status >= 400 &&
    err.status < 500 &&
    err.status !== 429 &&
    !(err instanceof AuthenticationError || err instanceof PermissionDeniedError)
  );
}

function elsewhere(site: Site, active: UpgradePipeline): PipelineActiveError {
  return new PipelineActiveError(
    `site ${site.id} already has pipeline ${active.id} (${active.status}) to WordPress ${active.to_wp_version} / PHP ${active.to_php_version}, not this rollout's target; the service allows one active pipeline per site: let it end (or approve it), then run the rollout again`,
  );
}

/**
 * The pipeline a rerun takes as its own, as it is now; undefined when one must be opened. A site no earlier run
 * asked for (`prior` undefined) costs no request here: its create goes first, and only a refusal looks for an active
 * pipeline (rolloutSite). Else, in order: the one an earlier run recorded; the site's active pipeline when it goes to
 * the target (an earlier run killed before it recorded the answer, or someone else); an earlier request whose
 * answer was never seen, sent again with its key. An active pipeline that goes elsewhere fails the site: the
 * service allows one per site.
 */
async function adoptable(
  client: RolloutClient,
  site: Site,
  prior: PipelineRequestRecord | undefined,
  target: RolloutTarget,
  signal: AbortSignal | undefined,
): Promise<UpgradePipeline | undefined> {
  if (!prior) return undefined;
  if (prior.pipelineId) {
    const pipeline = await client.upgradePipelines.get(site.id, prior.pipelineId, { signal });
    if (goesTo(pipeline, target)) return pipeline;
  }
  const active = await activeUpgrade(client, site.id, { signal });
  if (active) {
    if (goesTo(active, target)) return active;
    throw elsewhere(site, active);
  }
  if (!prior.pipelineId && prior.idempotencyKey) {
    try {
      const pipeline = await client.upgradePipelines.create(site.id, prior.params, { signal, idempotencyKey: prior.idempotencyKey });
      if (goesTo(pipeline, target)) return pipeline;
    } catch (err) {
      // The repeat refused (its first answer was a refusal, kept with the key): a new request decides.
      if (!refusal(err)) throw err;
    }
  }
  return undefined;
}
