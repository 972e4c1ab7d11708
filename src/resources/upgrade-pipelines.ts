// `so.upgradePipelines`: a site's WordPress/PHP upgrade pipelines: open, list, get, approve.
import { apiPath } from "../internal/api-path.js";
import type { APIError } from "../errors.js";
import type { APIClient, RequestOptions, Settled } from "../request-types.js";
import type { Me } from "./me.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { UpgradePipeline, UpgradePipelineApproveParams, UpgradePipelineCreateParams } from "../generated/wire.js";

export type {
  UpgradePipeline,
  UpgradePipelineApproveParams,
  UpgradePipelineCreateParams,
  UpgradePipelineStatus,
  UpgradePipelineStep,
} from "../generated/wire.js";

export class UpgradePipelines extends APIResource {
  /** GET /api/v1/sites/:site_id/upgrade_pipelines (newest first). */
  list(siteId: string, params?: PageParams, options?: ListOptions): PagePromise<UpgradePipeline> {
    return list<UpgradePipeline>(this.client, apiPath`/sites/${siteId}/upgrade_pipelines`, params, options, SHAPES.upgradePipeline);
  }
  /** GET /api/v1/sites/:site_id/upgrade_pipelines/:id */
  get(siteId: string, id: string, options?: RequestOptions): Promise<UpgradePipeline> {
    return this.client.send<UpgradePipeline>({
      method: "GET",
      path: apiPath`/sites/${siteId}/upgrade_pipelines/${id}`,
      ...options,
      expect: SHAPES.upgradePipeline,
    });
  }
  /** POST /api/v1/sites/:site_id/upgrade_pipelines (one active pipeline per site, else 422). */
  create(siteId: string, body: UpgradePipelineCreateParams, options?: RequestOptions): Promise<UpgradePipeline> {
    return this.client.send<UpgradePipeline>({
      method: "POST",
      path: apiPath`/sites/${siteId}/upgrade_pipelines`,
      body,
      ...options,
      expect: SHAPES.upgradePipeline,
    });
  }
  /** POST /api/v1/sites/:site_id/upgrade_pipelines/:id/approve (only in `awaiting_approval`, else 422). After
   * an attempt whose answer was lost, "not awaiting approval" resolves with the pipeline if this caller's
   * earlier attempt approved it. */
  approve(siteId: string, id: string, body: UpgradePipelineApproveParams = {}, options?: RequestOptions): Promise<UpgradePipeline> {
    return this.client.send<UpgradePipeline>({
      method: "POST",
      path: apiPath`/sites/${siteId}/upgrade_pipelines/${id}/approve`,
      body,
      ...options,
      expect: SHAPES.upgradePipeline,
      settle: (error) => approvedEarlier(this.client, siteId, id, body, error, options),
    });
  }
}

/**
 * Settles "not awaiting approval" (422, or 409 from a service that answers so) that follows an attempt whose
 * outcome is unknown: the pipeline counts as approved by that attempt when it is approved, by this user
 * (when the service says who), with this comment.
 */
async function approvedEarlier(
  client: APIClient,
  siteId: string,
  id: string,
  body: UpgradePipelineApproveParams,
  error: APIError,
  options: RequestOptions | undefined,
): Promise<Settled | undefined> {
  if (error.status !== 422 && error.status !== 409) return undefined;
  const scope = { signal: options?.signal, accountId: options?.accountId, headers: options?.headers };
  const response = await client.request<UpgradePipeline>({ method: "GET", path: apiPath`/sites/${siteId}/upgrade_pipelines/${id}`, ...scope });
  const pipeline = response.data;
  if (!pipeline.approved_at || (pipeline.comment ?? null) !== (body.comment ?? null)) return undefined;
  if (pipeline.approved_by && (await client.get<Me>(apiPath`/me`, scope)).id !== pipeline.approved_by) return undefined;
  return { response, note: "approved by an earlier attempt" };
}
