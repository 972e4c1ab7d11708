// Upgrade workflows: open a pipeline and wait until it needs approval or ends; approve and wait for the end.

import { API_PREFIX } from "../internal/api-path.js";
import type { OperationsClient } from "./client.js";
import { OperationFailedError, UnexpectedResponseError } from "../errors.js";
import type { UpgradePipeline, UpgradePipelineCreateParams } from "../resources/upgrade-pipelines.js";
import type { OperationEvent } from "./events.js";
import { waitUntil, type WaitOptions } from "./wait.js";

export interface UpgradeWaitOptions extends WaitOptions {
  /** Wait (default true). false returns the pipeline as created or approved. */
  wait?: boolean;
  /** `so.operations.followUpgrade`: the site the pipeline belongs to, when the caller knows it (default: the pipeline's
   * `site_id`, a field the spec does not show). */
  siteId?: string;
  onProgress?: (event: OperationEvent) => void;
}

/** States after which a pipeline does not change any more (`failed` may still become `rolled_back`). */
export const PIPELINE_FINAL_STATES: ReadonlySet<string> = new Set(["succeeded", "failed", "rolled_back"]);
const FAILED = new Set(["failed", "rolled_back"]);
/** After `failed` with something applied, how long to wait for the rollback to be reported. */
export const ROLLBACK_GRACE_MS = 60_000;

/** Opens a pipeline and waits until it is `awaiting_approval` or final. Throws OperationFailedError when it
 * fails or is rolled back. */
export async function openUpgrade(
  client: OperationsClient,
  siteId: string,
  params: UpgradePipelineCreateParams,
  options: UpgradeWaitOptions = {},
): Promise<UpgradePipeline> {
  const pipeline = await client.upgradePipelines.create(siteId, params, { signal: options.signal });
  options.onProgress?.({ type: "pipeline.created", pipeline });
  if (options.wait === false) return pipeline;
  return waitPipeline(client, siteId, pipeline, (p) => p.status === "awaiting_approval", options);
}

/** Approves a pipeline in `awaiting_approval` and waits until it ends. Throws OperationFailedError when it
 * fails or is rolled back. */
export async function approveUpgrade(
  client: OperationsClient,
  siteId: string,
  pipelineId: string,
  options: UpgradeWaitOptions & { comment?: string } = {},
): Promise<UpgradePipeline> {
  const body = options.comment === undefined ? {} : { comment: options.comment };
  const pipeline = await client.upgradePipelines.approve(siteId, pipelineId, body, { signal: options.signal });
  options.onProgress?.({ type: "pipeline.approved", pipeline });
  if (options.wait === false) return pipeline;
  return waitPipeline(client, siteId, pipeline, () => false, options);
}

/** The site's pipeline that has not ended yet (the service allows one per site), or undefined. Lets a caller
 * whose request to open one lost its answer adopt the pipeline it opened rather than open another. */
export async function activeUpgrade(client: OperationsClient, siteId: string, options: { signal?: AbortSignal } = {}): Promise<UpgradePipeline | undefined> {
  // The spec shows no order of the listing: every page is read until an active one turns up (the emulator
  // lists newest first, so there it is on the first page).
  for await (const p of client.upgradePipelines.list(siteId, { per_page: 100 }, { signal: options.signal })) {
    if (!PIPELINE_FINAL_STATES.has(p.status)) return p;
  }
  return undefined;
}

/** Follows a pipeline someone else opened (or approves) until it ends, through `awaiting_approval`. Throws
 * OperationFailedError when it fails or is rolled back, WaitTimeoutError after `waitTimeout`. */
export function followUpgrade(client: OperationsClient, pipeline: UpgradePipeline, options: UpgradeWaitOptions = {}): Promise<UpgradePipeline> {
  const siteId: unknown = options.siteId ?? pipeline.site_id;
  if (typeof siteId !== "string" || siteId === "") {
    const problem = `the upgrade pipeline ${pipeline.id} has no "site_id" (expected a string); pass the site's id as \`siteId\``;
    return Promise.reject(new UnexpectedResponseError(`GET ${API_PREFIX}/sites/:site_id/upgrade_pipelines`, "site_id", problem));
  }
  return waitPipeline(client, siteId, pipeline, () => false, options);
}

/** Waits until `stop(p)` or the end. A pipeline that failed after applying something is followed until it
 * reports `rolled_back` (at most ROLLBACK_GRACE_MS), so the caller learns whether the site was restored. */
async function waitPipeline(
  client: OperationsClient,
  siteId: string,
  pipeline: UpgradePipeline,
  stop: (p: UpgradePipeline) => boolean,
  options: UpgradeWaitOptions,
): Promise<UpgradePipeline> {
  let failedAt: number | undefined;
  const done = (p: UpgradePipeline): boolean => {
    if (stop(p) || p.status === "succeeded" || p.status === "rolled_back") return true;
    if (p.status !== "failed") return false;
    const applied = (p.steps ?? []).some((step) => step.name === "apply" && step.status !== "pending" && step.status !== "skipped");
    if (!applied) return true;
    failedAt ??= Date.now();
    return Date.now() - failedAt >= ROLLBACK_GRACE_MS;
  };
  const final = await waitUntil(() => client.upgradePipelines.get(siteId, pipeline.id, { signal: options.signal }), done, {
    ...options,
    first: pipeline,
    key: (p) => `${p.status}|${(p.steps ?? []).map((s) => s.status).join(",")}`,
    describe: (p) => `upgrade pipeline ${p.id} is ${p.status}`,
    onChange: (p) => options.onProgress?.({ type: "pipeline.status", pipeline: p }),
  });
  if (FAILED.has(final.status)) {
    const reason = final.error ? `: ${final.error}` : "";
    throw new OperationFailedError(`Upgrade pipeline ${final.id} ${final.status === "failed" ? "failed" : "was rolled back"}${reason}.`, final);
  }
  return final;
}
