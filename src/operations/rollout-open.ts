// Which pipeline a site of a rollout gets: one it already has (recorded by an earlier run, active in the service, or
// found among its pipelines to the target when a rerun has no record of it), else one opened now. Never a second
// pipeline for a site and target; a refusal is read for what it says about the site (at the target already, another
// pipeline active) or about the run as a whole (the target is not one the service offers).

import { withResponse } from "../api-promise.js";
import { APIError, AuthenticationError, PermissionDeniedError, SiteOpsError } from "../errors.js";
import { compareVersions, sameVersion } from "../equivalence.js";
import { builtin } from "../internal/builtins.js";
import type { Site } from "../resources/sites.js";
import type { UpgradePipeline, UpgradePipelineCreateParams } from "../resources/upgrade-pipelines.js";
import { REPLAYED_HEADER } from "./keyed-snapshot.js";
import { formatTarget, reachesTarget, type RolloutTarget } from "./rollout-plan.js";
import { PipelineActiveError, type PipelineRequestRecord, type RolloutClient } from "./rollout-types.js";
import { activeUpgrade } from "./upgrade.js";

/** How far this machine's clock may be behind the service's when a rerun looks for the pipeline a request of its
 * opened: the pipeline's `created_at` is the service's time, the request's `sentAt` this machine's. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The service refuses the rollout's target itself (a version it does not offer): every site would be refused alike,
 * so the run ends, as a usage error. `code` is stable. */
export class TargetRefusedError extends SiteOpsError {
  override readonly code: string = "TARGET_REFUSED";
  readonly status: number;
  readonly requestId: string | undefined;
  constructor(message: string, cause: APIError) {
    super(message, { cause });
    this.status = cause.status;
    this.requestId = cause.requestId;
  }
}

/** The create request's body for a site: the versions of the target the site is below (a version it runs already, or
 * runs newer, is not asked for: the service refuses a downgrade or no change). */
export function pipelineParams(site: Pick<Site, "wp_version" | "php_version">, target: RolloutTarget, requireApproval: boolean): UpgradePipelineCreateParams {
  const below = (have: unknown, want: string | undefined): want is string =>
    want !== undefined && !(typeof have === "string" && (compareVersions(have, want) ?? -1) >= 0);
  return {
    ...(below(site.wp_version, target.wp) ? { to_wp_version: target.wp } : {}),
    ...(below(site.php_version, target.php) ? { to_php_version: target.php } : {}),
    requires_approval: requireApproval,
  };
}

/** Whether a pipeline leaves the site at the target: each version of the target it changes is the target's, each it
 * does not change (to = from) is at the target or newer already. */
function goesTo(pipeline: UpgradePipeline, target: RolloutTarget): boolean {
  const ok = (to: unknown, from: unknown, want: string | undefined) =>
    want === undefined || (typeof to === "string" && (sameVersion(to, want) || (to === from && (compareVersions(to, want) ?? -1) >= 0)));
  return ok(pipeline.to_wp_version, pipeline.from_wp_version, target.wp) && ok(pipeline.to_php_version, pipeline.from_php_version, target.php);
}

/** A refusal the request will get again as it is (a 4xx but 429), not credentials or permission. */
function refusal(err: unknown): err is APIError {
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

/** The newest pipeline of the site to the target opened at or after `since` (any time when undefined), reading every
 * page (the spec shows no order of the listing). */
async function openedSince(client: RolloutClient, site: Site, target: RolloutTarget, since: string | undefined, signal: AbortSignal | undefined) {
  const from = since === undefined ? Number.NEGATIVE_INFINITY : Date.parse(since) - CLOCK_SKEW_MS;
  let newest: UpgradePipeline | undefined;
  for await (const p of client.upgradePipelines.list(site.id, { per_page: 100 }, { signal })) {
    const at = Date.parse(String(p.created_at));
    if (!goesTo(p, target) || !(at >= from)) continue;
    if (!newest || at > Date.parse(String(newest.created_at))) newest = p;
  }
  return newest;
}

/**
 * The pipeline a site has already, as it is now; undefined when one must be opened (or sent again, see `resend`). A
 * site no run asked for (`prior` undefined) costs no request here unless `earlierRun` says a run without records may
 * have asked: its create goes first, and only a refusal looks for its active pipeline (openPipeline). Else, in order:
 * the one an earlier run recorded; the site's active pipeline when it goes to the target (another target fails the
 * site: the service allows one per site); for a request whose answer was never seen, the pipeline to the target it
 * may have opened since it was sent.
 */
export async function existingPipeline(
  client: RolloutClient,
  site: Site,
  prior: PipelineRequestRecord | undefined,
  target: RolloutTarget,
  earlierRun: { since?: string | undefined } | undefined,
  signal: AbortSignal | undefined,
): Promise<UpgradePipeline | undefined> {
  if (!prior) return earlierRun ? openedSince(client, site, target, earlierRun.since, signal) : undefined;
  if (prior.pipelineId) {
    const pipeline = await client.upgradePipelines.get(site.id, prior.pipelineId, { signal });
    if (goesTo(pipeline, target)) return pipeline;
  }
  const active = await activeUpgrade(client, site.id, { signal });
  if (active) {
    if (goesTo(active, target)) return active;
    throw elsewhere(site, active);
  }
  if (!prior.pipelineId) return openedSince(client, site, target, prior.sentAt ?? earlierRun?.since, signal);
  return undefined;
}

/** What opening a site's pipeline came to. */
export type Opened =
  | { pipeline: UpgradePipeline; how: "opened" | "adopted" }
  /** Refused, and the site, read again, runs the target already. */
  | { pipeline: null; how: "already_upgraded" };

/**
 * Opens the site's pipeline with `idempotencyKey`. A replayed answer (`Idempotent-Replayed`) to the call's first
 * attempt is an earlier run's request under the same key: adopted as it is now; to a retry, it is this call's own
 * attempt whose answer was lost: opened. A refusal while the site has an active pipeline (the service allows one)
 * adopts it when it goes to the target and fails the site when not. A refusal with none reads the site again: at the
 * target by then it is already upgraded; still below it, a refusal naming a version of the target is the target's
 * (TargetRefusedError); any other refusal stands.
 */
export async function openPipeline(
  client: RolloutClient,
  site: Site,
  params: UpgradePipelineCreateParams,
  idempotencyKey: string,
  target: RolloutTarget,
  signal: AbortSignal | undefined,
): Promise<Opened> {
  try {
    const { data, headers, retries } = await withResponse(client.upgradePipelines.create(site.id, params, { signal, idempotencyKey }));
    if (headers[REPLAYED_HEADER] !== "true") return { pipeline: data, how: "opened" };
    const now = await client.upgradePipelines.get(site.id, data.id, { signal });
    return { pipeline: now, how: (retries ?? 0) > 0 ? "opened" : "adopted" };
  } catch (err) {
    if (!refusal(err)) throw err;
    const active = await activeUpgrade(client, site.id, { signal });
    if (active) {
      if (!goesTo(active, target)) throw elsewhere(site, active);
      return { pipeline: active, how: "adopted" };
    }
    const now = await client.sites.get(site.id, { signal });
    if (reachesTarget(now, target)) return { pipeline: null, how: "already_upgraded" };
    const fields = (["to_wp_version", "to_php_version"] as const).filter((f) => params[f] !== undefined && err.errors?.[f]?.length);
    if (fields.length > 0) {
      const said = fields.map((f) => `${f} ${err.errors![f]!.join(", ")}`).join("; ");
      throw new TargetRefusedError(`the service refuses the target ${formatTarget(target)}: ${said}`, err);
    }
    throw err;
  }
}

/** A new request's key: the caller's (`requestKey`), else a random one. */
export function newRequestKey(name: string | undefined): string {
  return name ?? `siteops-${builtin("node:crypto").randomUUID()}`;
}
